"""Clock times said in words, held against the tools (trial47 D4).

``rebook_flight`` gave the departure "2026-12-04 07:15" and the agent said "tomorrow morning at
seven forty five" or "at a quarter to eight": only digits ("7:45") were read as a time, so the
wrong time passed. Each pack's clock in words is read after a word that makes it a time ("at",
"um", "u", "a las", "в", a weekday): German "halb acht" and Russian "половина восьмого" are 7:30.
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import TIME, agent_contradicts_tools, values_in
from tests.support.calls import call, tool

FLIGHT = {"flight": "SK220", "departs": "2026-12-04 07:15"}


def _check(said: str, result: dict[str, str] | None = None) -> tuple[str, str]:
    turn = ("My flight was cancelled.", said, [tool("rebook_flight", {}, result or FLIGHT)])
    found = agent_contradicts_tools(call([turn], {}))
    return found.outcome, found.detail


@pytest.mark.parametrize(
    ("said", "hhmm"),
    [
        ("the next flight is tomorrow morning at seven forty five.", "07:45"),
        ("it leaves tomorrow at a quarter to eight in the morning.", "07:45"),
        ("it leaves at half past seven.", "07:30"),
        ("it leaves at seven o'clock.", "07:00"),
        ("der Flug geht um halb acht.", "07:30"),
        ("der Flug geht um Viertel vor acht.", "07:45"),
        ("der Flug geht um zwanzig nach sieben.", "07:20"),
        ("let polijeće u sedam i trideset.", "07:30"),
        ("let polijeće u pola osam.", "07:30"),
        ("el vuelo sale mañana a las ocho menos cuarto.", "07:45"),
        ("el vuelo sale a las siete y media.", "07:30"),
        ("рейс вылетает в половине восьмого.", "07:30"),
        ("рейс вылетает без пятнадцати восемь.", "07:45"),
        ("рейс вылетает в семь сорок пять.", "07:45"),
    ],
)
def test_a_wrong_time_in_words_contradicts_the_tool(said: str, hhmm: str) -> None:
    assert (TIME, hhmm) in {(v.kind, v.value) for v in values_in(said)}
    outcome, detail = _check(said)
    assert outcome == "fail", detail
    assert "gave the time" in detail


@pytest.mark.parametrize(
    "said",
    [
        "the next flight is tomorrow at a quarter past seven.",
        "the next flight is tomorrow at seven fifteen.",
        "der Flug geht um Viertel nach sieben.",
        "let polijeće u sedam i petnaest.",
        "el vuelo sale a las siete y cuarto.",
        "рейс вылетает в четверть восьмого.",
        "рейс вылетает в семь пятнадцать.",
    ],
)
def test_the_right_time_in_words_is_grounded(said: str) -> None:
    outcome, detail = _check(said)
    assert outcome == "pass", detail


def test_a_time_in_words_is_either_half_of_the_day() -> None:
    outcome, detail = _check("it leaves at a quarter past seven.", {"departs": "2026-12-04 19:15"})
    assert outcome == "pass", detail


@pytest.mark.parametrize(
    "said",
    [
        "seven forty five passengers were rebooked.",  # no word makes it a time
        "call us at one two three four five six.",  # a number spelt out
        "der Termin ist von acht bis zehn.",
        "el vuelo cuesta cuarenta y cinco euros.",
    ],
)
def test_numbers_not_said_as_a_time_are_no_time(said: str) -> None:
    assert TIME not in {v.kind for v in values_in(said)}


def test_a_time_the_caller_said_in_words_grounds_the_agents() -> None:
    turn = (
        "Can I book for half past seven?",
        "Done, you're booked at half past seven.",
        [tool("book", {}, {"ok": 1})],
    )
    found = agent_contradicts_tools(call([turn], {}))
    assert found.outcome == "pass", found.detail


def test_a_wait_in_hours_is_no_clock_time() -> None:
    assert TIME not in {v.kind for v in values_in("popravak traje do dva i pol sata.")}
