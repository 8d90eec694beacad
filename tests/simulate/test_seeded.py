"""``seeded(seed)`` is ``random.Random(seed)``: the noise and the caller's draws depend on it."""

from __future__ import annotations

import random

import pytest

from polygon.simulate.seeded import seeded


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 - 1, 2**32, 2**63 + 12345, 2**64 - 1, -5, 10**40])
def test_the_same_generator_as_random_random(seed: int) -> None:
    mine, theirs = seeded(seed), random.Random(seed)
    assert type(mine) is random.Random
    assert mine.getstate() == theirs.getstate()
    assert vars(mine) == vars(theirs)
    assert [mine.random() for _ in range(50)] == [theirs.random() for _ in range(50)]
    assert mine.choice("abcdefgh") == theirs.choice("abcdefgh")
    assert mine.gauss(0, 1) == theirs.gauss(0, 1)
