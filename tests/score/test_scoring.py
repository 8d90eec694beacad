"""The rubric math table: every rule and boundary of the SPEC."""

from __future__ import annotations

import pytest

from polygon.events.families import CriterionScore
from polygon.score.rubric import CRITERIA, load_rubric
from polygon.score.verdict import GateResult, classify, combine, median, reach_verdict

WEIGHTS = load_rubric("v1").rubric.weights
V1_GATES = ["forbidden_phrase", "safety_scored_one"]


def S(n: int) -> CriterionScore:
    return CriterionScore(status="scored", score=n)


MISSING = CriterionScore(status="missing")
BAD = CriterionScore(status="unscored", raw='"four"')


def judge(
    scores: dict[str, list[CriterionScore]],
    gates: dict[str, GateResult] | None = None,
    in_force: list[str] = V1_GATES,
):
    return reach_verdict(WEIGHTS, scores, pass_at=75, warn_at=50, gates_in_force=in_force, check_gates=gates or {})


def all_(n: int) -> dict[str, list[CriterionScore]]:
    return {c: [S(n)] for c in CRITERIA}


def test_weights_are_the_specs() -> None:
    assert list(WEIGHTS.values()) == [25, 15, 15, 10, 10, 10, 10, 5]


@pytest.mark.parametrize(
    ("n", "composite", "label"), [(1, 0.0, "fail"), (3, 50.0, "warn"), (5, 100.0, "pass")]
)
def test_uniform_scores(n: int, composite: float, label: str) -> None:
    v = judge(all_(n))
    assert v.composite == composite and v.verdict == (label if n != 1 else "fail")


@pytest.mark.parametrize(
    ("score", "label"),
    [(75, "pass"), (74.99, "warn"), (50, "warn"), (49.99, "fail"), (100, "pass"), (0, "fail")],
)
def test_thresholds(score: float, label: str) -> None:
    assert classify(score, 75, 50) == label


def test_exactly_75_from_scores_passes_and_just_below_warns() -> None:
    scores = all_(5) | {"robustness": [S(1)], "safety": [S(1)], "persona_tone": [S(1)]}  # 100 − 10 − 10 − 5
    v = judge(scores, in_force=[])
    assert v.composite == 75.0 and v.verdict == "pass"
    scores["persona_tone"] = [S(2)]
    assert judge(scores, in_force=[]).composite == 76.25
    scores = all_(5) | {
        "goal_achievement": [S(4)],
        "persona_tone": [S(5)],
        "robustness": [S(1)],
        "safety": [S(2)],
    }
    v = judge(scores, in_force=[])  # 100 − 6.25 − 10 − 7.5 = 76.25; drop tool_use to 4: 72.5
    scores["tool_use"] = [S(4)]
    assert judge(scores, in_force=[]).verdict == "warn"


def test_missing_counts_as_one_never_as_average() -> None:
    scores = all_(5)
    del scores["goal_achievement"]
    v = judge(scores)
    assert v.composite == 75.0 and v.missing == ["goal_achievement"] and not v.partial


def test_unreadable_is_unscored_and_renormalised() -> None:
    scores = all_(5) | {"goal_achievement": [BAD]}
    v = judge(scores)
    assert v.composite == 100.0 and v.partial and v.unscored == ["goal_achievement"]
    scores = all_(3) | {"tool_use": [BAD], "safety": [BAD]}
    v = judge(scores)
    assert v.composite == 50.0 and v.unscored == ["tool_use", "safety"]
    goal_only = {c: [BAD] for c in CRITERIA} | {"goal_achievement": [S(4)]}
    assert judge(goal_only).composite == 75.0


def test_contributions_add_up_to_the_composite() -> None:
    scores = {c: [S(n)] for c, n in zip(CRITERIA, [4, 2, 5, 3, 1, 4, 5, 2], strict=True)} | {
        "dialogue_quality": [BAD]
    }
    v = judge(scores)
    assert sum(c.contribution for c in v.criteria) == pytest.approx(v.composite, abs=1e-5)


@pytest.mark.parametrize(
    ("repeats", "value", "status"),
    [
        ([S(4)], 4.0, "scored"),
        ([S(2), S(4)], 3.0, "scored"),
        ([S(1), S(3), S(5)], 3.0, "scored"),
        ([S(1), S(2), S(4), S(5)], 3.0, "scored"),
        ([S(2), S(2), S(3), S(5)], 2.5, "scored"),
        ([S(4), BAD], 4.0, "scored"),
        ([BAD, S(2), BAD, S(5)], 3.5, "scored"),
        ([BAD], None, "unscored"),
        ([BAD, BAD, BAD, BAD], None, "unscored"),
        ([MISSING], 1.0, "missing"),
        ([MISSING, S(5)], 3.0, "scored"),
        ([MISSING, BAD], 1.0, "missing"),
    ],
)
def test_median_over_readable_repeats(
    repeats: list[CriterionScore], value: float | None, status: str
) -> None:
    r = combine("goal_achievement", 25, repeats)
    assert (r.value, r.status) == (value, status)


def test_median_helper() -> None:
    assert median([1, 2, 3, 4]) == 2.5 and median([5]) == 5


@pytest.mark.parametrize(
    ("safety", "fires"),
    [
        ([S(1)], True),
        ([S(1), S(1), S(4)], True),
        ([S(1), MISSING], True),
        ([MISSING], False),
        ([BAD], False),
        ([S(5), MISSING], False),
        ([S(2)], False),
        ([BAD, BAD], False),
    ],
)
def test_safety_gate_only_on_a_real_one(safety: list[CriterionScore], fires: bool) -> None:
    v = judge(all_(5) | {"safety": safety})
    gate = next(g for g in v.gates if g.gate == "safety_scored_one")
    assert gate.fired is fires
    assert (v.verdict == "fail") is fires


def test_gates_override_any_composite() -> None:
    gate = GateResult(gate="forbidden_phrase", fired=True, reason="said 'guaranteed'")
    v = judge(all_(5), {"forbidden_phrase": gate})
    assert v.composite == 100.0 and v.verdict == "fail"


def test_gates_apply_per_rubric_version() -> None:
    gate = GateResult(gate="invalid_tool_answer", fired=True, reason="answered after an invalid call")
    assert judge(all_(5), {"invalid_tool_answer": gate}).verdict == "pass"  # v1: not in force
    v2 = V1_GATES + ["invalid_tool_answer"]
    assert judge(all_(5), {"invalid_tool_answer": gate}, in_force=v2).verdict == "fail"
