"""How far a judge agrees with people: verdicts and composites against human labels.

Pure functions over verdict rows and labels (no I/O):

- the confusion matrix of verdict states (pass, warn, fail) against labels (pass, fail);
  for agreement a verdict counts as ``pass`` only when its state is pass (warn and fail are
  "not pass"); error, inconclusive, simulator_error and unjudged calls are counted apart,
  never as disagreements;
- Cohen's κ and accuracy, each with a bootstrap 95% interval over the labelled calls;
- the AUC of the composite against the binary label (the chance that a passing call's
  composite is above a failing one's; ties count half);
- Spearman's ρ between the judge's criterion scores (median over repeats) and labelled
  criterion scores;
- Krippendorff's α (interval) of the judge with itself across repeats, per criterion;
- the pass threshold on the composite that agrees best with the labels (highest κ), beside
  the rubric's own;
- the calls where judge and label disagree most (the renderers add their ``explain`` command).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence

import msgspec

from polygon.events import LabelRecorded
from polygon.projections.verdicts import ConversationVerdict

BOOTSTRAP_SEED = 20261130
RESAMPLES = 2000
AGREEING = ("pass", "warn", "fail")
"""Verdict states a label can agree or disagree with."""


class Interval(msgspec.Struct, frozen=True, kw_only=True):
    """A figure with its bootstrap 95% interval (None when it cannot be computed)."""

    value: float | None
    low: float | None = None
    high: float | None = None


class CriterionAgreement(msgspec.Struct, frozen=True, kw_only=True):
    """One criterion: the judge against labels, and the judge against itself."""

    criterion: str
    labelled: int
    """Calls with both a labelled score and a judge score for it."""
    spearman: float | None
    repeats_alpha: float | None
    """Krippendorff's α (interval) across the judge's repeats; None with fewer than 2 repeats."""
    calls_with_repeats: int


class Disagreement(msgspec.Struct, frozen=True, kw_only=True):
    """A call where the judge and the label part most."""

    conversation_id: str
    label: str
    verdict: str
    composite: float
    by: str
    note: str


class Calibration(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``polygon calibrate`` shows."""

    runs: list[str]
    rubric_version: str
    judge: str
    heuristic: bool
    labelled: int
    """Labelled calls of these runs (a verdict label, a reward or criterion scores)."""
    compared: int
    """Labelled calls whose verdict state is pass, warn or fail (the ones agreement uses)."""
    set_apart: dict[str, int]
    """State → labelled calls not compared (error, inconclusive, simulator_error, unjudged)."""
    confusion: dict[str, dict[str, int]]
    """Verdict state → label → calls."""
    kappa: Interval
    accuracy: Interval
    auc: Interval
    pass_at: float
    best_threshold: float | None
    best_threshold_kappa: float | None
    criteria: list[CriterionAgreement]
    disagreements: list[Disagreement]
    reward_pass_at: float
    one_class: str = ""
    """``pass`` or ``fail`` when every compared label is that one: κ, AUC and a best
    threshold then measure nothing (they are left undefined, and the text says why)."""


def label_of(label: LabelRecorded, reward_pass_at: float) -> str:
    """``pass`` or ``fail`` from the verdict label, else from the reward; empty when neither."""
    if label.verdict in ("pass", "fail"):
        return label.verdict
    if label.reward is not None:
        return "pass" if label.reward >= reward_pass_at else "fail"
    return ""


def calibrate(
    runs: Sequence[str],
    rows: Sequence[ConversationVerdict],
    labels: dict[str, LabelRecorded],
    *,
    rubric_version: str,
    pass_at: float,
    reward_pass_at: float = 0.5,
    top: int = 5,
) -> Calibration:
    """The judge against the labels of ``rows`` (one label per call: the latest)."""
    by_call = {r.record.conversation_id: r for r in rows}
    labelled = [(by_call[c], lab) for c, lab in sorted(labels.items()) if c in by_call]
    judges = sorted({r.judge for r, _ in labelled if r.judge})
    binary = [(r, label_of(lab, reward_pass_at), lab) for r, lab in labelled if label_of(lab, reward_pass_at)]
    compared = [(r, y, lab) for r, y, lab in binary if r.verdict and r.verdict.verdict in AGREEING]
    set_apart = Counter(
        r.verdict.verdict if r.verdict else "unjudged"
        for r, _y, _l in binary
        if not (r.verdict and r.verdict.verdict in AGREEING)
    )
    confusion: dict[str, dict[str, int]] = {s: {"pass": 0, "fail": 0} for s in AGREEING}
    for r, y, _ in compared:
        assert r.verdict is not None
        confusion[r.verdict.verdict][y] += 1
    judged = [1 if r.verdict and r.verdict.verdict == "pass" else 0 for r, _, _ in compared]
    truth = [1 if y == "pass" else 0 for _, y, _ in compared]
    composites = [r.verdict.composite if r.verdict else 0.0 for r, _, _ in compared]
    classes = {y for _, y, _ in compared}
    one_class = classes.pop() if len(classes) == 1 else ""
    # With one class, κ is 0 whatever the judge says and any threshold "agrees best": say so.
    best, best_k = (None, None) if one_class else best_threshold(composites, truth)
    undefined = Interval(value=None)
    return Calibration(
        runs=list(runs),
        rubric_version=rubric_version,
        judge=", ".join(judges),
        heuristic=any(r.heuristic for r, _ in labelled),
        labelled=len(labelled),
        compared=len(compared),
        set_apart=dict(sorted(set_apart.items())),
        confusion=confusion,
        kappa=undefined if one_class else _with_interval(cohen_kappa, judged, truth),
        accuracy=_with_interval(accuracy, judged, truth),
        auc=undefined if one_class else _with_interval(auc, composites, truth),
        pass_at=pass_at,
        best_threshold=best,
        best_threshold_kappa=best_k,
        criteria=_criteria(labelled),
        disagreements=_disagreements(compared, top),
        reward_pass_at=reward_pass_at,
        one_class=one_class,
    )


