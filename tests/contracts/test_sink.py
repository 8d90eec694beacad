"""The Sink contract: stream recorder, conversation sink (group commit), list sink.

Every sink keeps each emitted event, in order, until and after ``flush``; a sink that writes
identities derives them from (run, conversation, turn, seed, kind, index) only, so a
re-simulated call produces the same ones and distinct coordinates never collide.
"""

from __future__ import annotations

import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path

import pytest

from polygon.events import Event, LmdbLog, MemoryLog, identity
from polygon.events.families import TurnSpoken
from polygon.recording import ConversationSink, GroupWriter, ListSink, Sink, StreamRecorder

STREAM = "conv/r.v1.s.0"
CONVERSATION = "r.v1.s.0"


def turn(n: int) -> TurnSpoken:
    return TurnSpoken(conversation_id=CONVERSATION, turn=n, speaker="agent", text=f"line {n}")


class SinkContract(ABC):
    @abstractmethod
    def make(self) -> tuple[Sink, Callable[[], list[Event]]]:
        """A fresh sink and a function that returns what it has kept (written, for a durable one)."""

    def identities(self, sink: Sink) -> list[str] | None:
        """The identities the sink gave its events, or None when it gives none."""
        return None

    def test_keeps_nothing_until_something_is_emitted(self) -> None:
        sink, kept = self.make()
        sink.flush()
        assert kept() == []

    def test_keeps_every_event_in_order_across_flushes(self) -> None:
        sink, kept = self.make()
        sink.emit("agent_turn", turn(1), turn=1)
        sink.flush()
        sink.emit("agent_turn", turn(2), turn=2)
        sink.emit("agent_turn", turn(3), turn=3)
        sink.flush()
        assert kept() == [turn(1), turn(2), turn(3)]

    def test_a_flush_with_nothing_new_changes_nothing(self) -> None:
        sink, kept = self.make()
        sink.emit("agent_turn", turn(1), turn=1)
        sink.flush()
        sink.flush()
        assert kept() == [turn(1)]

    def test_identities_are_a_function_of_the_coordinates(self) -> None:
        first, _ = self.make()
        second, _ = self.make()
        for sink in (first, second):
            sink.emit("agent_turn", turn(1), turn=1)
            sink.emit("tool", turn(1), turn=1, index=1)
            sink.emit("tool", turn(1), turn=1, index=2)
        ids = self.identities(first)
        if ids is None:
            return
        assert ids == self.identities(second)
        assert len(set(ids)) == 3, "distinct (kind, turn, index) must give distinct identities"
        assert ids[1] == identity(run="r", conversation=CONVERSATION, turn=1, seed=5, kind="tool", index=1)


class TestStreamRecorder(SinkContract):
    def make(self) -> tuple[Sink, Callable[[], list[Event]]]:
        sink = StreamRecorder(run_id="r", stream=STREAM, conversation=CONVERSATION, seed=5, now=lambda: "t")
        return sink, lambda: [p.event for p in sink.pending]

    def identities(self, sink: Sink) -> list[str] | None:
        assert isinstance(sink, StreamRecorder)
        return [p.identity for p in sink.pending]


class TestConversationSink(SinkContract):
    def setup_method(self) -> None:
        self._writers: dict[int, tuple[GroupWriter, MemoryLog]] = {}

    def make(self) -> tuple[Sink, Callable[[], list[Event]]]:
        log = MemoryLog()
        writer = GroupWriter(log)
        sink = ConversationSink(writer, run_id="r", stream=STREAM, conversation=CONVERSATION, seed=5, now=lambda: "t")
        self._writers[id(sink)] = (writer, log)

        def written() -> list[Event]:
            writer.commit()
            return [e.payload for e in log.read_stream(STREAM)]

        return sink, written

    def identities(self, sink: Sink) -> list[str] | None:
        sink.flush()
        writer, log = self._writers[id(sink)]
        writer.commit()
        return [e.identity for e in log.read_stream(STREAM)]

    def test_nothing_reaches_the_log_before_a_flush(self) -> None:
        sink, _ = self.make()
        writer, log = self._writers[id(sink)]
        sink.emit("agent_turn", turn(1), turn=1)
        writer.commit()
        assert log.last_seq() == 0
        sink.flush()
        writer.commit()
        assert log.last_seq() == 1

    def test_drops_what_the_log_already_holds(self) -> None:
        log = MemoryLog()
        writer = GroupWriter(log)
        first = ConversationSink(writer, run_id="r", stream=STREAM, conversation=CONVERSATION, seed=5, now=lambda: "t")
        first.emit("agent_turn", turn(1), turn=1)
        first.flush()
        writer.commit()
        held = frozenset(e.identity for e in log.read_stream(STREAM))
        again = ConversationSink(
            writer, run_id="r", stream=STREAM, conversation=CONVERSATION, seed=5, now=lambda: "t", existing=held
        )
        again.emit("agent_turn", turn(1), turn=1)
        again.emit("agent_turn", turn(2), turn=2)
        again.flush()
        writer.commit()
        assert [e.payload for e in log.read_stream(STREAM)] == [turn(1), turn(2)]


class TestKeepingConversationSink(SinkContract):
    """A sink that keeps its call whole (for a run's scoring process): the same contract, and
    what it kept is, event for event, what the log holds of the stream."""

    def setup_method(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self._logs: dict[int, tuple[GroupWriter, LmdbLog]] = {}

    def teardown_method(self) -> None:
        for writer, log in self._logs.values():
            writer.close()
            log.close()
        self._tmp.cleanup()

    def _sink(self) -> tuple[ConversationSink, GroupWriter, LmdbLog]:
        log = LmdbLog(Path(self._tmp.name) / f"log{len(self._logs)}")
        writer = GroupWriter(log)
        sink = ConversationSink(
            writer, run_id="r", stream=STREAM, conversation=CONVERSATION, seed=5, now=lambda: "t", keep=True
        )
        self._logs[id(sink)] = (writer, log)
        return sink, writer, log

    def make(self) -> tuple[Sink, Callable[[], list[Event]]]:
        sink, writer, log = self._sink()

        def written() -> list[Event]:
            writer.commit()
            return [e.payload for e in log.read_stream(STREAM)]

        return sink, written

    def identities(self, sink: Sink) -> list[str] | None:
        assert isinstance(sink, ConversationSink) and sink.made is not None
        sink.flush()
        return [p.identity for p in sink.made]

    def test_what_it_kept_is_what_the_log_holds(self) -> None:
        sink, writer, log = self._sink()
        assert sink.made == []
        for n in (1, 2, 3):
            sink.emit("agent_turn", turn(n), turn=n)
            sink.flush()
        writer.commit()
        stored = log.stream_records(STREAM)
        assert [p.content_hash for p in sink.made or []] == [e.content_hash for e in log.read_stream(STREAM)]
        assert len(stored) == 3

    def test_a_call_the_log_holds_some_of_is_not_kept(self) -> None:
        with pytest.raises(ValueError, match="holds nothing of"):
            ConversationSink(
                GroupWriter(MemoryLog()),
                run_id="r",
                stream=STREAM,
                conversation=CONVERSATION,
                seed=5,
                now=lambda: "t",
                existing=frozenset({"0" * 32}),
                keep=True,
            )


class TestListSink(SinkContract):
    def make(self) -> tuple[Sink, Callable[[], list[Event]]]:
        sink = ListSink()
        return sink, lambda: [e[1] for e in sink.events]

    def test_keeps_the_coordinates(self) -> None:
        sink = ListSink()
        sink.emit("tool", turn(4), turn=4, index=2)
        assert sink.events == [("tool", turn(4), 4, 2)]
