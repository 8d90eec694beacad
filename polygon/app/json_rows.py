"""The JSON report's whole rows, kept as written between views (a snapshot of rendered rows).

``report --format json`` shows every judge repeat and check of every call, which the run's
reduced fold (:mod:`.snapshots`) does not keep: each call's stream was read back and its
row computed and written again on every view (35 CPU s at 20k calls). This snapshot keeps
each call's row as :func:`polygon.render.json_row` wrote it (zstd-compressed, ~1.9 KB a
call), per run and rubric version, with the pass it was computed under and the log
position it is good to.

A row depends on its call's stream, the run's start and rubrics, the rubric version and
the pass. So on the next view every event after the snapshot is looked at once: a call's
row is dropped when its stream has anything new, every row when the run records a rubric
(or a start), and a row of another pass is computed afresh. What is missing is computed
from the log as before; the document is byte-identical with or without the snapshot.
A snapshot of another version or log, or one that does not decode, is ignored.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator

import msgspec
import zstandard

from polygon.app.snapshots import RESAVE_AFTER, anchor, snapshots_for, why_off_log
from polygon.events import (
    EventLog,
    RubricRecorded,
    RunStarted,
    Snapshot,
    SnapshotStore,
    StorageError,
    conversation_of_stream,
    is_conversation_stream,
    run_stream,
)
from polygon.projections import ConversationVerdict, RunRecord, RunReport
from polygon.projections import verdicts as verdict_fold
from polygon.render import json_row

PROJECTION = "json-rows"
FORMAT = 1
"""This module's encoding and :func:`polygon.render.json_row`'s output: bump on a change to either."""
LEVEL = 3
"""zstd level: 7.8× smaller rows at 20 µs a row to read back (level 6 buys 10% for 3× the writing)."""

WholeRows = Callable[[EventLog, RunRecord, RunReport], Iterator[ConversationVerdict]]
"""The report's rows read whole from the log (``polygon.app.queries.whole_rows``)."""


class KeptRow(msgspec.Struct, array_like=True):
    """One call's row: the pass it was computed under, and its text (compressed UTF-8)."""

    pass_id: str
    text: bytes


class KeptRows(msgspec.Struct):
    """The snapshot's state: conversation id → its row."""

    rows: dict[str, KeptRow]


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(KeptRows)


def version() -> str:
    """The verdicts fold's version, the row's shape and :data:`FORMAT`: another never fits."""
    shape = msgspec.json.encode(msgspec.json.schema(ConversationVerdict))
    return f"verdicts-{verdict_fold.VERSION}.row-{hashlib.blake2b(shape, digest_size=6).hexdigest()}.{FORMAT}"


def row_texts(
    log: EventLog, state: RunRecord, report: RunReport, whole: WholeRows, store: SnapshotStore | None = None
) -> Iterator[str]:
    """Each row of ``report`` as :func:`json_row` writes its whole row, in the report's order.

    Rows kept in the run's snapshot are read from it; the others are computed by ``whole``
    (one call at a time) and kept, and the snapshot saved once the last row is written.
    """
    if store is None:
        with snapshots_for(log) as beside:
            yield from _texts(log, beside, state, report, whole)
    else:
        yield from _texts(log, store, state, report, whole)


def _texts(
    log: EventLog, store: SnapshotStore, state: RunRecord, report: RunReport, whole: WholeRows
) -> Iterator[str]:
    position, key = log.last_seq(), report.rubric_version
    kept, read = _kept(log, store, state.run_id, key, position)
    missing = [r for r in report.conversations if not _fits(kept.get(r.record.conversation_id), r.pass_id)]
    fresh = whole(log, state, msgspec.structs.replace(report, conversations=missing))
    decompress = zstandard.ZstdDecompressor().decompress
    compress = zstandard.ZstdCompressor(level=LEVEL).compress
    for row in report.conversations:
        found = kept.get(row.record.conversation_id)
        if _fits(found, row.pass_id):
            assert found is not None  # for mypy: _fits said so
            yield decompress(found.text).decode()
            continue
        text = json_row(next(fresh))
        kept[row.record.conversation_id] = KeptRow(pass_id=row.pass_id, text=_packed(compress, text))
        yield text
    if missing or read >= RESAVE_AFTER:
        _save(log, store, state.run_id, key, position, kept)


def _packed(compress: Callable[[bytes], bytes], text: str) -> bytes:
    """``text`` compressed, in a bytes object of its own size.

    zstandard's ``compress`` returns its output in the buffer it allocated for the worst
    case (the input's size): a kept row held ~14 KB for ~2 KB of frame, and the JSON report's
    first view at 20k calls grew to 430 MB of heap (190 MB with the copy).
    """
    return bytes(memoryview(compress(text.encode())))


def _fits(found: KeptRow | None, pass_id: str) -> bool:
    return found is not None and found.pass_id == pass_id


def _kept(
    log: EventLog, store: SnapshotStore, run_id: str, key: str, position: int
) -> tuple[dict[str, KeptRow], int]:
    """The rows still good at ``position``, and how many events past the snapshot were read."""
    snapshot = store.load(PROJECTION, run_id, key)
    if snapshot is None or snapshot.version != version() or why_off_log(log, snapshot, position):
        return {}, 0
    try:
        rows = _DECODER.decode(snapshot.state).rows
    except (msgspec.DecodeError, msgspec.ValidationError):
        return {}, 0
    head = run_stream(run_id)
    for env in log.read_all(after_seq=snapshot.position):
        if env.seq > position:
            break
        if env.stream == head and isinstance(env.payload, RubricRecorded | RunStarted):
            return {}, 0
        if is_conversation_stream(env.stream):
            rows.pop(conversation_of_stream(env.stream), None)
    return rows, position - snapshot.position


def _save(
    log: EventLog, store: SnapshotStore, run_id: str, key: str, position: int, rows: dict[str, KeptRow]
) -> None:
    with contextlib.suppress(StorageError):  # a view works without its snapshot
        store.save(
            Snapshot(
                projection=PROJECTION,
                version=version(),
                subject=run_id,
                inputs=key,
                position=position,
                anchor=anchor(log, position),
                state=_ENCODER.encode(KeptRows(rows=rows)),
            )
        )
