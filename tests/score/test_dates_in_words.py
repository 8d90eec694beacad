"""Dates said in words and a weekday beside a date, held against the tools (tester46 D1, D2).

The tool answered ``{"zustelltag": "2026-12-03"}`` and the agent said "am freitag, dem vierten
dezember": the digits "4. dezember" failed ``agent_contradicts_tools``, the words passed. An
ordinal day word before a month's name ("vierten dezember", "četrnaestog prosinca",
"четвёртого декабря", "the fourth of December", Spanish "el cuatro de diciembre") is a date;
a weekday just before a date is that date's weekday ("četvrtak, četvrtog prosinca" for a
Friday fails).
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.events import ConversationStarted, PersonaSnapshot
from polygon.score.tool_facts import DATE, DAY, WEEKDAY, agent_contradicts_tools, values_in
from polygon.transcript import ConversationView, ToolView, TurnView


def call(
    caller: str, result: dict[str, Any], agent: str, facts: dict[str, str] | None = None
) -> ConversationView:
    """One turn: the caller speaks, one tool answers ``result``, the agent speaks."""
    persona = PersonaSnapshot(
        persona_id="p", type="cooperative", outcome="success", difficulty=1, goal="g", facts=facts or {}
    )
    started = ConversationStarted(
        run_id="r", conversation_id="c", config="x", scenario="s", trial=0, seed=1, persona=persona
    )
    tool = ToolView(
        at=10,
        index=0,
        tool="lookup",
        arguments={},
        valid=True,
        validation_errors=[],
        result=result,
        error="",
        fault="",
        latency_ms=0.0,
    )
    turn = TurnView(turn=1, caller_text=caller, tools=[tool], agent_text=agent, agent_at=19)
    return ConversationView(conversation_id="c", started=started, turns=[turn])


DE = {"zustelltag": "2026-12-03", "zeitfenster": "14:00-18:00"}
HR = {"termin": "2026-12-04 10:00"}


@pytest.mark.parametrize(
    ("result", "said"),
    [
        (DE, "ihr paket wird am freitag, dem vierten dezember zwischen 14 und 18 uhr zugestellt."),
        (DE, "ihr paket kommt am vierten dezember."),
        (HR, "tehničar je rezerviran za petak, četrnaestog prosinca u 10:00."),
        (HR, "tehničar dolazi dvadeset četvrtog prosinca u 10:00."),
        ({"date": "2026-12-03"}, "Your parcel arrives on the fourth of December."),
        ({"date": "2026-12-03"}, "Your parcel arrives on December the twenty-fourth."),
        ({"fecha": "2026-12-03"}, "Su paquete llega el cuatro de diciembre."),
        ({"дата": "2026-12-03"}, "Посылка придёт четвёртого декабря."),
        ({"date": "2026-12-03"}, "It arrives on the fourth of December, 2026."),
    ],
)
def test_a_wrong_date_said_in_words_contradicts_the_tool(result: dict[str, Any], said: str) -> None:
    found = agent_contradicts_tools(call("Where is my parcel?", result, said))
    assert found.outcome == "fail", found.detail
    assert "gave the date" in found.detail


@pytest.mark.parametrize(
    ("result", "said"),
    [
        (DE, "ihr paket wird am donnerstag, dem dritten dezember zwischen 14 und 18 uhr zugestellt."),
        (HR, "tehničar je rezerviran za petak, četvrtog prosinca u 10:00."),
        ({"date": "2026-12-03"}, "Your parcel arrives on Thursday, the third of December."),
        ({"date": "2026-12-03"}, "Your parcel arrives on December third."),
        ({"fecha": "2026-12-03"}, "Su paquete llega el jueves, tres de diciembre."),
        ({"дата": "2026-12-03"}, "Посылка придёт в четверг, третьего декабря."),
    ],
)
def test_the_right_date_said_in_words_agrees(result: dict[str, Any], said: str) -> None:
    assert agent_contradicts_tools(call("Where is my parcel?", result, said)).outcome == "pass"


def test_a_wrong_weekday_beside_the_right_date_fails_and_names_the_dates_weekday() -> None:
    found = agent_contradicts_tools(
        call("Kada dolazi tehničar?", HR, "Tehničar dolazi u četvrtak, četvrtog prosinca.")
    )
    assert found.outcome == "fail"
    assert "said 'četvrtak', lookup gave the date '2026-12-04' (a friday)" in found.detail


def test_the_callers_own_date_in_words_grounds_the_agents_reading_back() -> None:
    view = call(
        "Može li petak, jedanaestog prosinca?",
        HR,
        "Petak, jedanaestog prosinca je popunjen; slobodan je termin u petak, četvrtog prosinca u 10:00.",
    )
    assert agent_contradicts_tools(view).outcome == "pass"


def test_a_weekday_beside_a_date_no_tool_gave_is_not_held_against_another_tool_date() -> None:
    """The tool gave a birth date; the caller asked for the 4th: "Friday, 4 December" is no contradiction."""
    view = call(
        "Can I come in on the fourth of December?",
        {"date_of_birth": "1980-03-12"},
        "Yes, Friday, the fourth of December at 10:00 works.",
        facts={"slot": "10:00"},
    )
    assert agent_contradicts_tools(view).outcome == "pass"


def test_a_weekday_beside_today_or_tomorrow_names_the_call_day_not_a_slot() -> None:
    view = call("Wann kommt es?", DE, "Heute ist Mittwoch; das Paket kommt morgen, am dritten Dezember.")
    assert agent_contradicts_tools(view).outcome == "pass"


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("am vierten dezember", DAY, "12-04"),
        ("četrnaestog prosinca", DAY, "12-14"),
        ("dvadeset četvrtog prosinca", DAY, "12-24"),
        ("the twenty-first of March", DAY, "03-21"),
        ("el treinta y uno de diciembre de 2026", DATE, "2026-12-31"),
        ("тридцать первого декабря", DAY, "12-31"),
        ("zum einunddreißigsten dezember", DAY, "12-31"),
    ],
)
def test_day_words_read_in_every_pack(text: str, kind: str, value: str) -> None:
    assert (kind, value) in {(v.kind, v.value) for v in values_in(text)}


@pytest.mark.parametrize(
    "text",
    [
        "You may first want to call us back.",
        "Llamó en marzo dos veces.",
        "March first to the counter, please.",
    ],
)
def test_a_month_that_is_also_a_word_before_a_number_word_is_no_date(text: str) -> None:
    assert not [v for v in values_in(text) if v.kind in (DATE, DAY)]


def test_a_weekday_just_before_a_date_is_dated() -> None:
    (weekday,) = [v for v in values_in("am Freitag, dem vierten Dezember") if v.kind == WEEKDAY]
    assert (weekday.value, weekday.of) == ("friday", "12-04")
