"""Group commit for many conversations in flight: the run's single writer.

Each conversation's sink hands over its events at the end of every exchange; the writer
commits whatever has been handed over in one durable transaction every few milliseconds.
A killed run therefore keeps every exchange that was committed, and a resumed run replays
the rest (see :class:`ConversationSink` and ``--resume``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from polygon.events import EventLog, Pending
from polygon.recorder import StreamRecorder


class GroupWriter:
    """Collects pending events from many sinks; commits them together."""

    def __init__(self, log: EventLog, interval_s: float = 0.005) -> None:
        self._log = log
        self._queue: list[Pending] = []
        self._interval = interval_s

    def submit(self, pending: list[Pending]) -> None:
        """Queue events for the next commit."""
        self._queue.extend(pending)

    def commit(self) -> None:
        """Write everything queued, in one transaction."""
        if self._queue:
            batch, self._queue = self._queue, []
            self._log.append(batch)

    async def pump(self, stop: asyncio.Event) -> None:
        """Commit on a short cadence until ``stop`` is set, then once more."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self._interval)
            self.commit()
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
