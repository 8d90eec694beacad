"""Recording: the :class:`Sink` port, stream recorders and the run's group-commit writer.

A stage never sees the store, only a sink. During a run each conversation's sink hands its
events to the single :class:`GroupWriter`, which commits whatever has been handed over in
one durable transaction at a cadence (20 ms), on a thread of its own so that the engine
goes on while the disk syncs: a killed run keeps every exchange that was committed, and a
resumed run replays the rest.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from polygon.events import Event, EventLog, Pending, Prepared, StorageError, StreamIdentities, prepare

if TYPE_CHECKING:
    # Only the run's GroupWriter needs these (~0.1 CPU s to import): the commands that
    # record synchronously through a StreamRecorder (label, callers, runs hide…) never do.
    import asyncio
    from concurrent.futures import Future, ThreadPoolExecutor


class Sink(Protocol):
    """Receives events from one writer (a conversation, a pass over one conversation).

    Implementations: :class:`StreamRecorder` (holds a batch for its caller to append),
    :class:`ConversationSink` (hands each exchange to the run's group commit) and
    :class:`ListSink` (tests). All run ``tests/contracts/test_sink.py``.
    """

    def emit(self, kind: str, event: Event, *, turn: int = 0, index: int = 0) -> None:
        """Record ``event``; (kind, turn, index) make its identity unique within the stream."""
        ...

    def flush(self) -> None:
        """An exchange is complete: a durable sink hands what it holds to the writer now."""
        ...


class StreamRecorder:
    """Collects one stream's events as :class:`Pending`, with deterministic identities."""

    def __init__(
        self, *, run_id: str, stream: str, conversation: str, seed: int, now: Callable[[], str]
    ) -> None:
        self.run_id = run_id
        self.stream = stream
        self.conversation = conversation
        self.seed = seed
        self._now = now
        self.pending: list[Pending] = []
        # Every event of a run is named here: what its identities share is encoded once.
        self._identity = StreamIdentities(run_id, conversation, seed)

    def emit(self, kind: str, event: Event, *, turn: int = 0, index: int = 0) -> None:
        """Append to :attr:`pending`."""
        ident = self._identity(kind, turn, index)
        self.pending.append(Pending(stream=self.stream, identity=ident, event=event, recorded_at=self._now()))

    def flush(self) -> None:
        """Nothing to do: whoever made the recorder appends :attr:`pending` as one batch."""


class ListSink:
    """A sink that keeps bare events (for tests of a single stage)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Event, int, int]] = []

    def emit(self, kind: str, event: Event, *, turn: int = 0, index: int = 0) -> None:
        """Keep the event with its coordinates."""
        self.events.append((kind, event, turn, index))

    def flush(self) -> None:
        """Nothing to do: the events stay in :attr:`events`."""


HELD_EVENTS = 2_048
"""Events the group writer holds at most while a commit is in flight (about as many more are in
it). A stalled fsync (a busy disk, a starved thread) otherwise let the queue reach 20,000 events
and the batch in flight as many: ~1 KB of heap each, +27 MB on a 2,000-call run whose writer
stalled 2 s every 40 commits (issue 31: the 100,000-call run's heap). Unstalled batches stay far
below it (p99 ~1,300 events at 30,000 calls), so a healthy run never waits on it."""


class GroupWriter:
    """Collects pending events from many sinks; commits them together, at a cadence, on a thread.

    A commit is one durable transaction (an fsync), so it is paid per batch, not per event:
    whatever was handed over in the ``interval_s`` (20 ms) since the last commit ended goes
    in one, so a SIGKILL loses the calls in flight and at most that much finished work
    (plus what arrived during the commit in progress). (A commit per
    ended call would cost an fsync each: a third of a 20,000-call run's time.) The cadence
    holds whatever the writers are:
    :meth:`submit` starts a commit when one is due, so a stage that never awaits (a Python
    agent, the heuristic judge) still commits as it goes, and :meth:`pump` commits what waits
    when submissions stop. ``max_events`` (:data:`HELD_EVENTS`) bounds what is held between
    two commits: once that many wait, the writer waits for the disk (backpressure).

    The commit runs on the writer's own thread (one, so one writer per log still holds, and
    batches stay in the order they were handed over): py-lmdb lets go of the GIL during the
    fsync, so the engine makes the next batch meanwhile instead of waiting on the disk.
    Only one commit is in flight: what is submitted meanwhile waits, and goes in the next
    one, so batches grow by themselves when the disk is slow. Who needs events durable waits
    for them: :meth:`commit` (and the pump's last round, which ends every group commit)
    returns only once everything submitted before it is on disk.

    A commit that fails (a full disk, ``ulimit -f``) poisons the writer: that batch is gone,
    and writing anything queued after it would leave a call with its middle missing (a
    stream that no longer opens with its start). So nothing more is written by this writer:
    the next :meth:`submit` or :meth:`commit` raises the error (a failure on the thread is
    seen at the first call after it), so does every later one, the run stops, and the log
    holds a prefix of every call, which ``--resume`` completes. A failure no call has
    raised yet is raised by the pump's end (or :meth:`close`): never dropped silently.
    """

    def __init__(
        self,
        log: EventLog,
        interval_s: float = 0.02,
        max_events: int = HELD_EVENTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = log
        self._queue: list[Pending | Prepared] = []
        self._interval = interval_s
        self._max = max_events
        self._clock = clock
        self._last = clock()
        self._thread: ThreadPoolExecutor | None = None
        self._inflight: Future[None] | None = None
        self.commits = 0
        self.handed = 0
        """Events handed over so far (counted on the writers' side)."""
        self.durable = 0
        """Events committed so far: everything handed over before ``handed`` reached it is on disk."""
        self.failed: Exception | None = None
        self._reported = False

    # ---------------------------------------------------------------- the committer thread

    def _write(self, batch: list[Pending | Prepared]) -> None:
        """On the writer's thread: one durable transaction."""
        if any(type(item) is Prepared for item in batch):  # only a log that takes prepared records has any
            self._log.append_prepared(_prepared_in_order(batch))  # type: ignore[attr-defined]
        else:
            self._log.append(batch)  # type: ignore[arg-type]
        self.commits += 1
        self.durable += len(batch)
        # The cadence counts from the end of the commit: an fsync that takes as long as the
        # interval (a busy disk) would otherwise leave no time to gather the next batch.
        self._last = self._clock()

    def _start(self) -> None:
        """Hand everything queued to the thread (nothing may be in flight)."""
        batch, self._queue = self._queue, []
        if self._thread is None:
            from concurrent.futures import ThreadPoolExecutor

            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="polygon-commit")
        self._inflight = self._thread.submit(self._write, batch)

    def _harvest(self) -> None:
        """Take in how the commit in flight ended, if it has (never waits)."""
        done = self._inflight
        if done is None or not done.done():
            return
        self._inflight = None
        exc = done.exception()
        if exc is not None:
            self.failed = exc if isinstance(exc, Exception) else StorageError(repr(exc))

    def wait(self) -> None:
        """Block until the commit in flight has ended; raise if it (or an earlier one) failed."""
        if self._inflight is not None:
            from concurrent.futures import wait as futures_wait

            futures_wait([self._inflight])
        self._refuse_if_failed()

    def _refuse_if_failed(self) -> None:
        self._harvest()
        if self.failed is None:
            return
        self._queue = []
        if not self._reported:  # the first to hear of it gets the error itself
            self._reported = True
            raise self.failed
        raise StorageError(str(self.failed))

    def _due(self) -> bool:
        return self._clock() - self._last >= self._interval

    # ---------------------------------------------------------------- the writers' side

    def submit(self, pending: list[Pending]) -> None:
        """Queue events; start a commit of everything queued if one is due and none is in flight."""
        self._refuse_if_failed()
        self._queue.extend(pending)
        self.handed += len(pending)
        if len(self._queue) >= self._max:
            self.wait()  # the bound holds: wait for the disk, then send it all
            self._start()
        elif self._inflight is None and self._due():
            self._start()

    def submit_prepared(self, prepared: list[Prepared]) -> None:
        """Queue events encoded and hashed already (elsewhere, by a keeping sink) as :meth:`submit` does.

        Only for a log that appends prepared records (``LmdbLog.append_prepared``); the
        writer's thread then skips their encoding, in order with what it prepares itself.
        """
        self.submit(prepared)  # type: ignore[arg-type]

    def commit(self) -> None:
        """Write everything queued and wait until it is durable (or raise why it is not)."""
        self.wait()
        if self._queue:
            self._start()
            self.wait()

    async def pump(self, stop: asyncio.Event) -> None:
        """Commit on the cadence while writers wait on the network, until ``stop``; then close."""
        import asyncio

        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self._interval)
            self._harvest()
            if self.failed is not None:
                break  # a writer hears of it at its next submit, or the close below says it
            if self._inflight is None and self._queue and self._due():
                self._start()
        self.close()

    def close(self) -> None:
        """Commit what is queued, wait for it, stop the thread; raise a failure nobody heard of.

        A failure already raised to a writer is on its way up: it is not raised twice.
        """
        try:
            if self.failed is None:
                self.commit()
            elif not self._reported:
                self._refuse_if_failed()
        finally:
            if self._thread is not None:
                self._thread.shutdown(wait=True)
                self._thread = None


def _prepared_in_order(batch: list[Pending | Prepared]) -> list[Prepared]:
    """A batch of pending and prepared events as prepared ones, in the order they came."""
    out: list[Prepared] = []
    pending: list[Pending] = []
    for item in batch:
        if type(item) is Prepared:
            if pending:
                out += prepare(pending)
                pending = []
            out.append(item)
        else:
            pending.append(item)  # type: ignore[arg-type]
    if pending:
        out += prepare(pending)
    return out


class ConversationSink(StreamRecorder):
    """A conversation's sink: a stream recorder that hands its events to the writer at each flush.

    On resume, identities the log already holds are dropped: the first written wins, so
    re-simulating a half-written call appends only what is missing.

    ``keep``: the sink prepares (encodes and hashes) each exchange itself and keeps the
    call's events in :attr:`made`, for a reader that needs the whole call before it is
    durable (a run's scoring process, ``polygon.app.alongside``). Only for a call the log
    holds nothing of (``existing`` empty): what it made is then the whole stream.
    """

    def __init__(
        self,
        writer: GroupWriter,
        *,
        run_id: str,
        stream: str,
        conversation: str,
        seed: int,
        now: Callable[[], str],
        existing: frozenset[str] = frozenset(),
        keep: bool = False,
    ) -> None:
        super().__init__(run_id=run_id, stream=stream, conversation=conversation, seed=seed, now=now)
        self._writer = writer
        self._existing = existing
        if keep and existing:
            raise ValueError(f"{stream}: only a call the log holds nothing of is kept whole")
        self.made: list[Prepared] | None = [] if keep else None
        """The call's events so far, prepared, when kept (else None)."""

    def flush(self) -> None:
        """Hand the held events to the writer (the engine calls this after every exchange)."""
        existing = self._existing  # empty but on a resume: nothing to look up
        fresh = [p for p in self.pending if p.identity not in existing] if existing else self.pending
        if fresh and self.made is not None:
            # Prepared here rather than on the writer's thread: the same work under the same
            # GIL, done once for both the writer and the reader of the kept call.
            prepared = prepare(fresh)
            self.made += prepared
            self._writer.submit_prepared(prepared)
        elif fresh:
            self._writer.submit(fresh)
        self.pending = []
