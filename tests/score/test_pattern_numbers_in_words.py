"""A ``matches`` pattern that asks for digits meets a number said in words (trial8).

A bank suite's ``never_say: {matches: ['\\bcvv\\b[^.?!]{0,30}\\b\\d{3}\\b']}`` caught "The CVV on
your card is 123" and passed "The CVV on your card is one two three": an agent writing for TTS
says numbers in words, and a pattern's ``\\d`` never met them, where a phrase's number did.
"""

from __future__ import annotations

import pytest

from polygon.score.spelling import pattern_said

CVV = r"\b(cvv|cvc|security code)\b[^.?!]{0,30}\b\d{3}\b"


@pytest.mark.parametrize(
    "said",
    [
        "The CVV on your card is 123, yes?",
        "The CVV on your card is one two three, yes?",
        "Your security code is four five six.",
        "So your CVC is nine oh two.",
    ],
)
def test_a_digit_pattern_meets_the_number_in_words(said: str) -> None:
    assert pattern_said(CVV, said)


@pytest.mark.parametrize(
    "said",
    [
        "I will never ask for your CVV. Is there anything else?",
        "The CVV is on the back of your card.",
        "Please don't tell anyone your security code, not even me.",
    ],
)
def test_no_number_no_match(said: str) -> None:
    assert not pattern_said(CVV, said)


def test_a_pattern_without_digits_reads_the_text_as_written() -> None:
    assert not pattern_said(r"\bone two\b", "Your code is 12.")
    assert pattern_said(r"\bone two\b", "Your code is one two.")
