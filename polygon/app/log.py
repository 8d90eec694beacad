"""Use cases on the log itself: open it, stats, verify, export."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import msgspec

from polygon.errors import UserInputError
from polygon.events import (
    CONVERSATION_PREFIX,
    Envelope,
    EventLog,
    LmdbLog,
    LogStats,
    StorageError,
    VerifyReport,
    run_conversations,
    run_stream,
    to_builtins,
)


def open_log(path: Path, *, readonly: bool) -> LmdbLog:
    """Open the log; a missing log for a read is a user error naming the path."""
    if readonly and not (path / "data.mdb").exists():
        raise UserInputError(
            f"no event log at {path} (run `polygon run` or `polygon demo` first, "
            "or point --log / POLYGON_LOG at one)"
        )
    try:
        return LmdbLog(path, readonly=readonly)
    except StorageError as exc:
        raise UserInputError(str(exc)) from None


def envelope_to_dict(env: Envelope) -> dict[str, object]:
    """One event as plain data (the JSONL export format)."""
    return {
        "seq": env.seq,
        "stream": env.stream,
        "stream_version": env.stream_version,
        "identity": env.identity,
        "tag": env.tag,
        "schema_version": env.schema_version,
        "recorded_at": env.recorded_at,
        "payload": to_builtins(env.payload),
    }


_JSON = msgspec.json.Encoder(order="deterministic")


def export_jsonl(log: EventLog, out: IO[bytes], *, stream_prefix: str = "") -> int:
    """Write every event (optionally only streams with a prefix) as one JSON line each."""
    pages_readable(log)
    count = 0
    for env in _events(log, stream_prefix):
        out.write(_JSON.encode(envelope_to_dict(env)) + b"\n")
        count += 1
    return count


def _events(log: EventLog, stream_prefix: str) -> Iterator[Envelope]:
    if not stream_prefix:
        yield from log.read_all()
        return
    for stream in log.streams(stream_prefix):
        yield from log.read_stream(stream)


def recorded_answers(log: EventLog, run_id: str | None = None) -> dict[str, dict[str, Any]]:
    """Recorded model responses by request hash (what ``--cache`` and ``--resume`` reuse).

    With ``run_id``, only that run's conversations are read (no scan of the whole log).
    """
    from polygon.events import ModelCalled

    if run_id is None:
        events: Iterator[Envelope] = log.read_all(tags={"model.called"})
    else:
        events = (env for stream in log.streams(run_conversations(run_id)) for env in log.read_stream(stream))
    out: dict[str, dict[str, Any]] = {}
    for env in events:
        p = env.payload
        if isinstance(p, ModelCalled) and p.response is not None:
            out.setdefault(p.request_hash, p.response)
    return out


class Compacted(msgspec.Struct, frozen=True):
    """What ``log compact`` did."""

    kept: int
    dropped: int
    sweeps: tuple[str, ...]
    """Sweeps dropped with the runs (each had one of them as a point)."""
    damaged: tuple[str, ...] = ()
    """Calls left out because they were not whole (``--drop-damaged``)."""


def compact_log(
    log: EventLog, drop: list[str], out: Path, *, batch: int = 2000, drop_damaged: bool = False
) -> Compacted:
    """A new log at ``out`` with every event but those of the ``drop`` runs.

    With ``drop_damaged``, calls that are not whole (holes an older Polygon's failed commit
    left) are left out too, each whole: ``run --resume`` on the new log runs them again.

    The log itself stays append-only: this writes a copy, in the same order, with the same
    identities and payloads (sequence numbers close the gaps). The copy is written under a
    temporary name beside ``out`` and renamed only once it verifies: a killed compaction
    leaves no log at ``out`` that looks whole. A log a run is writing is refused (the copy
    would silently cut that run), and a sweep whose points include a dropped run is dropped
    with it (its leaderboard and resume would name a run that is gone).

    Snapshots (``<log>/snapshots``) stay behind: the copy's positions differ, so views of
    it fold afresh and snapshot it again.
    """
    from polygon.events import conversation_stream, labels_stream, run_stream, sweep_stream

    _check_target(out)
    pages_readable(log)
    for run_id in drop:
        if not log.stream_length(run_stream(run_id)):
            raise UserInputError(f"--drop {run_id}: no such run in the log")
    sweeps = _sweeps_of(log, set(drop))
    gone = tuple(p for r in drop for p in (run_stream(r), conversation_stream(f"{r}."), labels_stream(r)))
    gone += tuple(sweep_stream(w) for w in sweeps)
    damaged = tuple(stream for stream, _ in damaged_calls(log)) if drop_damaged else ()
    gone += damaged
    _remove_stale(out)
    temp = out.parent / f".{out.name}.compacting-{os.getpid()}"
    _remove_tree(temp)
    with _no_writer(log):
        try:
            kept, dropped = _copy(log, temp, gone, batch)
            os.replace(temp, out)
        except BaseException:
            _remove_tree(temp)
            raise
    return Compacted(kept, dropped, sweeps, damaged)


class Upgraded(msgspec.Struct, frozen=True):
    """What ``log upgrade`` did: every event copied, then read back equal."""

    events: int
    bytes_before: int
    bytes_after: int


def upgrade_log(src: Path, out: Path) -> Upgraded:
    """A format-2 copy of the format-1 log at ``src``, written to ``out`` and verified.

    The copy is the compaction copy with nothing dropped (same sequence numbers, streams,
    identities, payload bytes and times), then every event of both logs is decoded and
    compared; any difference removes the copy. The source is never written.
    """
    from polygon.events import FORMAT_VERSION, holds_polygon_log

    if not holds_polygon_log(src):
        raise UserInputError(f"{src}: no Polygon event log there (nothing to upgrade)")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UserInputError(f"{out} already exists; upgrade writes a new log into a new or empty folder")
    with open_log(src, readonly=True) as log:
        if log.format >= FORMAT_VERSION:
            raise UserInputError(f"{src}: the log is already format {log.format}; nothing to upgrade")
        compact_log(log, [], out)
        try:
            count = _compare_all(log, out)
        except BaseException:
            _remove_tree(out)
            raise
    return Upgraded(count, _disk_bytes(src), _disk_bytes(out))


def _compare_all(log: LmdbLog, out: Path) -> int:
    """Every event of ``log`` and of the copy at ``out`` decodes to the same envelope."""
    count = 0
    with LmdbLog(out, readonly=True) as copy:
        theirs = copy.read_all()
        for mine in log.read_all():
            other = next(theirs, None)
            if other != mine:
                raise UserInputError(f"the upgraded copy differs at event #{mine.seq}; nothing was written")
            count += 1
        if next(theirs, None) is not None:
            raise UserInputError("the upgraded copy holds more events than the log; nothing was written")
    return count


def _disk_bytes(path: Path) -> int:
    return (path / "data.mdb").stat().st_size


def _remove_tree(path: Path) -> None:
    """``path`` and everything under it gone, if it was there.

    shutil (with the compression modules it imports, ~0.004 CPU s) loads here: every
    command imports this module to open its log, and only compact and upgrade remove one.
    """
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _remove_stale(out: Path) -> None:
    """Temporary folders of compactions into ``out`` that were killed (their process is gone)."""
    for temp in out.parent.glob(f".{out.name}.compacting-*"):
        pid = temp.name.rsplit("-", 1)[-1]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            _remove_tree(temp)
        except PermissionError:
            pass  # alive, someone else's


def _check_target(out: Path) -> None:
    if out.is_dir() and any(out.iterdir()):
        what = "a log is already there" if (out / "data.mdb").exists() else "the folder is not empty"
        raise UserInputError(f"{out}: {what}; compact writes a new log into a new or empty folder")
    if out.exists() and not out.is_dir():
        raise UserInputError(f"{out}: a file is there; compact writes a new log into a new or empty folder")
    if not out.parent.is_dir():
        raise UserInputError(f"{out}: its folder {out.parent} does not exist")


def _sweeps_of(log: EventLog, runs: set[str]) -> tuple[str, ...]:
    from polygon.events import SWEEP_PREFIX
    from polygon.projections import fold_sweep_head

    out = []
    for stream in log.streams(SWEEP_PREFIX):
        head = fold_sweep_head(log.read_stream(stream))
        if head and head.runs & runs:
            out.append(stream.removeprefix(SWEEP_PREFIX))
    return tuple(out)


@contextlib.contextmanager
def _no_writer(log: EventLog) -> Iterator[None]:
    """Hold the source log's writer lock while copying (a run that starts meanwhile is refused)."""
    if not isinstance(log, LmdbLog):
        yield
        return
    with log.writers_held_off():
        yield


