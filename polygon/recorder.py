"""Sinks: where writers put events. A stage never sees the store, only a sink."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from polygon.events import Event, Pending, identity


class Sink(Protocol):
    """Receives events from one writer."""

    def emit(self, kind: str, event: Event, *, turn: int = 0, index: int = 0) -> None:
        """Record ``event``; (kind, turn, index) make its identity unique within the stream."""
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


class ListSink:
    """A sink that keeps bare events (for tests of a single stage)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Event, int, int]] = []

    def emit(self, kind: str, event: Event, *, turn: int = 0, index: int = 0) -> None:
        """Keep the event with its coordinates."""
        self.events.append((kind, event, turn, index))
