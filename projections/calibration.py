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
- the calls where judge and label disagree most, with their ``explain`` command.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import msgspec
import numpy as np

from polygon.events import LabelRecorded
from polygon.projections.verdicts import ConversationVerdict
from polygon.texttable import LEFT, RIGHT, table

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
    explain: str


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
            explain=f"polygon explain {r.record.conversation_id}",
        )
        for _, r, y, lab in scored[:top]
    ]


def calibration_lines(c: Calibration) -> Iterator[str]:
    """The calibration as text a reader takes in at a glance."""
    judge = f"{c.judge} (heuristic baseline — not a model's judgement)" if c.heuristic else c.judge
    yield f"Calibration · runs {', '.join(c.runs)} · rubric {c.rubric_version} · judge: {judge}"
    apart = ", ".join(f"{k} {v}" for k, v in c.set_apart.items()) or "none"
    yield f"{c.labelled} labelled calls; {c.compared} compared (verdict pass/warn/fail); set apart: {apart}"
    if c.compared == 0:
        yield "Nothing to compare: label calls with `polygon label` or `polygon labels import`."
        return
    yield ""
    yield "            label pass  label fail"
    for state in AGREEING:
        row = c.confusion[state]
        yield f"  {state:<10}{row['pass']:>10}{row['fail']:>12}"
    yield "  (agreement counts a verdict as pass only when its state is pass)"
    yield ""
    if c.one_class:
        yield (
            f"  Every compared label is {c.one_class}: κ, AUC and a best threshold need labels of "
            "both classes (label some calls of the other); accuracy alone is shown."
        )
    yield f"  Cohen's κ    {_iv(c.kappa)}   {_kappa_words(c.kappa.value)}"
    yield f"  accuracy     {_iv(c.accuracy)}"
    yield f"  AUC          {_iv(c.auc)}   {_auc_words(c.auc.value)}"
    if c.best_threshold is not None:
        yield (
            f"  pass threshold agreeing best with the labels: composite ≥ {c.best_threshold:g} "
            f"(κ {c.best_threshold_kappa:.2f}); the rubric passes at ≥ {c.pass_at:g}"
        )
    shown = [a for a in c.criteria if a.labelled or a.calls_with_repeats]
    if not shown:
        yield "  criteria: no labelled criterion scores, and one judge repeat a call (α needs --repeats ≥ 2)"
    else:
        yield ""
        yield from table(
            [
                ("criterion", LEFT),
                ("Spearman ρ", RIGHT),
                ("n", RIGHT),
                ("α repeats", RIGHT),
                ("calls", RIGHT),
            ],
            (
                [
                    a.criterion,
                    "—" if a.spearman is None else f"{a.spearman:+.2f}",
                    str(a.labelled),
                    "—" if a.repeats_alpha is None else f"{a.repeats_alpha:.2f}",
                    str(a.calls_with_repeats),
                ]
                for a in shown
            ),
            indent="  ",
        )
        yield "  (ρ: judge's median against labelled scores; α: the judge against itself across repeats)"
    if c.disagreements:
        yield ""
        yield "Where judge and labels disagree most:"
        for d in c.disagreements:
            note = f" — {d.note}" if d.note else ""
            yield f"  {d.conversation_id}: judged {d.verdict} ({d.composite:.1f}), labelled {d.label}{note}"
            yield f"      {d.explain}"


def _iv(v: Interval) -> str:
    if v.value is None:
        return "—  (undefined: one class only)"
    if v.low is None or v.high is None:
        return f"{v.value:.2f}"
    return f"{v.value:.2f} [{v.low:.2f}, {v.high:.2f}]"


def _kappa_words(k: float | None) -> str:
    if k is None:
        return ""
    for limit, words in (
        (0.2, "slight or no agreement"),
        (0.4, "fair"),
        (0.6, "moderate"),
        (0.8, "substantial"),
    ):
        if k < limit:
            return f"({words})"
    return "(almost perfect)"


def _auc_words(a: float | None) -> str:
    if a is None:
        return ""
    if a < 0.6:
        return "(the composite separates passing from failing calls no better than chance)"
    if a < 0.8:
        return "(some separation)"
    return "(good separation)"
