"""The comparison's analysis: equal composites do not hide a call that fails a gate."""

from __future__ import annotations

from polygon.projections.compare import Comparison, PairedDifference, Scorecard, Side
from polygon.render import comparison_analysis


def card(label: str, passed: int, failed: int, gates: dict[str, int]) -> Scorecard:
    return Scorecard(
        label=label,
        conversations=passed + failed,
        judged=passed + failed,
        composite_mean=92.0,
        composite_low=92.0,
        composite_high=92.0,
        passed=passed,
        warned=0,
        failed=failed,
        criteria={},
        by_caller_type={},
        by_difficulty={},
        probes={},
        loops=0,
        gate_failures=gates,
        pass_hat_k={},
    )


def analysis(b: Scorecard) -> list[str]:
    a = card("good", 5, 0, {})
    same = PairedDifference(
        a="good", b=b.label, pairs=5, mean_difference=0.0, low=0.0, high=0.0, within_noise=True
    )
    sides = [Side(label=s.label, run_id="r", config=s.label) for s in (a, b)]
    c = Comparison(
        rubric_version="v1",
        judges=[],
        heuristic=True,
        sides=sides,
        scorecards=[a, b],
        matrix=[],
        differences=[same],
        divergences=[],
    )
    return comparison_analysis(c)


def test_equal_composites_with_a_failed_gate_say_the_verdicts_differ() -> None:
    (line, gates) = analysis(card("promise_refund", 4, 1, {"check:policy": 1}))
    assert "+0.0 over 5 paired calls" in line
    assert "within run-to-run noise for the composite, yet the verdicts differ" in line
    assert "pass 5 → 4, fail 0 → 1, gate failures 0 → 1" in line
    assert gates == "Gate failures: check:policy 0 → 1."


def test_equal_composites_and_verdicts_are_within_noise() -> None:
    (line,) = analysis(card("again", 5, 0, {}))
    assert line.endswith("within run-to-run noise).")
