"""Recording: the :class:`Sink` port, stream recorders and the run's group-commit writer.

A stage never sees the store, only a sink. During a run each conversation's sink hands its
events to the single :class:`GroupWriter`, which commits whatever has been handed over in
one durable transaction at a cadence (20 ms): a killed run keeps every exchange that was
committed, and a resumed run replays the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Protocol

from polygon.events import Event, EventLog, Pending, StorageError, identity


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

    def emit(self, kind: str, event: Event, *, turn: int = 0, index: int = 0) -> None:
        """Append to :attr:`pending`."""
        ident = identity(
            run=self.run_id,
            conversation=self.conversation,
            turn=turn,
            seed=self.seed,
            kind=kind,
            index=index,
        )
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


class GroupWriter:
    """Collects pending events from many sinks; commits them together, at a cadence.

    A commit is one durable transaction (an fsync), so it is paid per batch, not per event:
    whatever was handed over in the ``interval_s`` (20 ms) since the last commit ended goes
    in one, so a SIGKILL loses the calls in flight and at most that much finished work
    (plus what arrived during the commit in progress). (A commit per
    ended call would cost an fsync each: a third of a 20,000-call run's time.) The cadence
    holds whatever the writers are:
    :meth:`submit` commits when one is due, so a stage that never awaits (a Python agent,
    the heuristic judge) still commits as it goes, and :meth:`pump` commits what waits when
    submissions stop. ``max_events`` bounds what is held between two commits.

    A commit that fails (a full disk, ``ulimit -f``) poisons the writer: that batch is gone,
    and writing anything queued after it would leave a call with its middle missing (a
    stream that no longer opens with its start). So nothing more is written by this writer:
    every later :meth:`submit` or :meth:`commit` raises the same error, the run stops, and
    the log holds a prefix of every call, which ``--resume`` completes.
    """

    def __init__(
        self,
        log: EventLog,
        interval_s: float = 0.02,
        max_events: int = 20_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._log = log
        self._queue: list[Pending] = []
        self._interval = interval_s
        self._max = max_events
        self._clock = clock
        self._last = clock()
        self.commits = 0
        self.failed: Exception | None = None

    def _refuse_if_failed(self) -> None:
        if self.failed is not None:
            self._queue = []
            raise StorageError(str(self.failed))

    def submit(self, pending: list[Pending]) -> None:
        """Queue events; commit them with everything queued if a commit is due."""
        self._refuse_if_failed()
        self._queue.extend(pending)
        if len(self._queue) >= self._max or self._clock() - self._last >= self._interval:
            self.commit()

    def commit(self) -> None:
        """Write everything queued, in one transaction (or nothing, ever again, if it fails)."""
        self._refuse_if_failed()
        if self._queue:
            batch, self._queue = self._queue, []
            try:
                self._log.append(batch)
            except Exception as exc:
                self.failed = exc
                raise
            self.commits += 1
        # The cadence counts from the end of the commit: an fsync that takes as long as the
        # interval (a busy disk) would otherwise leave no time between commits for the work.
        self._last = self._clock()

    async def pump(self, stop: asyncio.Event) -> None:
        """Commit on the cadence while writers wait on the network, until ``stop``; then once more."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self._interval)
            if self._clock() - self._last >= self._interval:
                self.commit()
        if self.failed is None:  # a failed writer's error is already on its way up
            self.commit()


class ConversationSink(StreamRecorder):
    """A conversation's sink: a stream recorder that hands its events to the writer at each flush.

    On resume, identities the log already holds are dropped: the first written wins, so
    re-simulating a half-written call appends only what is missing.
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
    ) -> None:
        super().__init__(run_id=run_id, stream=stream, conversation=conversation, seed=seed, now=now)
        self._writer = writer
        self._existing = existing

    def flush(self) -> None:
        """Hand the held events to the writer (the engine calls this after every exchange)."""
        fresh = [p for p in self.pending if p.identity not in self._existing]
        if fresh:
            self._writer.submit(fresh)
        self.pending = []
