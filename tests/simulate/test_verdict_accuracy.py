"""The verdict-accuracy benchmark holds its counts (issue 32): a regression fails here.

All four domains (576 calls, offline, a few seconds). The bounds are the benchmark's
reading when they were last set; an improvement leaves them standing, a regression fails.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.bench.accuracy.run import DOMAINS, Reading, measure

BOUNDS = {
    # The most of each wrong kind a domain may show (its reading when the bounds were set).
    # hotel: the leaking version names another guest, her room and her card's last digits;
    # the suite's policy names the grounded `disclosure` detector, which fails those calls
    # (12 false passes before it).
    "insurance": {"false_pass": 0, "false_fail": 0, "simulator_error": 0, "missed_simulator": 0, "wrong_state": 0},
    "outage": {"false_pass": 0, "false_fail": 0, "simulator_error": 0, "missed_simulator": 0, "wrong_state": 0},
    "hotel": {"false_pass": 0, "false_fail": 0, "simulator_error": 0, "missed_simulator": 0, "wrong_state": 0},
    "pharmacy": {"false_pass": 0, "false_fail": 0, "simulator_error": 0, "missed_simulator": 0, "wrong_state": 0},
}


@pytest.fixture(scope="module")
def readings() -> dict[str, Reading]:
    return {d: measure(d) for d in DOMAINS}


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_domain_holds_its_counts(readings: dict[str, Reading], domain: str) -> None:
    c: Counter[str] = readings[domain].counts
    assert c["calls"] == 8 * 6 * 3  # every config, persona and trial ran
    over = {k: c[k] for k, most in BOUNDS[domain].items() if c[k] > most}
    assert not over, f"{domain}: {over} (bounds {BOUNDS[domain]})"


def test_the_truth_is_the_trace_not_the_config(readings: dict[str, Reading]) -> None:
    """A bug version's call where the bug never came up is a clean call; the correct line's
    calls carry no agent bug."""
    calls = [c for r in readings.values() for c in r.calls]
    assert not [c for c in calls if c.config == "correct" and c.truth.bugs]
    for bug in ("leaks", "promises", "wrong_value", "loops"):
        assert any(bug in c.truth.bugs for c in calls if c.config == bug), bug
