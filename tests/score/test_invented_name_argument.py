"""``agent_contradicts_tools``: a tool sent a name for the caller that nobody gave.

adversary: the clinic agent that booked "Kovac Horvat" for a caller who said "Ana Kovac" (and
read it back) passed 12 of 12 booking calls where it reached the booking: the argument rule
read only numbers.
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import agent_contradicts_tools
from tests.support.tool_calls import call, outcome

FACTS = {"name": "Ana Kovac", "phone": "091 555 0134"}


def _booked(name: str, heard: str = "Hi, this is Ana Kovac.", facts: dict[str, str] = FACTS) -> str:
    book = ("book_slot", {"slot": "Wednesday 09:00", "name": name, "phone": "0915550134"}, {"ok": True})
    return outcome(call([(heard, [book], "You're booked.")], facts))


@pytest.mark.parametrize("name", ["Kovac Horvat", "Anna Kovac", "Ana Petrovic"])
def test_a_name_word_no_source_gave_fails(name: str) -> None:
    assert _booked(name) == "fail"


def test_the_detail_names_the_argument_and_the_fact() -> None:
    book = ("book_slot", {"name": "Kovac Horvat"}, {"ok": True})
    detail = agent_contradicts_tools(call([("This is Ana Kovac.", [book], "Booked.")], FACTS)).detail
    assert 'sent book_slot name="Kovac Horvat", a name no caller turn, tool, fact or prompt gave' in detail


@pytest.mark.parametrize(
    ("name", "heard"),
    [
        ("Ana Kovac", "Hi, this is Ana Kovac."),
        ("Kovac", "Hi, this is Kovac."),  # what the noise left
        ("Ana Kovač", "Hi, this is Ana Kovac."),  # accents
        ("Mrs Ana Kovac", "Hi, this is Ana Kovac."),  # a title
        ("unknown", "Hello?"),  # a placeholder, not a name
        ("Ridiculous", "Honestly, this is ridiculous."),  # the agent's own misreading of the caller's words
    ],
)
def test_a_name_some_source_gave_passes(name: str, heard: str) -> None:
    assert _booked(name, heard) != "fail"


def test_a_fact_not_shaped_as_a_name_is_not_read() -> None:
    facts = {"name": "Ana Kovac", "request": "cleaning"}
    book = ("book_slot", {"name": "Ana Kovac", "request": "Dental Cleaning"}, {"ok": True})
    assert outcome(call([("This is Ana Kovac, a cleaning please.", [book], "Booked.")], facts)) != "fail"
