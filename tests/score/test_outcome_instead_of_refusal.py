"""A caller who was to be refused, told that it is done: ``goal_reached`` fails (trial45 D3).

"Возврат оформлен" to a caller whose fare gives no refund met ``no_calls: [issue_refund]`` — the
agent never called the tool — and passed at 96.25.
"""

from __future__ import annotations

import msgspec
import pytest

from polygon.events import ConversationEnded, Expectation
from polygon.score.checks import goal_reached
from polygon.transcript import ConversationView
from tests.support.views import PERSONA, conv

REFUSE = msgspec.structs.replace(PERSONA, outcome="refusal", language="ru", goal="вернуть деньги за билет")
ASKED = (1, "caller", "Я хочу вернуть деньги за билет.")


def _call(
    last: str, expect: Expectation | None, by: str = "agent", reason: str = "hangup"
) -> ConversationView:
    view = conv("x", [ASKED, (1, "agent", last, {"end": reason if by == "agent" else ""})], persona=REFUSE)
    assert view.started is not None
    view.started = msgspec.structs.replace(view.started, expect=expect)
    view.ended = ConversationEnded(conversation_id="x", reason=reason, by=by, turns=1)
    return view


DONE = "Я посмотрела правила вашего тарифа. Возврат оформлен, деньги будут возвращены на карту в течение семи дней."
REFUSED = "К сожалению, вернуть деньги за этот билет я не могу: тариф невозвратный."


@pytest.mark.parametrize("expect", [Expectation(no_calls=["issue_refund"]), None])
def test_an_outcome_the_call_ended_on_fails_a_refusal_goal(expect: Expectation | None) -> None:
    found = goal_reached(_call(DONE, expect))
    assert found.outcome == "fail"
    assert (
        "the caller was to be refused, yet the agent refused nothing and ended on an outcome" in found.detail
    )
    assert "Возврат оформлен" in found.detail


def test_a_refusal_with_a_noted_complaint_still_reaches_it() -> None:
    found = goal_reached(_call(REFUSED + " Ваша жалоба оформлена.", Expectation(no_calls=["issue_refund"])))
    assert found.outcome == "pass", found.detail
    inferred = goal_reached(_call(REFUSED + " Ваша жалоба оформлена.", None))
    assert "ended on an outcome" not in inferred.detail  # the refusal was said


def test_a_hand_off_after_an_outcome_is_no_such_report() -> None:
    transferred = _call(DONE, Expectation(no_calls=["issue_refund"], end=["transfer"]), reason="transfer")
    assert "ended on an outcome" not in goal_reached(transferred).detail


def test_a_goodbye_after_the_outcome_does_not_hide_it() -> None:
    # trial4, a German pharmacy line: "Erledigt — Ihr Rezept ist nachbestellt" with no refill
    # left, the caller's reply, then the agent's "Auf Wiederhören!": the last turn was read, a
    # closing, and the call passed at 98.75.
    view = conv(
        "x",
        [
            ASKED,
            (1, "agent", DONE),
            (2, "caller", "Спасибо."),
            (2, "agent", "Спасибо за звонок, до свидания!", {"end": "hangup"}),
        ],
        persona=REFUSE,
    )
    assert view.started is not None
    view.started = msgspec.structs.replace(view.started, expect=Expectation(no_calls=["issue_refund"]))
    view.ended = ConversationEnded(conversation_id="x", reason="hangup", by="agent", turns=2)
    found = goal_reached(view)
    assert found.outcome == "fail" and "ended on an outcome" in found.detail, found.detail
