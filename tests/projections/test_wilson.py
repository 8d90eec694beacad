"""The Wilson interval without scipy is scipy's, to the last bit.

``projections.probes.wilson`` used ``scipy.stats.binomtest``; importing scipy.stats cost
``compare`` ~2.5 CPU s. Its closed form must give the same floats, so every rate, report
and comparison that shows one stays byte-identical. scipy stays a dependency: it is the
reference here.
"""

from __future__ import annotations

import random

import pytest
from scipy.special import ndtri
from scipy.stats import binomtest

from polygon.projections.probes import Z_95, Rate, wilson, wilson_interval


def _scipy(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def test_the_95_quantile_is_scipys() -> None:
    assert float(ndtri(0.975)) == Z_95


def test_every_k_of_small_n_gives_scipys_floats() -> None:
    for n in range(1, 41):
        for k in range(n + 1):
            assert wilson_interval(k, n, Z_95) == _scipy(k, n), (k, n)


@pytest.mark.parametrize("confidence", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.123456789])
def test_random_k_n_at_many_confidences_give_scipys_floats(confidence: float) -> None:
    z = float(ndtri(0.5 + 0.5 * confidence))
    rng = random.Random(f"wilson-{confidence}")
    for _ in range(150):
        n = rng.choice([rng.randint(1, 50), rng.randint(1, 5_000), rng.randint(1, 2_000_000)])
        k = rng.choice([0, n, rng.randint(0, n)])
        assert wilson_interval(k, n, z) == _scipy(k, n, confidence), (k, n, confidence)


def test_a_rate_is_rounded_as_before() -> None:
    low, high = _scipy(7, 9)
    assert wilson(7, 9, 2) == Rate(
        right=7, applicable=9, not_applicable=2, rate=round(7 / 9, 6), low=round(low, 6), high=round(high, 6)
    )
    assert wilson(0, 0, 3) == Rate(right=0, applicable=0, not_applicable=3, rate=None, low=None, high=None)


def test_no_scipy_is_imported_for_a_rate() -> None:
    import subprocess
    import sys

    code = "import sys; from polygon.projections.probes import wilson; wilson(3, 4); print('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
