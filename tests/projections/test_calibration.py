"""Calibration figures against values computed independently here (by other formulas)."""

from __future__ import annotations

import itertools
import random

import pytest

from polygon.events.families import LabelRecorded
from polygon.events.families.judge import CriterionScore
from polygon.projections.calibration import (
    auc,
    best_threshold,
    calibrate,
    cohen_kappa,
    krippendorff_interval,
    spearman,
)
from polygon.projections.verdicts import ConversationRecord, ConversationVerdict
from polygon.render import calibration_data
from polygon.score.verdict import CriterionResult, Verdict


def _kappa_from_table(a: list[int], b: list[int]) -> float:
    # the 2×2 table's textbook form: (p_o − p_e) / (1 − p_e) with marginals from the table
    n = len(a)
    table = {
        (x, y): sum(1 for p, q in zip(a, b, strict=True) if (p, q) == (x, y)) for x in (0, 1) for y in (0, 1)
    }
    po = (table[(1, 1)] + table[(0, 0)]) / n
    pe = (
        (table[(1, 1)] + table[(1, 0)]) * (table[(1, 1)] + table[(0, 1)])
        + (table[(0, 0)] + table[(0, 1)]) * (table[(0, 0)] + table[(1, 0)])
    ) / n**2
    return (po - pe) / (1 - pe)


def _auc_by_pairs(scores: list[float], truth: list[int]) -> float:
    pairs = [
        (p, q)
        for p, tp in zip(scores, truth, strict=True)
        if tp
        for q, tq in zip(scores, truth, strict=True)
        if not tq
    ]
    return sum(1.0 if p > q else 0.5 if p == q else 0.0 for p, q in pairs) / len(pairs)


def _alpha_by_coincidences(units: list[list[float]]) -> float:
    # Krippendorff's coincidence matrix over the values, interval metric δ² = (c − k)²
    units = [u for u in units if len(u) >= 2]
    values = sorted({v for u in units for v in u})
    o = {(c, k): 0.0 for c in values for k in values}
    for u in units:
        m = len(u)
        for i, j in itertools.permutations(range(m), 2):
            o[(u[i], u[j])] += 1 / (m - 1)
    n_c = {c: sum(o[(c, k)] for k in values) for c in values}
    n = sum(n_c.values())
    d_o = sum(o[(c, k)] * (c - k) ** 2 for c in values for k in values) / n
    d_e = sum(n_c[c] * n_c[k] * (c - k) ** 2 for c in values for k in values) / (n * (n - 1))
    return 1 - d_o / d_e


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_kappa_auc_alpha_and_spearman_equal_independent_computations(seed: int) -> None:
    rng = random.Random(seed)
    judged = [rng.randint(0, 1) for _ in range(40)]
    truth = [j if rng.random() < 0.75 else 1 - j for j in judged]
    assert cohen_kappa(judged, truth) == pytest.approx(_kappa_from_table(judged, truth))
    scores = [rng.choice([20.0, 40.0, 60.0, 75.0, 90.0, 100.0]) for _ in range(40)]  # many ties
    assert auc(scores, truth) == pytest.approx(_auc_by_pairs(scores, truth))
    units = [[float(rng.randint(1, 5)) for _ in range(rng.randint(1, 4))] for _ in range(30)]
    assert krippendorff_interval(units) == pytest.approx(_alpha_by_coincidences(units))
    x = [rng.random() for _ in range(20)]
    y = [v + rng.random() for v in x]
    from scipy.stats import spearmanr

    assert spearman(x, y) == pytest.approx(float(spearmanr(x, y).statistic))


