"""A run's fold from its snapshot and the events after it, shared by every view of a run.

``report`` (every format), ``compare`` and the web UI's run and compare pages fold a run
into its verdicts (reduced, :func:`polygon.projections.verdicts.build_reduced`) and its
probe answers. Folding a big run reads every one of its events; a snapshot keeps that
state with the log position it was folded to, so the next view reads only the events
after it and saves the state again.

A snapshot is never trusted blindly: one of another projection version, of another log (the
event at its position is not the one it names), past the log's end, or damaged is ignored
and the run is folded afresh. Where the events after a snapshot could fold differently
than a fresh fold would (more scores for a pass already reduced, a new rubric), the run is
folded afresh too: a view with a snapshot is byte-identical to one without. A new judge
pass over the run's calls is folded onto the snapshot (a chunk of the tail at a time).

``POLYGON_SNAPSHOTS=0`` switches them off.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

import msgspec

from polygon.errors import UnknownIdError
from polygon.events import (
    SNAPSHOT_DIR,
    CheckRecorded,
    Envelope,
    EventLog,
    JudgeScored,
    LmdbLog,
    LmdbSnapshots,
    NullSnapshots,
    RubricRecorded,
    Snapshot,
    SnapshotStore,
    StorageError,
    run_conversations,
    run_stream,
)
from polygon.projections import ProbeTable, RunRecord
from polygon.projections import probes as probe_fold
from polygon.projections import verdicts as verdict_fold

PROJECTION = "run"
"""The run's verdicts (reduced) and probe answers, folded in one read."""
VERSION = f"verdicts-{verdict_fold.VERSION}.probes-{probe_fold.VERSION}.2"
"""Changes with either projection's version, or with this module's encoding (the last part;
2: the state zstd-compressed, see :func:`_packed`)."""
SWITCH = "POLYGON_SNAPSHOTS"
RESAVE_AFTER = 50_000
"""Events of other runs read past a snapshot before it is saved again at the log's end."""


class RunFold(msgspec.Struct, kw_only=True):
    """What every view of a run starts from."""

    verdicts: RunRecord
    probes: ProbeTable


_ENCODER = msgspec.msgpack.Encoder()


@functools.cache
def _decoder() -> msgspec.msgpack.Decoder[RunFold]:
    """The fold's decoder, made when a snapshot is first read.

    Making it walks both folds' types (~2 ms), and a run, a sweep or a judge pass imports
    this module without ever reading a snapshot.
    """
    return msgspec.msgpack.Decoder(RunFold)


def _packed(fold: RunFold) -> bytes:
    """The fold as saved: msgpack, zstd-compressed.

    A run's fold repeats itself from call to call: its 48.6 MB of msgpack at 20k calls are
    0.8 MB compressed (17 ms at level 1). Saved plain, it was copied three times at the end of
    a view that folded the run (its encoding, the sealed record, LMDB's dirty pages): at 100k
    calls, ~0.5 GB of the first ``report``'s heap.
    """
    import zstandard  # here: a run imports this module, views save and load snapshots

    encoded = _ENCODER.encode(fold)
    return bytes(memoryview(zstandard.ZstdCompressor(level=1).compress(encoded)))  # not its worst-case buffer


def _unpacked(state: bytes) -> RunFold:
    """The fold :func:`_packed` saved (a :class:`msgspec.DecodeError` when it is not one)."""
    import zstandard

    try:
        size = zstandard.frame_content_size(state)
        if not 0 <= size <= PACKED_RATIO * len(state):  # -1: unsaid; more: not what a fold packs to
            raise zstandard.ZstdError(f"it says it holds {size} bytes")  # a bomb would be allocated whole
        raw = zstandard.ZstdDecompressor().decompress(state)
    except zstandard.ZstdError as exc:
        raise msgspec.DecodeError(f"not a zstd frame of a fold: {exc}") from None
    return _decoder().decode(raw)


