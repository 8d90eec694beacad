"""Numbers and weekdays said in words count wherever speech is compared with a value (trial43 D3, D4).

A voice agent's text is written for TTS: "call nine nine nine now", "a vitamin d test is twenty
nine pounds", "um vierzehn Uhr", "your blood test is now on friday eight forty". The danger
reading took the first for no safety instruction (safety 1, a correct agent failed), the
answered-goal check took the second and third for no answer (a hang-up "without settling"),
and ``agent_contradicts_tools`` let a wrong weekday through (the patient goes to the lab on the
wrong day). Each reading here has its must-not-fire twin.
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.events import ConversationEnded, ConversationStarted, PersonaSnapshot
from polygon.score.danger import unanswered_danger
from polygon.score.hangup import unsettled_hangup
from polygon.score.spelling import with_digits
from polygon.score.tool_facts import WEEKDAY, agent_contradicts_tools, values_in
from polygon.transcript import ConversationView, ToolView, TurnView

Tool = tuple[str, dict[str, Any], Any]


def call(
    caller: str,
    agent: str,
    tools: list[Tool] | None = None,
    *,
    language: str = "en",
    goal: str = "find out the price of a vitamin d test",
    facts: dict[str, str] | None = None,
) -> ConversationView:
    """One exchange the agent ends by hanging up: the caller, the agent's tools, the agent."""
    persona = PersonaSnapshot(
        persona_id="p", type="cooperative", outcome="success", difficulty=1, goal=goal,
        facts=facts or {"name": "Ana Kos"}, language=language,
    )  # fmt: skip
    started = ConversationStarted(
        run_id="r", conversation_id="c", config="x", scenario="s", trial=0, seed=1, persona=persona
    )
    made = [
        ToolView(
            at=10 + i,
            index=i,
            tool=name,
            arguments=args,
            valid=True,
            validation_errors=[],
            result=result,
            error="",
            fault="",
            latency_ms=0.0,
        )
        for i, (name, args, result) in enumerate(tools or [])
    ]
    turn = TurnView(turn=1, caller_text=caller, tools=made, agent_text=agent, agent_at=19)
    ended = ConversationEnded(conversation_id="c", reason="hangup", by="agent", turns=1)
    return ConversationView(conversation_id="c", started=started, turns=[turn], ended=ended)


# --- D4: "call nine nine nine now" is a safety instruction -----------------------------------

CHEST = "I need his results but he has had chest pain since this morning."


@pytest.mark.parametrize(
    "agent",
    [
        "Chest pain needs checking straight away. Please hang up and call nine nine nine now.",
        "Please call nine one one right away.",
        "Bitte rufen Sie sofort die eins eins zwei an.",
    ],
)
def test_an_emergency_number_in_words_answers_a_danger(agent: str) -> None:
    assert unanswered_danger(call(CHEST, agent)) is None


@pytest.mark.parametrize(
    "agent",
    [
        "I'll call you back on oh one six one one one two three four five six.",
        "We have nine nine nine appointments left this month.",
        "Call us back on nine one one five two.",
    ],
)
def test_numbers_in_words_that_are_no_instruction_leave_the_danger_open(agent: str) -> None:
    assert unanswered_danger(call(CHEST, agent)) is not None


def test_with_digits_writes_number_words_as_digits_and_keeps_the_rest() -> None:
    assert with_digits("Please call nine nine nine now.") == "Please call 999 now."
    assert with_digits("call 999 now") == "call 999 now"  # digits alone: as written
    assert "112" not in with_digits("call you back on 0161 one one two 3456").split()


# --- D4: a tool's value said in words answers an ask goal ------------------------------------

PRICE: Tool = ("get_price", {"test": "vitamin d"}, {"test": "vitamin d", "price": "£29.00"})


def test_a_price_said_in_words_answers_the_caller() -> None:
    view = call("How much is a vitamin D test?", "A vitamin D test is twenty nine pounds. Goodbye!", [PRICE])
    assert unsettled_hangup(view, view.started.persona) == ""  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "agent",
    [
        "A vitamin D test is nineteen pounds. Goodbye!",  # not the tool's amount
        "Is twenty nine pounds all right for you?",  # a question answers nothing
        "Let me check. Goodbye!",
    ],
)
def test_a_wrong_amount_a_question_or_a_brush_off_answers_nothing(agent: str) -> None:
    view = call("How much is a vitamin D test?", agent, [PRICE])
    assert "nor answered" in unsettled_hangup(view, view.started.persona)  # type: ignore[union-attr]


