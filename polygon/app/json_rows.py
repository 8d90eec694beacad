"""The JSON report's whole rows, kept as written between views (a snapshot of rendered rows).

``report --format json`` shows every judge repeat and check of every call, which the run's
reduced fold (:mod:`.snapshots`) does not keep: each call's stream was read back and its
row computed and written again on every view (35 CPU s at 20k calls). This snapshot keeps
each call's row as :func:`polygon.render.json_row` wrote it (zstd-compressed with a
dictionary trained on the first rows computed, ~0.9 KB a call; 2.1 KB without one), per run
and rubric version, with the pass it was computed under and the log position it is good to.

A row depends on its call's stream, the run's start and rubrics, the rubric version and
the pass. So on the next view every event after the snapshot is looked at once: a call's
row is dropped when its stream has anything new, every row when the run records a rubric
(or a start), and a row of another pass is computed afresh. What is missing is computed
from the log as before; the document is byte-identical with or without the snapshot.
A snapshot of another version or log, or one that does not decode, is ignored; a row whose
frame does not decompress (sealed with a good hash all the same: a forger's, or a bug's) is
computed afresh and the rows saved mended, and ``log verify`` names it (:func:`why_damaged`).
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator

import msgspec
import zstandard

from polygon.app.snapshots import PACKED_RATIO, RESAVE_AFTER, anchor, snapshots_for, why_off_log
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
FORMAT = 3
"""This module's encoding and :func:`polygon.render.json_row`'s output: bump on a change to either."""
LEVEL = 3
"""zstd level: 7.8× smaller rows at 20 µs a row to read back (level 6 buys 10% for 3× the writing)."""
SAMPLE = 256
"""Rows a dictionary is trained on (held as text meanwhile: ~4 MB; trained in ~0.07 s)."""
SAMPLE_BYTES = 16 << 20
"""Or fewer, when they are this long together (calls with long quotes make long rows)."""
DICTIONARY_SIZE = 64 << 10
"""A row is one call's checks and scores, much like the next call's: with a dictionary of the
first rows a row compresses 2.4× smaller (2,085 -> 873 B at 1k calls), and the snapshot of a
20k-call run's rows, held whole while it is saved, 42 -> 18 MB."""

WholeRows = Callable[[EventLog, RunRecord, RunReport], Iterator[ConversationVerdict]]
"""The report's rows read whole from the log (``polygon.app.queries.whole_rows``)."""


class KeptRow(msgspec.Struct, array_like=True):
    """One call's row: the pass it was computed under, and its text (compressed UTF-8)."""

    pass_id: str
    text: bytes


class KeptRows(msgspec.Struct):
    """The snapshot's state: conversation id → its row."""

    rows: dict[str, KeptRow]
    dictionary: bytes = b""
    """The zstd dictionary every row is compressed with; empty: none (too few rows to train on)."""


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
    rows = kept.rows
    missing = [r for r in report.conversations if not _fits(rows.get(r.record.conversation_id), r.pass_id)]
    fresh = whole(log, state, msgspec.structs.replace(report, conversations=missing))
    # the rows kept were packed with the snapshot's dictionary: new ones are too; none yet, one is trained
    packer = _Packer(kept.dictionary if rows or kept.dictionary else None)
    damaged = False
    for row in report.conversations:
        found = rows.get(row.record.conversation_id)
        if _fits(found, row.pass_id):
            assert found is not None  # for mypy: _fits said so
            if (text := packer.unpacked(found.text)) is not None:
                yield text
                continue
            # sealed with a good hash, yet no row: computed afresh, and the snapshot mended
            damaged = True
            computed = next(whole(log, state, msgspec.structs.replace(report, conversations=[row])))
        else:
            computed = next(fresh)
        text = json_row(computed)
        packer.pack(rows, row.record.conversation_id, row.pass_id, text)
        yield text
    dictionary = packer.finish(rows)
    if missing or damaged or read >= RESAVE_AFTER:
        _save(log, store, state.run_id, key, position, KeptRows(rows=rows, dictionary=dictionary))


