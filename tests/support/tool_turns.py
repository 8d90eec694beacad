"""A call whose agent called tools and then spoke, turn by turn (the swallowed-failure tests)."""

from __future__ import annotations

from typing import Any

from polygon.events import Expectation
from polygon.events.families import (
    ConversationEnded,
    ConversationStarted,
    PersonaSnapshot,
    ToolCalled,
    TurnSpoken,
)
from polygon.transcript import ConversationView, build
from tests.support.views import env

Tool = tuple[str, Any, str, str]  # name, result, error, fault
FAIL_500: Tool = ("dispatch_tow", None, "500 Internal Server Error", "server_error")
FAIL_IN_BAND: Tool = ("dispatch_tow", {"error": "dispatch unavailable"}, "", "")
OK: Tool = ("dispatch_tow", {"dispatched": True, "job": "TW-7781"}, "", "")
VERIFIED: Tool = ("verify_booking", {"verified": True}, "", "")


def call(
    replies: list[tuple[list[Tool], str]],
    *,
    language: str | None = "en",
    ended: str = "caller_done",
    expect: Expectation | None = None,
) -> ConversationView:
    """A call: per turn the tools the agent called, then what it said; ``language=None`` imports."""
    persona = (
        None
        if language is None
        else PersonaSnapshot(
            persona_id="p",
            type="cooperative",
            outcome="success",
            difficulty=1,
            goal="get a tow truck",
            facts={"booking_ref": "R-48213"},
            language=language,
        )
    )
    start = ConversationStarted(
        run_id="r",
        conversation_id="x",
        config="c",
        scenario="s",
        trial=0,
        seed=1,
        persona=persona,
        expect=expect,
    )
    events: list[Any] = [start]
    for turn, (tools, said) in enumerate(replies, start=1):
        events.append(TurnSpoken(conversation_id="x", turn=turn, speaker="caller", text="My car broke down."))
        for i, (name, result, error, fault) in enumerate(tools):
            events.append(
                ToolCalled(
                    conversation_id="x",
                    turn=turn,
                    index=i,
                    call_id=f"c{turn}{i}",
                    tool=name,
                    arguments={"booking_ref": "R-48213"},
                    valid=True,
                    result=result,
                    error=error,
                    fault=fault,
                )
            )
        events.append(TurnSpoken(conversation_id="x", turn=turn, speaker="agent", text=said))
    by = "agent" if ended == "transfer" else "caller"
    events.append(ConversationEnded(conversation_id="x", reason=ended, by=by, turns=len(replies)))
    return build("x", [env(i + 1, e) for i, e in enumerate(events)])
