"""A short sentence with "your" that says a day is a statement, not a question.

A new user's German parcel line: "Ihr Paket kommt am Donnerstag." was read as a question (a
short sentence with "Ihr" and no auxiliary, the form of "Ihr Geburtsdatum, bitte."), and so was
"Your parcel arrives on Thursday.": a caller who called to learn the day answered "Sorry, I
don't have that." instead of hearing its answer.
"""

from __future__ import annotations

import pytest

from polygon.languages import caller_language
from polygon.languages.acts import read_turn
from tests.support.callers import scripted


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Your parcel arrives on Thursday."),
        ("de", "Ihr Paket kommt am Donnerstag."),
        ("de", "Ihre Lieferung kommt im Dezember."),
        ("es", "Su paquete llega el jueves."),
        ("hr", "Vaš paket stiže u četvrtak."),
        ("ru", "Ваша посылка придёт в четверг."),
    ],
)
def test_a_day_said_is_no_question(language: str, said: str) -> None:
    assert read_turn(said, caller_language(language)).sentences[0].act != "question"


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "And your date of birth, please."), ("de", "Ihr Geburtsdatum, bitte."), ("en", "Your name?")],
)
def test_a_short_request_without_a_day_still_asks(language: str, said: str) -> None:
    assert read_turn(said, caller_language(language)).sentences[0].act == "question"


@pytest.mark.parametrize(
    ("language", "goal", "facts", "asks", "answer"),
    [
        ("de", "wissen, wann mein Paket zugestellt wird", {"sendungsnummer": "PK-448213"},
         "Wie lautet Ihre Sendungsnummer?", "Danke. Ihr Paket kommt am Donnerstag."),
        ("en", "find out when my parcel will be delivered", {"tracking_number": "PK-448213"},
         "What's your tracking number?", "Thanks. Your parcel arrives on Thursday."),
    ],
)  # fmt: skip
def test_a_caller_asking_when_hears_the_day(
    language: str, goal: str, facts: dict[str, str], asks: str, answer: str
) -> None:
    caller = scripted(goal, facts, language)
    caller.next(None)
    assert caller.next(asks).intent == "give_fact"
    assert caller.next(answer).intent == "goodbye"