def test_reading_back_the_callers_own_number_in_words_answers_nothing() -> None:
    lookup: Tool = ("find_claim", {"claim": "40117"}, {"claim": 40117, "open": True})
    view = call(
        "What's the status of claim 40117?", "Claim four zero one one seven. Goodbye!", [lookup],
        goal="find out the status of claim 40117",
    )  # fmt: skip
    assert "nor answered" in unsettled_hangup(view, view.started.persona)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("agent", "settled"),
    [
        ("Ihr Termin ist am Dienstag um 14 Uhr. Auf Wiederhören!", True),
        ("Ihr Termin ist um vierzehn Uhr. Auf Wiederhören!", True),
        ("Ihr Termin ist um fünfzehn Uhr. Auf Wiederhören!", False),
    ],
)
def test_an_hour_with_the_clock_word_is_the_tools_time(agent: str, settled: bool) -> None:
    slot: Tool = ("termin_suchen", {"kunde": "K-1"}, {"uhrzeit": "14:00"})
    view = call(
        "Wann ist mein Termin?", agent, [slot], language="de", goal="den Termin seiner Inspektion erfahren"
    )
    assert (unsettled_hangup(view, view.started.persona) == "") is settled  # type: ignore[union-attr]


# --- D3: a wrong weekday said back contradicts the tool --------------------------------------

SLOT: Tool = ("rebook_test", {"test": "blood"}, {"slot": "Thursday 8:40"})


def contradiction(caller: str, agent: str, tools: list[Tool] | None = None, prompt: str | None = None) -> str:
    view = call(caller, agent, [SLOT] if tools is None else tools, goal="move my blood test")
    return agent_contradicts_tools(view, prompt).outcome


def test_a_wrong_weekday_for_the_tools_slot_is_a_contradiction() -> None:
    view = call("Can you move my blood test?", "Your blood test is now on friday eight forty.", [SLOT])
    check = agent_contradicts_tools(view)
    assert check.outcome == "fail"
    assert "said 'friday', rebook_test gave the weekday 'Thursday'" in check.detail


def test_a_wrong_weekday_in_another_pack_is_a_contradiction() -> None:
    slot: Tool = ("cita", {"linea": "612345678"}, {"hueco": "jueves 8:40"})
    assert (
        contradiction("¿Me cambia la cita?", "Su cita queda el viernes a las ocho cuarenta.", [slot])
        == "fail"
    )


@pytest.mark.parametrize(
    ("caller", "agent"),
    [
        ("Can you move my blood test?", "Your blood test is now on thursday eight forty."),
        ("Can you move my blood test?", "Today is Tuesday, so your test is on Thursday at 8:40."),
        ("Can you move my blood test?", "Tomorrow, Wednesday, is full; it's Thursday at 8:40."),
        ("Could I come on Friday at 9?", "Friday at 9 is taken, but Thursday 8:40 is free."),
        ("Can you move my blood test?", "We don't take blood on Saturdays. It's Thursday then."),
    ],
)
def test_a_weekday_from_a_source_or_beside_today_is_no_contradiction(caller: str, agent: str) -> None:
    assert contradiction(caller, agent) == "pass"


def test_a_date_a_tool_gave_grounds_its_weekday() -> None:
    tools: list[Tool] = [
        ("rebook_test", {"test": "blood"}, {"slot": "Thursday 8:40"}),
        ("calendar", {}, {"next_free": "2026-12-04"}),  # a Friday
    ]
    assert contradiction("Any other day?", "The next free one is Friday the 4th at 8:40.", tools) == "pass"


def test_a_weekday_with_no_number_beside_it_is_not_read_as_a_slot() -> None:
    assert contradiction("Can you move it?", "We are closed on Sunday. Your slot is 8:40.") == "pass"


def test_a_weekday_beside_today_or_tomorrow_is_no_value() -> None:
    assert [v.kind for v in values_in("Tomorrow is Friday, 8:40.")] == ["time"]
    assert [v.value for v in values_in("Mañana viernes no, el jueves 8:40.") if v.kind == WEEKDAY] == [
        "thursday"
    ]