def _copy(log: EventLog, temp: Path, gone: tuple[str, ...], batch: int) -> tuple[int, int]:
    """Every kept record into a new log at ``temp``, payload bytes as stored, then verified."""
    from polygon.events import Prepared, prepare_stored

    if not isinstance(log, LmdbLog):
        raise UserInputError("compaction copies an LMDB log")
    kept = dropped = 0
    with LmdbLog(temp) as target:
        held: list[Prepared] = []
        for page in log.raw_pages(page_size=batch):
            for raw in page:
                record = prepare_stored(raw)
                if _dropped(record.stream, gone):
                    dropped += 1
                    continue
                held.append(record)
            if len(held) >= batch:
                kept += target.append_prepared(held).written
                held = []
        if held:
            kept += target.append_prepared(held).written
        if not target.verify().ok or target.last_seq() != kept:
            raise UserInputError("the compacted log did not verify; nothing was written")
    return kept, dropped


def _dropped(stream: str, gone: tuple[str, ...]) -> bool:
    """The stream belongs to a dropped run: its own stream, its calls, its labels."""
    return any(stream == p or (p.endswith(".") and stream.startswith(p)) for p in gone)


def call_damage(events: list[Envelope]) -> str:
    """Why a conversation stream is not whole ("" when it is).

    Whole: it opens with ``conversation.started`` (once), its spoken turns run 1, 2, … with
    none skipped, and an ended call spoke no turn past the count its end records. A stream
    cut short (a kill, a failed commit since commits poison their writer) is a whole prefix;
    a hole in the middle was left by a Polygon whose failed commit let later batches in.
    """
    from polygon.events import ConversationEnded, ConversationStarted, TurnSpoken

    if not events:
        return ""
    if not isinstance(events[0].payload, ConversationStarted):
        return f"it opens with {events[0].tag}, not conversation.started"
    last = 0
    ended: ConversationEnded | None = None
    for env in events[1:]:
        p = env.payload
        if isinstance(p, ConversationStarted):
            return "it holds a second conversation.started"
        if isinstance(p, TurnSpoken):
            if p.turn not in (last, last + 1) or ended is not None:
                return f"turn {p.turn} follows turn {last}" + (" and the call's end" if ended else "")
            last = p.turn
        elif isinstance(p, ConversationEnded):
            ended = p
    if ended is not None and last > ended.turns:
        return f"it spoke {last} turns but its end records {ended.turns}"
    return ""


