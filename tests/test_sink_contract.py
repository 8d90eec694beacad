"""The Sink contract, run against every sink: stream recorder, conversation sink (group commit), list.

Each must keep every emitted event, in order, until (and after) ``flush``; a sink that
writes identities must derive them from (run, conversation, turn, seed, kind, index) only,
so a re-simulated call produces the same ones.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from polygon.events import Event, MemoryLog, identity
from polygon.events.families import TurnSpoken
from polygon.recording import ConversationSink, GroupWriter, ListSink, Sink, StreamRecorder

STREAM = "conv/r.v1.s.0"


def _recorder() -> tuple[Sink, Callable[[], list[Event]]]:
    sink = StreamRecorder(run_id="r", stream=STREAM, conversation="r.v1.s.0", seed=5, now=lambda: "t")
    return sink, lambda: [p.event for p in sink.pending]


def _conversation() -> tuple[Sink, Callable[[], list[Event]]]:
    log = MemoryLog()
    writer = GroupWriter(log)
    sink = ConversationSink(writer, run_id="r", stream=STREAM, conversation="r.v1.s.0", seed=5, now=lambda: "t")

    def written() -> list[Event]:
        writer.commit()
        return [e.payload for e in log.read_stream(STREAM)]

    return sink, written


def _list() -> tuple[Sink, Callable[[], list[Event]]]:
    sink = ListSink()
    return sink, lambda: [e[1] for e in sink.events]


MAKERS = {"recorder": _recorder, "conversation": _conversation, "list": _list}


def _turn(n: int) -> TurnSpoken:
    return TurnSpoken(conversation_id="r.v1.s.0", turn=n, speaker="agent", text=f"line {n}")


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_keeps_every_event_in_order_across_flushes(name: str) -> None:
    sink, collected = MAKERS[name]()
    sink.emit("agent_turn", _turn(1), turn=1)
    sink.flush()
    sink.emit("agent_turn", _turn(2), turn=2)
    sink.emit("agent_turn", _turn(3), turn=3)
    sink.flush()
    assert collected() == [_turn(1), _turn(2), _turn(3)]


def test_recorder_identities_are_deterministic() -> None:
    sink = StreamRecorder(run_id="r", stream=STREAM, conversation="r.v1.s.0", seed=5, now=lambda: "t")
    sink.emit("tool", _turn(1), turn=1, index=2)
    expected = identity(run="r", conversation="r.v1.s.0", turn=1, seed=5, kind="tool", index=2)
    assert sink.pending[0].identity == expected


def test_conversation_sink_drops_what_the_log_already_holds() -> None:
    log = MemoryLog()
    writer = GroupWriter(log)
    first = ConversationSink(writer, run_id="r", stream=STREAM, conversation="r.v1.s.0", seed=5, now=lambda: "t")
    first.emit("agent_turn", _turn(1), turn=1)
    first.flush()
    writer.commit()
    held = frozenset(e.identity for e in log.read_stream(STREAM))
    again = ConversationSink(
        writer, run_id="r", stream=STREAM, conversation="r.v1.s.0", seed=5, now=lambda: "t", existing=held
    )
    again.emit("agent_turn", _turn(1), turn=1)
    again.emit("agent_turn", _turn(2), turn=2)
    again.flush()
    writer.commit()
    assert [e.payload for e in log.read_stream(STREAM)] == [_turn(1), _turn(2)]
