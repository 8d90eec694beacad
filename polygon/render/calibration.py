"""Rendering the calibration projection (:mod:`polygon.projections.calibration`) for people and tools."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from polygon.events import to_builtins
from polygon.projections import AGREEING, Calibration, Interval
from polygon.texttable import LEFT, RIGHT, table


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
            yield f"      {_explain(d.conversation_id)}"


def _explain(conversation_id: str) -> str:
    """The command that shows why the judge gave a call its verdict."""
    return f"polygon explain {conversation_id}"


def calibration_data(c: Calibration) -> dict[str, Any]:
    """The calibration as plain data (``calibrate --json``), each disagreement with its ``explain``."""
    data: dict[str, Any] = to_builtins(c)
    for d in data["disagreements"]:
        d["explain"] = _explain(d["conversation_id"])
    return data


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