# ---- the statistics --------------------------------------------------------------------------


def cohen_kappa(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Cohen's κ of two binary raters (None when chance agreement is total)."""
    n = len(a)
    if n == 0:
        return None
    observed = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    pa, pb = sum(a) / n, sum(b) / n
    expected = pa * pb + (1 - pa) * (1 - pb)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def accuracy(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Share of calls where both say the same."""
    return sum(1 for x, y in zip(a, b, strict=True) if x == y) / len(a) if a else None


def auc(scores: Sequence[float], truth: Sequence[float]) -> float | None:
    """Area under the ROC curve of ``scores`` for ``truth`` (1 = positive), ties counting half."""
    pos = [s for s, t in zip(scores, truth, strict=True) if t]
    neg = [s for s, t in zip(scores, truth, strict=True) if not t]
    if not pos or not neg:
        return None
    ranks = _ranks([*pos, *neg])
    return (sum(ranks[: len(pos)]) - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's ρ (Pearson over ranks; None with fewer than 3 pairs or no spread)."""
    if len(x) < 3:
        return None
    rx, ry = _ranks(x), _ranks(y)
    if len(set(rx)) < 2 or len(set(ry)) < 2:
        return None
    import numpy as np  # on first use: ~0.1 CPU s of calibrate's start (and leaderboard's, via compare)

    return float(np.corrcoef(rx, ry)[0, 1])


def krippendorff_interval(units: Sequence[Sequence[float]]) -> float | None:
    """Krippendorff's α with the interval metric, from the coincidence of values within units.

    Units with fewer than two values are not pairable and are left out.
    """
    pairable = [list(u) for u in units if len(u) >= 2]
    n = sum(len(u) for u in pairable)
    if n < 2:
        return None
    within = sum(sum((a - b) ** 2 for a in u for b in u) / (len(u) - 1) for u in pairable)
    values = [v for u in pairable for v in u]
    between = sum((a - b) ** 2 for a in values for b in values)
    if between == 0:
        return None
    return 1 - (n - 1) * within / between


def best_threshold(composites: Sequence[float], truth: Sequence[float]) -> tuple[float | None, float | None]:
    """The pass threshold on the composite with the highest κ (the lowest such threshold)."""
    best: tuple[float | None, float | None] = (None, None)
    for t in sorted(set(composites)):
        k = cohen_kappa([1 if c >= t else 0 for c in composites], truth)
        if k is not None and (best[1] is None or k > best[1] + 1e-12):
            best = (round(t, 2), round(k, 4))
    return best


def _with_interval(
    figure: Callable[[Sequence[float], Sequence[float]], float | None], a: Sequence[float], b: Sequence[float]
) -> Interval:
    value = figure(a, b)
    if value is None or len(a) < 2:
        return Interval(value=None if value is None else round(value, 4))
    import numpy as np

    rng = np.random.default_rng(BOOTSTRAP_SEED)
    draws = rng.integers(0, len(a), size=(RESAMPLES, len(a)))
    got = [figure([a[i] for i in d], [b[i] for i in d]) for d in draws]
    kept = [g for g in got if g is not None]
    if len(kept) < RESAMPLES // 2:
        return Interval(value=round(value, 4))
    low, high = np.percentile(kept, [2.5, 97.5])
    return Interval(value=round(value, 4), low=round(float(low), 4), high=round(float(high), 4))


def _criteria(labelled: Sequence[tuple[ConversationVerdict, LabelRecorded]]) -> list[CriterionAgreement]:
    names = sorted({c.criterion for r, _ in labelled if r.verdict for c in r.verdict.criteria})
    out = []
    for name in names:
        pairs: list[tuple[float, float]] = []
        units: list[list[float]] = []
        for r, lab in labelled:
            found = next((c for c in r.verdict.criteria if c.criterion == name), None) if r.verdict else None
            if found is None:
                continue
            scored = [float(s.score) for s in found.repeats if s.status == "scored" and s.score is not None]
            units.append(scored)
            if name in lab.criteria and scored:
                pairs.append((statistics.median(scored), float(lab.criteria[name])))
        rho = spearman([p[0] for p in pairs], [p[1] for p in pairs])
        alpha = krippendorff_interval(units)
        out.append(
            CriterionAgreement(
                criterion=name,
                labelled=len(pairs),
                spearman=None if rho is None or math.isnan(rho) else round(rho, 4),
                repeats_alpha=None if alpha is None else round(alpha, 4),
                calls_with_repeats=sum(1 for u in units if len(u) >= 2),
            )
        )
    return out


def _disagreements(
    compared: Sequence[tuple[ConversationVerdict, str, LabelRecorded]], top: int
) -> list[Disagreement]:
    scored = []
    for r, y, lab in compared:
        assert r.verdict is not None
        judged_pass = r.verdict.verdict == "pass"
        if judged_pass == (y == "pass"):
            continue
        gap = r.verdict.composite if y == "fail" else 100 - r.verdict.composite
        scored.append((gap, r, y, lab))
    scored.sort(key=lambda x: (-x[0], x[1].record.conversation_id))
    return [
        Disagreement(
            conversation_id=r.record.conversation_id,
            label=y,
            verdict=r.verdict.verdict if r.verdict else "",
            composite=r.verdict.composite if r.verdict else 0.0,
            by=lab.by,
            note=lab.note,
        )
        for _, r, y, lab in scored[:top]
    ]