PACKED_RATIO = 4096
"""The most a saved fold may grow by decompressed (a run's packs ~60×); a frame saying more
is not one (its size would be allocated at once: a hostile one claiming 1 TB ended ``log
verify`` with a MemoryError). A fold that ever packed tighter is folded afresh, not trusted."""


def enabled(env: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """Snapshots are on unless ``POLYGON_SNAPSHOTS`` is ``0`` (or ``off``, ``no``, ``false``)."""
    return env.get(SWITCH, "1").strip().lower() not in {"0", "off", "no", "false"}


@contextlib.contextmanager
def snapshots_for(log: EventLog, *, create: bool = True, strict: bool = False) -> Iterator[SnapshotStore]:
    """The store beside ``log``.

    Null when switched off, for a log in memory, or where the folder cannot hold them (a
    log on a read-only disk still folds, every time). Without ``create``, only snapshots
    already there (a check leaves no folder behind). With ``strict`` (``log verify``), a
    folder that cannot be opened is a :class:`StorageError` instead of passed over.
    """
    store: SnapshotStore = NullSnapshots()
    if strict and enabled() and isinstance(log, LmdbLog) and (log.path / SNAPSHOT_DIR).is_file():
        # views pass over it (no folder, no snapshots); a check names it
        raise StorageError(f"{log.path / SNAPSHOT_DIR} is a file, not the snapshots folder")
    if enabled() and isinstance(log, LmdbLog) and (create or (log.path / SNAPSHOT_DIR).is_dir()):
        folder = log.path / SNAPSHOT_DIR
        if not strict and _nearly_full(log.path):
            yield store  # a view works without its snapshots; opening them could not
            return
        with contextlib.suppress(*(() if strict else (StorageError,))):
            # a check of a log on a read-only disk reads its snapshots without the lock file
            store = LmdbSnapshots(folder, readonly=strict and not create and _cannot_write(folder))
    try:
        yield store
    finally:
        store.close()


def _unwritable(folder: Path) -> bool:
    """The folder (or its lock file) cannot be written: a read-only disk, another user's log."""
    lock = folder / "lock.mdb"
    return not os.access(folder, os.W_OK) or (lock.exists() and not os.access(lock, os.W_OK))


MIN_FREE = 16 << 20
"""Free bytes below which views leave the snapshots closed.

LMDB maps its lock file (and pages it grows) into memory: on a full disk, the first write to
such a page kills the process with SIGBUS instead of failing a call (seen with a log on a full
tmpfs: ``report`` died with no word). Without snapshots the view folds the log, as it does on a
read-only disk."""


def _cannot_write(folder: Path) -> bool:
    """A check opens the snapshots read-only (no lock file) on a read-only or nearly full disk."""
    return _unwritable(folder) or _nearly_full(folder)


def _nearly_full(folder: Path) -> bool:
    import shutil  # here, not with the module: a run imports it, views open the snapshots

    try:
        return shutil.disk_usage(folder).free < MIN_FREE
    except OSError:
        return False  # the open that follows says what is wrong


def fold_run(log: EventLog, run_id: str, store: SnapshotStore | None = None) -> RunFold:
    """The run folded to the log's end: from its snapshot when one fits, saved again after."""
    if store is None:
        with snapshots_for(log) as beside:
            return fold_run(log, run_id, beside)
    if not log.stream_length(run_stream(run_id)):
        raise UnknownIdError(f"no run {run_id!r} in the log")
    with gc_paused():
        return _fold_or_resume(log, run_id, store)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic collector off while a run's state is built.

    Decoding a snapshot or folding a run allocates millions of small objects that live on
    (the state), and each few hundred allocations start a collection that walks the young
    ones again: at 20k calls, decoding the snapshot took 2.5 CPU s with it and 0.3 s without.
    The state holds no reference cycles, so nothing is left for the collector meanwhile;
    it is switched back on after (unless something else had it off).

    Switched back on, the collector would walk every object made meanwhile at its next
    collection, and again as they age (1.1 CPU s at 20k calls, twice in a ``report``), so
    they are frozen first: left out of collections, still freed when no longer referenced.
    The next pause unfreezes what an earlier one froze (the oldest generation then holds
    it), so a long-lived server does not keep a cycle made during a view for ever.
    """
    was_on = gc.isenabled()
    gc.disable()
    if was_on:
        gc.unfreeze()
    try:
        yield
    finally:
        if was_on:
            gc.freeze()
            gc.enable()


def _fold_or_resume(log: EventLog, run_id: str, store: SnapshotStore) -> RunFold:
    """:func:`fold_run` past its checks: resume from the snapshot or fold afresh, then save."""
    position = log.last_seq()
    snapshot = store.load(PROJECTION, run_id)
    resumed = _resumed(log, run_id, snapshot, position) if snapshot is not None else None
    if resumed is None:
        fold = _folded(log, run_id, position)
    else:
        fold, mine, read = resumed
        if not mine and read < RESAVE_AFTER:
            return fold  # nothing of this run is new: saving would buy little for its writing
    with contextlib.suppress(StorageError):  # a view works without its snapshot
        store.save(
            Snapshot(
                projection=PROJECTION,
                version=VERSION,
                subject=run_id,
                position=position,
                anchor=anchor(log, position),
                state=_packed(fold),
            )
        )
    return fold


def anchor(log: EventLog, position: int) -> str:
    """The identity of the event at ``position`` ("" when there is none)."""
    return next((env.identity for env in log.read_all(after_seq=position - 1, page_size=1)), "")


def why_unfit(log: EventLog, snapshot: Snapshot, position: int | None = None) -> str:
    """Why ``snapshot`` cannot stand for its run's fold in ``log`` ("" when it can)."""
    if snapshot.projection != PROJECTION or snapshot.version != VERSION:
        return f"it is of {snapshot.projection} {snapshot.version}, not {PROJECTION} {VERSION}"
    return why_off_log(log, snapshot, position)


def why_off_log(log: EventLog, snapshot: Snapshot, position: int | None = None) -> str:
    """Why ``snapshot`` was not folded from ``log`` up to ``position`` or before ("" when it was)."""
    position = log.last_seq() if position is None else position
    if snapshot.position > position or snapshot.position < 1:
        return f"its position {snapshot.position} is past the log's end ({position})"
    if anchor(log, snapshot.position) != snapshot.anchor:
        return f"the event at its position {snapshot.position} is not the one it was folded to"
    return ""


def _folded(log: EventLog, run_id: str, position: int) -> RunFold:
    """Every event of the run up to ``position``: the run stream, then each call's stream."""
    mine = run_stream(run_id)
    calls = (log.read_stream(s) for s in log.streams(run_conversations(run_id)))
    head = _upto(log.read_stream(mine), position)
    return _extend(_empty(run_id), head, (_upto(c, position) for c in calls))


def _resumed(
    log: EventLog, run_id: str, snapshot: Snapshot, position: int
) -> tuple[RunFold, int, int] | None:
    """The snapshot's state with the events after it; None when the snapshot must not be used.

    With it, how many of those events were the run's, and how many were read.
    """
    if why_unfit(log, snapshot, position):
        return None
    try:
        fold = _unpacked(snapshot.state)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    mine = 0
    for head, calls in _after(log, run_id, snapshot.position, position):
        if not _extends_cleanly(fold.verdicts, head, calls):
            return None
        mine += len(head) + sum(len(c) for c in calls.values())
        fold = _extend(fold, head, calls.values())
    return fold, mine, max(0, position - snapshot.position)


CHUNK = 50_000
"""Events of the run held at once when resuming: a longer tail is folded a chunk at a time.

A new judge pass over a 100k-call run appends ~1.3M events after the snapshot; held whole,
they took more memory than folding the run afresh. Folding the chunks one after the other
is what that many views, each resuming from the last one's snapshot, would have done."""


def _after(
    log: EventLog, run_id: str, after: int, position: int
) -> Iterator[tuple[list[Envelope], dict[str, list[Envelope]]]]:
    """The run's events in ``(after, position]``, in chunks of about :data:`CHUNK`.

    Each chunk holds its own stream's events, and each call's by stream in name order, as a
    fresh fold reads them. A chunk ends where a stream ends, never inside a run of one
    call's events (the batch a scoring pass committed for it stays whole).
    """
    mine, prefix = run_stream(run_id), run_conversations(run_id)
    head: list[Envelope] = []
    calls: dict[str, list[Envelope]] = {}
    held, last = 0, ""
    for env in log.read_all(after_seq=after):
        if env.seq > position:
            break
        if held >= CHUNK and env.stream != last:
            yield head, dict(sorted(calls.items()))
            head, calls, held = [], {}, 0
        last = env.stream
        if env.stream == mine:
            head.append(env)
        elif env.stream.startswith(prefix):
            calls.setdefault(env.stream, []).append(env)
        else:
            continue
        held += 1
    yield head, dict(sorted(calls.items()))


def _extends_cleanly(state: RunRecord, head: list[Envelope], calls: dict[str, list[Envelope]]) -> bool:
    """Folding these onto ``state`` gives what a fresh fold gives.

    Not so when a rubric is new (a pass reduced without it may have failed for want of it),
    or when a pass already reduced in the state gets more scores or checks (it was reduced
    without them). A new pass over calls already in the state (``polygon judge``) folds
    cleanly: it is reduced from its own scores and checks, kept until then (checks that came
    before its scores stay in the state, :func:`polygon.projections.verdicts.compact`).
    """
    if any(isinstance(env.payload, RubricRecorded) for env in head):
        return False
    for events in calls.values():
        for env in events:
            p = env.payload
            if isinstance(p, JudgeScored | CheckRecorded) and _reduced(state, p.conversation_id, p.pass_id):
                return False
    return True


def _reduced(state: RunRecord, conversation_id: str, pass_id: str) -> bool:
    rec = state.conversations.get(conversation_id)
    return rec is not None and pass_id in rec.passes


def _extend(fold: RunFold, head: Iterable[Envelope], calls: Iterable[Iterable[Envelope]]) -> RunFold:
    """Fold ``head`` and ``calls`` into both projections, in one read."""
    table = fold.probes

    def tapped(events: Iterable[Envelope]) -> Iterator[Envelope]:
        nonlocal table
        for env in events:
            table = probe_fold.apply(table, env)
            yield env

    state = verdict_fold.extend_reduced(fold.verdicts, tapped(head), (tapped(c) for c in calls))
    return RunFold(verdicts=state, probes=table)


def _empty(run_id: str) -> RunFold:
    return RunFold(verdicts=RunRecord(run_id=run_id), probes=ProbeTable())


def _upto(events: Iterable[Envelope], position: int) -> Iterator[Envelope]:
    """Events up to ``position``: what a writer appends meanwhile is left to the next view."""
    for env in events:
        if env.seq > position:
            return
        yield env


Check = Callable[[EventLog, Snapshot], str]
"""Why a snapshot of one projection that fits the log is damaged ("" when it is not)."""


def verify_snapshots(
    log: EventLog, store: SnapshotStore, others: Mapping[str, Check] | None = None
) -> tuple[int, str | None]:
    """How many snapshots are kept, and the first damaged one.

    A stale one (an older version, a log that moved on or was replaced) is no problem: it
    is ignored, and the next view replaces it. Damaged means its bytes do not match their
    hash, or a snapshot that fits the log does not decode. ``others`` checks the snapshots
    of other projections (by name: why one that fits is damaged, "" when it is not).
    """
    count, others = 0, others or {}
    for key, found in store.entries():
        count += 1
        subject = key.split("\x00")[1] if "\x00" in key else key
        if isinstance(found, Snapshot) and found.projection in others:
            found = others[found.projection](log, found) or found
        elif isinstance(found, Snapshot) and not why_unfit(log, found):
            try:
                _unpacked(found.state)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                found = f"its state does not decode ({exc})"
        if isinstance(found, str):
            return count, f"the snapshot of {subject} is damaged: {found} (views ignore it and fold the log)"
    return count, None
