"""A tool's date told as its day in words settles the call (tester45 D14c).

setup_payment_plan answered ``{"ok": true, "first_payment": "2026-12-15"}`` and the agent said
"okay so going forward you'll be paying fifty pounds a month, first one on the fifteenth of
december." and hung up: goal_reached failed "hung up without settling" — the day said without
its year ("12-15") never met the tool's date. A wrong day, or the right one after the plan
failed, still leaves the call unsettled; and the caller's own date read back settles nothing.
"""

from __future__ import annotations

from typing import Any

import msgspec

from polygon.events import ConversationEnded, Expectation
from polygon.score.hangup import unsettled_hangup
from polygon.transcript import ToolView
from tests.support.views import PERSONA, conv

UNSETTLED = "the agent hung up without settling"
GOAL = "set up a monthly payment plan"
CALLER = "I'd like to pay fifty pounds a month, please."
TOLD = "Okay so going forward you'll be paying fifty pounds a month, first one on the fifteenth of december."
PLANNED = {"ok": True, "plan_id": "PP-2291", "first_payment": "2026-12-15"}


def _plan(result: Any, error: str = "") -> ToolView:
    return ToolView(
        at=0,
        index=0,
        tool="setup_payment_plan",
        arguments={"account_no": "DL-52207", "monthly_amount": 50},
        valid=True,
        validation_errors=[],
        result=result,
        error=error,
        fault="",
        latency_ms=0.0,
    )


def _unsettled(agent: str, tool: ToolView, facts: dict[str, str] | None = None) -> str:
    persona = msgspec.structs.replace(PERSONA, language="en", goal=GOAL, facts=facts or {})
    view = conv("x", [(1, "caller", CALLER), (1, "agent", agent, {"end": "hangup"})], persona=persona)
    assert view.started is not None
    view.started = msgspec.structs.replace(view.started, expect=Expectation(calls={"setup_payment_plan": {}}))
    view.ended = ConversationEnded(conversation_id="x", reason="hangup", by="agent", turns=1)
    view.turns[0].tools = [tool]
    return unsettled_hangup(view, persona)


def test_the_first_payment_day_in_words_settles() -> None:
    assert _unsettled(TOLD, _plan(PLANNED)) == ""
    assert _unsettled(TOLD.replace("fifteenth of december", "15th of December"), _plan(PLANNED)) == ""


def test_a_wrong_day_or_a_failed_plan_stays_unsettled() -> None:
    assert _unsettled(TOLD.replace("fifteenth", "fifth"), _plan(PLANNED)).startswith(UNSETTLED)
    day_only = "Okay, your first payment is on the fifteenth of december."
    assert _unsettled(day_only, _plan(PLANNED)) == ""
    assert _unsettled(day_only, _plan(None, error="plan service unavailable")).startswith(UNSETTLED)


def test_the_callers_own_date_read_back_settles_nothing() -> None:
    own = {"start": "2026-12-15"}
    assert _unsettled(TOLD, _plan(PLANNED), facts=own).startswith(UNSETTLED)
