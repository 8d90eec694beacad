from __future__ import annotations

import pytest

from polygon.similarity import is_loop, overlap
from tests.support.text import replaced


def test_repeated_one_word_reply_is_a_loop() -> None:
    assert is_loop("Yes.", "Yes.")
    assert is_loop("Could you repeat that?", "Could you repeat that?")


TEN = "one two three four five six seven eight nine ten"


def test_threshold_both_sides() -> None:
    at = replaced(TEN, "ten", "eleven")  # 9 of 10 shared: 2*9/20 = 0.9
    assert overlap(TEN, at) == pytest.approx(0.9)
    assert is_loop(TEN, at)
    nineteen = " ".join(f"w{i}" for i in range(19))
    below = replaced(replaced(nineteen, "w17", "x"), "w18", "y")  # 2*17/38 = 0.8947
    assert overlap(nineteen, below) < 0.9
    assert not is_loop(nineteen, below)


def test_different_replies_are_not_loops() -> None:
    assert not is_loop("Noted 3.", "Noted 4.")
    assert not is_loop("", "")
    assert not is_loop("Yes.", "No.")
