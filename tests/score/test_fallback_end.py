"""``expect.fallback_end``: with the expected tool down on every call, a hand-off meets the expectation.

Fault injection once failed the correct agent: two `dispatch_tow` calls answered 500, it
apologised and transferred, and `goal_reached` said the dispatch was never made (trial40 D13).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from polygon.errors import SuiteError
from polygon.events import ConversationEnded, Expectation
from polygon.score.checks import unmet
from polygon.suite.loading import load_suite
from polygon.transcript import ConversationView, ToolView, TurnView
from tests.support.pizza import PIZZA_FIXTURE

EXPECT = Expectation(calls={"dispatch_tow": {"booking_ref": "R-1"}}, fallback_end=["transfer"])


def _call(error: str, result: Any = None) -> ToolView:
    return ToolView(
        at=0,
        index=0,
        tool="dispatch_tow",
        arguments={"booking_ref": "R-1"},
        valid=True,
        validation_errors=[],
        result=result,
        error=error,
        fault="server_error" if error else "",
        latency_ms=0.0,
    )


def _view(reason: str, *calls: ToolView) -> ConversationView:
    turn = TurnView(
        turn=1, caller_text="I need a tow.", agent_text="Sorry, I'm transferring you.", tools=list(calls)
    )
    ended = ConversationEnded(conversation_id="c", reason=reason, by="agent", turns=1)
    return ConversationView(conversation_id="c", turns=[turn], ended=ended)


def test_a_transfer_after_every_call_of_the_tool_failed_meets_the_expectation() -> None:
    assert (
        unmet(
            _view("transfer", _call("500 Internal Server Error"), _call("500 Internal Server Error")),
            EXPECT,
            {},
        )
        == []
    )


def test_without_the_fallback_or_with_another_ending_it_is_still_unmet() -> None:
    failed = _call("500 Internal Server Error")
    assert unmet(_view("caller_done", failed), EXPECT, {})
    plain = Expectation(calls=EXPECT.calls)
    found = unmet(_view("transfer", failed), plain, {})
    assert found and "no successful dispatch_tow call" in found[0], found


def test_without_the_fallback_the_detail_says_how_to_accept_the_hand_off() -> None:
    # A new user's correct agent transferred after an injected fault and failed (stop 43): the
    # verdict stands (the suite did not say a hand-off is right), the detail says how to say it.
    failed = _call("500 Internal Server Error")
    plain = Expectation(calls=EXPECT.calls)
    (found,) = unmet(_view("transfer", failed), plain, {})
    assert found.endswith("add fallback_end: [transfer] to the scenario's expect"), found
    assert "ended by transfer" in found
    # a loop is no fallback end; a suite that chose its fallback_end gets no hint; nor a call never tried
    assert "fallback_end" not in unmet(_view("loop", failed), plain, {})[0]
    assert "fallback_end" not in unmet(_view("caller_done", failed), EXPECT, {})[0]
    assert "fallback_end" not in unmet(_view("transfer"), plain, {})[0]


def test_a_tool_that_worked_once_or_was_never_tried_gets_no_fallback() -> None:
    worked = _call("", {"dispatched": True})
    assert (
        unmet(_view("transfer", _call("500 Internal Server Error"), worked), EXPECT, {}) == []
    )  # met anyway
    other = msgspec.structs.replace(worked, arguments={"booking_ref": "R-9"})  # worked, for someone else
    assert unmet(_view("transfer", _call("500 Internal Server Error"), other), EXPECT, {})
    assert unmet(_view("transfer"), EXPECT, {}), "never calling the tool is no outage"


@pytest.mark.parametrize("end", ["loop", "agent_error", "max_turns"])
def test_a_loop_or_a_crash_is_refused_as_a_fallback_end(tmp_path: Path, end: str) -> None:
    """Accepting a loop or a crash after a failed tool would pass a broken agent."""
    shutil.copytree(PIZZA_FIXTURE, tmp_path / "pizza")
    path = tmp_path / "pizza" / "orders.yaml"
    text = path.read_text()
    path.write_text(
        text.replace(
            "    expect:\n      calls:", f"    expect:\n      fallback_end: [{end}]\n      calls:", 1
        )
    )
    with pytest.raises(SuiteError, match=f"fallback_end: '{end}' is no hand-off"):
        load_suite(path)
    path.write_text(
        text.replace(
            "    expect:\n      calls:", "    expect:\n      fallback_end: [transfer]\n      calls:", 1
        )
    )
    assert load_suite(path).suite.scenarios[0].expect.fallback_end == ["transfer"]


def test_the_fallback_stands_in_for_success_not_for_the_arguments() -> None:
    # trial45 D11: a payment plan sent with the wrong amount failed, the agent transferred: it passed.
    wrong = msgspec.structs.replace(_call("500 Internal Server Error"), arguments={"booking_ref": "R-9"})
    found = unmet(_view("transfer", wrong), EXPECT, {})
    assert found == [
        "no dispatch_tow call with booking_ref = 'R-1' (the last one, which failed, had booking_ref='R-9')"
    ]
    right_then_wrong = [_call("500 Internal Server Error"), wrong]
    assert unmet(_view("transfer", *right_then_wrong), EXPECT, {}) == []  # one failed call carried them
