"""A done word in a clause a condition opens reports nothing done (trial8).

A card line's correct agent refused a disputed refund — "I can't promise a refund, but the
disputes team will review it and, if approved, you'll get your money back. Goodbye." — and
failed ``goal_reached`` as one that "refused nothing and ended on an outcome": "approved" in "if
approved" was read as the thing done.
"""

from __future__ import annotations

import pytest

from polygon.languages import load_language
from polygon.languages.acts import read_turn


@pytest.mark.parametrize(
    "said",
    [
        "I can't promise a refund, but the disputes team will review it and, if approved, you'll get your money back.",
        "If approved, the money goes back to your card.",
        "Ako bude odobreno, novac ćemo vam vratiti.",
    ],
)
def test_a_done_word_after_a_condition_reports_nothing(said: str) -> None:
    pack = load_language("hr" if said.startswith("Ako") else "en")
    assert "outcome" not in read_turn(said, pack).acts, read_turn(said, pack).acts


@pytest.mark.parametrize(
    "said",
    ["Done, your card is blocked.", "Approved, you'll get the new card on Wednesday.", "Your refund is approved."],
)
def test_a_done_word_without_a_condition_still_reports(said: str) -> None:
    assert "outcome" in read_turn(said, load_language("en")).acts
