"""An agent's hang-up settled by what the scenario asks of it, whatever the goal's verb.

A danger answered with a safety instruction (trial45 D6: every correct Russian fire call
failed "hung up without settling"), every ``expect.says`` phrase said (trial46 D5b), a value
the agent's tools returned told where ``expect`` asks for no end state (trial46 D5a).
"""

from __future__ import annotations

import msgspec

from polygon.events import ConversationEnded, Expectation
from polygon.score.hangup import unsettled_hangup
from polygon.transcript import ToolView
from tests.support.views import PERSONA, conv

UNSETTLED = "the agent hung up without settling"


def _unsettled(
    language: str, goal: str, caller: str, agent: str, expect: Expectation, tool: ToolView | None = None
) -> str:
    persona = msgspec.structs.replace(PERSONA, language=language, goal=goal, facts={})
    view = conv("x", [(1, "caller", caller), (1, "agent", agent, {"end": "hangup"})], persona=persona)
    assert view.started is not None
    view.started = msgspec.structs.replace(view.started, expect=expect)
    view.ended = ConversationEnded(conversation_id="x", reason="hangup", by="agent", turns=1)
    if tool is not None:
        view.turns[0].tools = [tool]
    return unsettled_hangup(view, persona)


FIRE = "В вагоне пахнет дымом, кажется, пожар."
INSTRUCTED = "Это опасно. Немедленно позвоните по номеру сто двенадцать и отойдите подальше от дыма."
SHRUG = "Понятно, спасибо за информацию. Хорошего дня."


def test_a_danger_answered_with_a_safety_instruction_is_settled() -> None:
    expect = Expectation(no_calls=["change_date"])
    assert _unsettled("ru", "сообщить о пожаре в поезде", FIRE, INSTRUCTED, expect) == ""
    assert _unsettled("ru", "сообщить о пожаре в поезде", FIRE, SHRUG, expect).startswith(UNSETTLED)


NOISE = "Internet mi ne radi od jutros."
ADVICE = "Isključite modem na deset sekundi, pa ga ponovno uključite, i pričekajte dvije minute."


def test_every_expected_phrase_said_settles_a_report_goal() -> None:
    goal = "prijaviti da internet ne radi"
    said = Expectation(says=[["isključite"], ["pričekajte"]])
    assert _unsettled("hr", goal, NOISE, ADVICE, said) == ""
    assert _unsettled("hr", goal, NOISE, "Hvala na pozivu, doviđenja.", said).startswith(UNSETTLED)


OUTAGE = "U vašem području je poznata smetnja, prekid kabela. Popravak se očekuje do 18:00. Ispričavamo se."
LOOKUP = ToolView(
    at=0,
    index=0,
    tool="provjeri_smetnje",
    arguments={"mjesto": "Split"},
    valid=True,
    validation_errors=[],
    result={"smetnja": True, "kraj": "18:00"},
    error="",
    fault="",
    latency_ms=0.0,
)


def test_a_tool_value_told_settles_where_no_end_state_is_expected() -> None:
    goal, caller = "prijaviti kvar interneta", "Nemam interneta u Splitu."
    calls = Expectation(calls={"provjeri_smetnje": {}})
    assert _unsettled("hr", goal, caller, OUTAGE, calls, LOOKUP) == ""
    stated = Expectation(calls={"provjeri_smetnje": {}}, state={"nalozi": {"status": "otvoren"}})
    assert _unsettled("hr", goal, caller, OUTAGE, stated, LOOKUP).startswith(UNSETTLED)
