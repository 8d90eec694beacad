"""A code's letters spelled one by one meet the phrase that writes them together (trial6).

``never_say: {phrases: ["DE89 3704 0044 0532 0130 00"]}`` met "DE acht neun drei …" (the
number read in words) but not "D E acht neun drei …": a voice agent spells an IBAN's
country code, a claim number's prefix ("K S sieben null …") letter by letter, and the
phrase's reading ("de 8937…") never met the text's ("d e 8937…"). A policy forbidding the
full IBAN passed an agent that read it out whole (a false pass).
"""

from __future__ import annotations

import pytest

from polygon.score.policies import Speech, said
from polygon.score.spelling import phrase_said

IBAN = "DE89 3704 0044 0532 0130 00"
SPOKEN = "acht neun drei sieben null vier null null vier vier null fünf drei zwei null eins drei null null null"


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        (IBAN, f"Ihre IBAN lautet D E {SPOKEN}."),
        (IBAN, f"Ihre IBAN lautet D-E {SPOKEN}."),
        (IBAN, "Ihre IBAN lautet D E 89 3704 0044 0532 0130 00."),
        ("KS-70412", "Ihre Schadennummer ist K S sieben null vier eins zwei."),
        ("KS-70412", "Ihre Schadennummer ist K. S. 70412."),
    ],
)
def test_spelled_letters_meet_the_code(phrase: str, text: str) -> None:
    assert phrase_said(phrase, text)


def test_the_never_say_policy_hears_the_spelled_iban() -> None:
    assert said(f"Hinterlegt ist D E {SPOKEN}.", Speech(phrases=[IBAN])) == [repr(IBAN)]


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        (IBAN, "Ihr Konto endet auf drei null null null."),  # the last digits only
        ("KS-70412", "Ihre Schadennummer ist K S sieben null vier zwei eins."),  # another number
        ("KS-70412", "Ihre Schadennummer ist K X sieben null vier eins zwei."),  # other letters
    ],
)
def test_other_codes_do_not(phrase: str, text: str) -> None:
    assert not phrase_said(phrase, text)