class _Packer:
    """Rows compressed with one dictionary.

    Without one yet, the first :data:`SAMPLE` rows are held as text, a dictionary is trained
    on them, and they are packed with it.
    """

    def __init__(self, dictionary: bytes | None) -> None:
        self.dictionary = dictionary
        self._held: list[tuple[str, str, str]] = []
        self._held_size = 0
        self._use(dictionary or b"")

    def _use(self, dictionary: bytes) -> None:
        shared = zstandard.ZstdCompressionDict(dictionary) if dictionary else None
        self.unpack = zstandard.ZstdDecompressor(dict_data=shared).decompress
        self._compress = zstandard.ZstdCompressor(level=LEVEL, dict_data=shared).compress

    def unpacked(self, text: bytes) -> str | None:
        """A kept row's text; None when its frame is not one this packer wrote.

        Its size is checked before it is decompressed: ``decompress`` allocates what a frame's
        header says at once (a frame claiming 1 TB was a MemoryError mid-document).
        """
        try:
            if not 0 <= zstandard.frame_content_size(text) <= PACKED_RATIO * len(text):
                return None
            return self.unpack(text).decode()
        except (zstandard.ZstdError, UnicodeDecodeError):
            return None

    def pack(self, rows: dict[str, KeptRow], conversation_id: str, pass_id: str, text: str) -> None:
        """Keep ``text`` as ``conversation_id``'s row (packed once a dictionary is chosen)."""
        if self.dictionary is None:
            self._held.append((conversation_id, pass_id, text))
            self._held_size += len(text)
            if len(self._held) >= SAMPLE or self._held_size >= SAMPLE_BYTES:
                self.finish(rows)
            return
        rows[conversation_id] = KeptRow(pass_id=pass_id, text=_packed(self._compress, text))

    def finish(self, rows: dict[str, KeptRow]) -> bytes:
        """Pack the rows held (training the dictionary on them first); the dictionary."""
        if self.dictionary is not None:
            return self.dictionary
        dictionary = self.dictionary = _trained([text.encode() for _, _, text in self._held])
        self._use(dictionary)
        held, self._held = self._held, []
        for conversation_id, pass_id, text in held:
            self.pack(rows, conversation_id, pass_id, text)
        return dictionary


def _trained(samples: list[bytes | bytearray | memoryview]) -> bytes:
    """A dictionary for rows like ``samples``; empty when they are too few to train one on."""
    if len(samples) < 8:
        return b""
    try:
        return zstandard.train_dictionary(DICTIONARY_SIZE, samples, level=LEVEL).as_bytes()
    except zstandard.ZstdError:  # zstd finds too little in common: rows are packed without one
        return b""


def _packed(compress: Callable[[bytes], bytes], text: str) -> bytes:
    """``text`` compressed, in a bytes object of its own size.

    zstandard's ``compress`` returns its output in the buffer it allocated for the worst
    case (the input's size): a kept row held ~14 KB for ~2 KB of frame, and the JSON report's
    first view at 20k calls grew to 430 MB of heap (190 MB with the copy).
    """
    return bytes(memoryview(compress(text.encode())))


def _fits(found: KeptRow | None, pass_id: str) -> bool:
    return found is not None and found.pass_id == pass_id


def _kept(log: EventLog, store: SnapshotStore, run_id: str, key: str, position: int) -> tuple[KeptRows, int]:
    """The rows still good at ``position`` (with their dictionary), and the events read past it."""
    snapshot = store.load(PROJECTION, run_id, key)
    if snapshot is None or snapshot.version != version() or why_off_log(log, snapshot, position):
        return KeptRows(rows={}), 0
    try:
        kept = _DECODER.decode(snapshot.state)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return KeptRows(rows={}), 0
    if not _unpacks(kept):
        return KeptRows(rows={}), 0
    head = run_stream(run_id)
    for env in log.read_all(after_seq=snapshot.position):
        if env.seq > position:
            break
        if env.stream == head and isinstance(env.payload, RubricRecorded | RunStarted):
            return KeptRows(rows={}), 0
        if is_conversation_stream(env.stream):
            kept.rows.pop(conversation_of_stream(env.stream), None)
    return kept, position - snapshot.position


def _unpacks(kept: KeptRows) -> bool:
    """A row decompresses with the dictionary kept beside it (one that does not fit is no snapshot)."""
    first = next(iter(kept.rows.values()), None)
    return first is None or _Packer(kept.dictionary).unpacked(first.text) is not None


def why_damaged(log: EventLog, snapshot: Snapshot) -> str:
    """Why kept rows that fit ``log`` cannot be shown ("" when they can, or do not fit).

    For ``log verify``: a view computes such a row afresh and mends the snapshot.
    """
    if snapshot.version != version() or why_off_log(log, snapshot):
        return ""  # stale: the next view replaces it
    try:
        kept = _DECODER.decode(snapshot.state)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return f"its state does not decode ({exc})"
    packer = _Packer(kept.dictionary)
    for conversation_id, row in kept.rows.items():
        if packer.unpacked(row.text) is None:
            return f"its row of {conversation_id} does not decompress with its dictionary"
    return ""


def _save(log: EventLog, store: SnapshotStore, run_id: str, key: str, position: int, kept: KeptRows) -> None:
    with contextlib.suppress(StorageError):  # a view works without its snapshot
        store.save(
            Snapshot(
                projection=PROJECTION,
                version=version(),
                subject=run_id,
                inputs=key,
                position=position,
                anchor=anchor(log, position),
                state=_ENCODER.encode(kept),
            )
        )
