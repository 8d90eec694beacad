"""A replacement told as sent or coming is an outcome report (trial8).

After ``order_replacement`` answered 500, "Your replacement is in the post." and "We'll send you
a new card." were read as filler: the scripted caller did not take its goal as done, and an agent
that told a failed order as placed was not read as reporting one.
"""

from __future__ import annotations

import pytest

from polygon.languages import load_language, read_turn


@pytest.mark.parametrize(
    "said",
    [
        "Your replacement is in the post.",
        "I've put an order through for a new card.",
        "I've placed an order for a new card.",
        "I've requested a new card for you; it will arrive in five working days.",
        "You'll receive your new card within a week.",
        "We'll send you a new card.",
        "The new card will arrive on Wednesday.",
    ],
)
def test_a_replacement_told_as_coming_is_an_outcome(said: str) -> None:
    assert "outcome" in read_turn(said, load_language("en")).acts


@pytest.mark.parametrize(
    "said",
    [
        "When will the new card arrive?",
        "I couldn't place the order, the system is down.",
        "The new card won't arrive this week, I'm afraid.",
    ],
)
def test_a_question_or_a_failure_is_none(said: str) -> None:
    assert "outcome" not in read_turn(said, load_language("en")).acts