def test_known_values() -> None:
    assert cohen_kappa([1, 1, 0, 0], [1, 1, 0, 0]) == 1.0
    assert cohen_kappa([1, 0, 1, 0], [0, 1, 0, 1]) == -1.0
    assert cohen_kappa([1, 1, 1, 1], [1, 1, 1, 1]) is None  # chance agreement is total: undefined
    assert auc([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1]) == 1.0
    assert auc([1.0, 1.0, 1.0, 1.0], [0, 1, 0, 1]) == 0.5
    assert auc([1.0, 2.0], [1, 1]) is None
    assert krippendorff_interval([[3.0, 3.0], [5.0, 5.0], [1.0, 1.0]]) == 1.0  # the judge agrees with itself
    # Krippendorff's own interval example (2011, "Computing Krippendorff's alpha", reliability data
    # with missing values; interval α = 0.849)
    data = [
        [1, 1, None, 1],
        [2, 2, 3, 2],
        [3, 3, 3, 3],
        [3, 3, 3, 3],
        [2, 2, 2, 2],
        [1, 2, 3, 4],
        [4, 4, 4, 4],
        [1, 1, 2, 1],
        [2, 2, 2, 2],
        [None, 5, 5, 5],
        [None, None, 1, 1],
        [None, None, 3, None],
    ]
    units = [[float(v) for v in u if v is not None] for u in data]
    assert krippendorff_interval(units) == pytest.approx(0.849, abs=0.001)
    assert best_threshold([10.0, 50.0, 70.0, 90.0], [0, 0, 1, 1]) == (70.0, 1.0)


def _row(cid: str, state: str, composite: float, repeats: list[int]) -> ConversationVerdict:
    crit = CriterionResult(
        criterion="goal_achievement",
        weight=100,
        status="scored",
        value=float(sorted(repeats)[len(repeats) // 2]),
        contribution=0.0,
        repeats=[CriterionScore(status="scored", score=s) for s in repeats],
    )
    return ConversationVerdict(
        record=ConversationRecord(conversation_id=cid, config="c", scenario=cid),
        judge="scripted/heuristic",
        heuristic=True,
        verdict=Verdict(
            composite=composite,
            verdict=state,
            partial=False,
            unscored=[],
            missing=[],
            criteria=[crit],
            gates=[],
        ),
    )


def test_states_apart_and_disagreements_and_rewards() -> None:
    rows = [
        _row("r.c.a.0", "pass", 95.0, [5, 5]),
        _row("r.c.b.0", "pass", 90.0, [4, 5]),
        _row("r.c.c.0", "fail", 20.0, [1, 2]),
        _row("r.c.d.0", "pass", 88.0, [5, 4]),  # labelled fail by reward: a disagreement
        _row("r.c.e.0", "error", 0.0, [1, 1]),  # the agent broke: set apart, not a disagreement
        _row("r.c.f.0", "warn", 60.0, [3, 3]),
    ]
    labels = {
        "r.c.a.0": LabelRecorded(conversation_id="r.c.a.0", verdict="pass", criteria={"goal_achievement": 5}),
        "r.c.b.0": LabelRecorded(conversation_id="r.c.b.0", verdict="pass", criteria={"goal_achievement": 4}),
        "r.c.c.0": LabelRecorded(conversation_id="r.c.c.0", verdict="fail", criteria={"goal_achievement": 1}),
        "r.c.d.0": LabelRecorded(conversation_id="r.c.d.0", reward=0.2, note="wrong slot"),
        "r.c.e.0": LabelRecorded(conversation_id="r.c.e.0", verdict="fail"),
        "r.c.f.0": LabelRecorded(conversation_id="r.c.f.0", reward=0.9),
    }
    c = calibrate(["r"], rows, labels, rubric_version="v1", pass_at=75.0)
    assert (c.labelled, c.compared, c.set_apart) == (6, 5, {"error": 1})
    assert c.confusion == {
        "pass": {"pass": 2, "fail": 1},
        "warn": {"pass": 1, "fail": 0},
        "fail": {"pass": 0, "fail": 1},
    }
    judged, truth = [1, 1, 0, 1, 0], [1, 1, 0, 0, 1]
    assert c.kappa.value == pytest.approx(round(_kappa_from_table(judged, truth), 4))
    assert c.accuracy.value == pytest.approx(0.6)
    assert c.kappa.low is not None and c.kappa.low <= c.kappa.value <= c.kappa.high
    assert [d.conversation_id for d in c.disagreements] == ["r.c.d.0", "r.c.f.0"]  # biggest gap first
    assert c.disagreements[0].conversation_id == "r.c.d.0" and c.disagreements[0].note == "wrong slot"
    assert calibration_data(c)["disagreements"][0]["explain"] == "polygon explain r.c.d.0"
    [goal] = c.criteria
    assert goal.labelled == 3 and goal.spearman == pytest.approx(1.0)
    assert goal.calls_with_repeats == 6 and goal.repeats_alpha == pytest.approx(
        round(_alpha_by_coincidences([[5, 5], [4, 5], [1, 2], [5, 4], [1, 1], [3, 3]]), 4)
    )
