"""The bootstrap interval is the same however its resamples are cut into chunks.

``bootstrap_mean`` draws its resamples in cache-sized chunks (faster at 20k calls); the
interval must stay the one drawn in chunks of a million, as every comparison showed it.
"""

from __future__ import annotations

import numpy as np
import pytest

from polygon.projections import compare


def _in_chunks_of_a_million(values: list[float]) -> tuple[float, float]:
    """The interval as it was drawn before (chunks of about 1,000,000 draws)."""
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(compare.BOOTSTRAP_SEED)
    n = len(data)
    rows = max(1, 1_000_000 // n)
    chunks = [min(rows, compare.BOOTSTRAP_RESAMPLES - d) for d in range(0, compare.BOOTSTRAP_RESAMPLES, rows)]
    means = np.concatenate([data[rng.integers(0, n, size=(k, n))].mean(axis=1) for k in chunks])
    low, high = np.percentile(means, [2.5, 97.5])
    return round(float(low), 4), round(float(high), 4)


@pytest.mark.parametrize("n", [2, 3, 7, 64, 999, 4_097, 30_011, 70_000])
def test_the_interval_is_the_one_drawn_in_chunks_of_a_million(n: int) -> None:
    rng = np.random.default_rng(n)
    values = [round(float(v), 2) for v in rng.uniform(0, 5, n)]
    assert compare.bootstrap_mean(values) == _in_chunks_of_a_million(values)


def test_the_means_themselves_do_not_depend_on_the_cut() -> None:
    # Rounded bounds could hide a difference: compare every resample's mean, unrounded.
    data = np.random.default_rng(5).random(5_003)
    cuts = []
    for rows in (1, 3, 13, 199, 2000):
        rng = np.random.default_rng(compare.BOOTSTRAP_SEED)
        sizes = [min(rows, 2000 - d) for d in range(0, 2000, rows)]
        cuts.append(
            np.concatenate([data[rng.integers(0, 5_003, size=(k, 5_003))].mean(axis=1) for k in sizes])
        )
    assert all(np.array_equal(cuts[0], c) for c in cuts[1:])


def test_one_value_is_its_own_interval() -> None:
    assert compare.bootstrap_mean([3.5]) == (3.5, 3.5)