def check_run_intact(log: EventLog, run_id: str) -> None:
    """Before a resume writes onto run ``run_id``: its own streams' events still match their hashes.

    A resume once appended to a log whose events no longer matched their content hashes, and
    later reports were built on them unsaid. Only this run's streams are hashed (about what the
    resume reads anyway), not the whole log (``polygon log verify``).
    """
    if not isinstance(log, LmdbLog):
        return
    streams = [run_stream(run_id), *log.streams(f"{CONVERSATION_PREFIX}{run_id}.")]
    if problem := log.changed_record(streams):
        raise StorageError(
            f"cannot resume run {run_id}: the event log {log.path} is damaged ({problem}); "
            "nothing was written; restore it from a copy, or start the run afresh in a new log"
        )


def log_stats(log: EventLog) -> LogStats:
    """``log stats``: counts by tag, sizes; first every page is read once in a child process.

    Stats read every record: a page that makes LMDB abort would kill this process unsaid.
    """
    pages_readable(log)
    return log.stats()


def pages_readable(log: EventLog) -> None:
    """Before a command reads the whole log: every page reads, checked in a child process.

    A damaged page can make LMDB abort the process reading it (no ``except`` catches that):
    the child dies instead, and this raises one line naming the log.
    """
    if isinstance(log, LmdbLog) and (problem := log.pages_problem()):
        raise StorageError(problem)


def verify_log(log: EventLog) -> VerifyReport:
    """``log verify``: every page reads, the log's own invariants, then every conversation is whole.

    The pages are read first in a child process: a damaged one can make LMDB abort the process.
    """
    if isinstance(log, LmdbLog) and (problem := log.pages_problem()):
        return VerifyReport(events=0, streams=0, problem=problem)
    report = log.verify()
    if not report.ok:
        return report
    for stream, damage in damaged_calls(log):
        return VerifyReport(
            events=report.events,
            streams=report.streams,
            problem=f"{stream} is not whole: {damage} (`polygon log compact --drop-damaged` repairs it)",
        )
    from polygon.app import json_rows, views
    from polygon.app.snapshots import snapshots_for, verify_snapshots

    checks = {views.PROJECTION: views.why_damaged, json_rows.PROJECTION: json_rows.why_damaged}
    try:
        with snapshots_for(log, create=False, strict=True) as store:
            _kept, damaged = verify_snapshots(log, store, checks)
    except StorageError as exc:  # views pass over such a folder and fold afresh
        damaged = f"{exc} (views fold without them; delete it and they are made again)"
    if damaged:
        return VerifyReport(events=report.events, streams=report.streams, problem=damaged)
    return report


def damaged_calls(log: EventLog) -> Iterator[tuple[str, str]]:
    """Each call of a run whose stream is not whole, with why (see :func:`call_damage`)."""
    runs: dict[str, bool] = {}
    for stream in log.streams(CONVERSATION_PREFIX):
        run_id = stream.removeprefix(CONVERSATION_PREFIX).split(".", 1)[0]
        if run_id not in runs:  # a call of a run (not a stream written by hand, as tests do)
            runs[run_id] = bool(log.stream_length(run_stream(run_id)))
        if runs[run_id] and (damage := call_damage(list(log.read_stream(stream)))):
            yield stream, damage
