"""Rendering a comparison: text for people, Markdown for a pull request, JSON for tools.

The projection holds no sentences: who judged, the settings the sides differ in and the
written analysis (compare_analysis) are said here, and JSON writes them under the keys it
always had.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from polygon.events import to_builtins
from polygon.lint import AXES as LINT_AXES
from polygon.projections import Comparison, MixedSetting, PairedDifference, Rate, Scorecard
from polygon.render.compare_analysis import comparison_analysis
from polygon.render.phrases import HEURISTIC_LABEL
from polygon.render.report import markdown_table
from polygon.texttable import LEFT, RIGHT, table


def comparison_judge(c: Comparison) -> str:
    """Who judged: the heuristic baseline said as such, else the judges' names."""
    return HEURISTIC_LABEL if c.heuristic and c.judges == ["scripted/heuristic"] else ", ".join(c.judges)


def mixed_setting_line(m: MixedSetting) -> str:
    """One setting the sides differ in, each side with its values (``—``: none recorded)."""
    return f"{m.setting}: " + "; ".join(f"{side} {', '.join(v) or '—'}" for side, v in m.values.items())


def _num(value: float | None, fmt: str = "{:.1f}") -> str:
    return "—" if value is None else fmt.format(value)


def _rate(rate: Rate | None) -> str:
    if rate is None or rate.rate is None:
        return "n/a"
    return f"{rate.rate * 100:.0f}% [{rate.low * 100:.0f}–{rate.high * 100:.0f}] n={rate.applicable}"  # type: ignore[operator]


SCORECARD_COLUMNS = [
    ("", LEFT),
    ("calls", RIGHT),
    ("mean", RIGHT),
    ("95% CI", RIGHT),
    ("pass", RIGHT),
    ("warn", RIGHT),
    ("fail", RIGHT),
    ("error", RIGHT),
    ("incon", RIGHT),
    ("simerr", RIGHT),
    ("loops", RIGHT),
    ("p95 ms", RIGHT),
    ("pass^k", LEFT),
]


def scorecard_cells(s: Scorecard) -> list[str]:
    """One side's scorecard cells, in :data:`SCORECARD_COLUMNS` order (p95 over the common calls)."""
    return [
        s.label,
        str(s.conversations),
        _num(s.composite_mean),
        f"[{_num(s.composite_low)}, {_num(s.composite_high)}]",
        str(s.passed),
        str(s.warned),
        str(s.failed),
        str(s.errored),
        str(s.inconclusive),
        str(s.simulator_errors),
        str(s.loops),
        _num(s.latency_common_p95_ms, "{:.0f}"),
        " ".join(f"^{k}={v:.2f}" for k, v in s.pass_hat_k.items()),
    ]


def latency_note(c: Comparison) -> str | None:
    """Over which calls the p95 column is taken, and each side's own figure beside it."""
    if all(s.latency_p95_ms is None for s in c.scorecards):
        return None
    own = "; ".join(
        f"{s.label} {_num(s.latency_p95_ms, '{:.0f}')} over {s.latency_calls} of {s.conversations} calls"
        for s in c.scorecards
    )
    common = c.scorecards[0].latency_common_calls if c.scorecards else 0
    return (
        f"p95 ms: median of each call's p95 agent turn latency over the {common} (scenario, trial) calls "
        f"measured on every side (like with like); each side alone: {own}"
    )


def comparison_lines(c: Comparison, *, top: int = 0) -> Iterator[str]:
    """The comparison screen as text; ``top`` limits the matrix and divergences (0: all)."""
    labels = [s.label for s in c.sides]
    yield f"Comparison · rubric {c.rubric_version} · judge: {comparison_judge(c)}"
    yield f"Shown: each call's latest pass of rubric {c.rubric_version} · choose with --rubric"
    for difference in c.mixed:
        yield f"MIXED SETTINGS (--allow-mixed): {mixed_setting_line(difference)}"
    yield ""
    yield "Scorecards (mean and CI over graded calls: pass, warn, fail)"
    yield from table(SCORECARD_COLUMNS, (scorecard_cells(s) for s in c.scorecards))
    note = latency_note(c)
    if note:
        yield note
    for s in c.scorecards:
        if s.flaky:
            flaky = ", ".join(s.flaky)
            yield f"  {s.label}: flaky scenarios (trials disagree): {flaky}; flip rate {s.flip_rate:.0%}"
    yield from _prompt_lint(c)
    yield from _table("Criteria (mean score 1–5)", c, lambda s: s.criteria, "{:.2f}")
    yield from _table("By caller type (mean composite)", c, lambda s: s.by_caller_type, "{:.1f}")
    yield from _table("By difficulty (mean composite)", c, lambda s: s.by_difficulty, "{:.1f}")
    yield from _gates(c)
    yield from _probes(c)
    yield ""
    yield "Scenarios by spread (best − worst configuration)"
    rows = c.matrix[:top] if top else c.matrix
    yield from table(
        [("scenario", LEFT), *((x, RIGHT) for x in labels), ("spread", RIGHT)],
        (
            [
                r.scenario,
                *(_num(r.values[x]) for x in labels),
                "incomparable" if r.incomparable else f"{r.spread:.1f}",
            ]
            for r in rows
        ),
    )
    if top and len(c.matrix) > top:
        yield f"… {len(c.matrix) - top} more (polygon compare shows all)"
    yield ""
    yield "Where the calls part (first divergent turn)"
    order = {r.scenario: i for i, r in enumerate(c.matrix)}
    splits = sorted(c.divergences, key=lambda d: (order.get(d.scenario, 0), d.b))
    for d in splits[:top] if top else splits:
        if d.divergence is None:
            yield f"  {d.scenario}: {d.a} and {d.b} never part"
            continue
        v = d.divergence
        yield f"  {d.scenario}: turn {v.turn} ({v.speaker}), {v.reason}: {v.detail}"
        yield f"      {d.a}: {v.a_text or '(call over)'}"
        yield f"      {d.b}: {v.b_text or '(call over)'}"
    yield ""
    yield "Paired differences (bootstrap 95% CI over scenarios, fixed seed)"
    for p in c.differences:
        if p.mean_difference is None:
            yield f"  {p.b} − {p.a}: no scenario judged on both sides"
            continue
        mark = "within noise" if p.within_noise else "beyond noise"
        ci = f"[{p.low:+.1f}, {p.high:+.1f}]"
        yield f"  {p.b} − {p.a}: {p.mean_difference:+.1f} {ci} over {p.pairs} calls — {mark}"
    for p in c.differences:
        if p.excluded:
            left_out = ", ".join(f"{n} {state}" for state, n in p.excluded.items())
            yield f"  {p.b} − {p.a}: left out of the pairs (no graded verdict): {left_out}"
    yield ""
    yield "Analysis"
    for line in comparison_analysis(c):
        yield f"  - {line}"


def _table(
    title: str, c: Comparison, pick: Callable[[Scorecard], dict[str, float]], fmt: str
) -> Iterator[str]:
    keys = sorted({k for s in c.scorecards for k in pick(s)})
    if not keys:
        return
    yield ""
    yield title
    yield from table(
        [("", LEFT), *((s.label, RIGHT) for s in c.scorecards)],
        ([k, *(fmt.format(pick(s)[k]) if k in pick(s) else "—" for s in c.scorecards)] for k in keys),
        indent="  ",
    )


def _prompt_lint(c: Comparison) -> Iterator[str]:
    """Each side's prompt lint beside its behaviour: the axis, and the change from the baseline."""
    if not c.prompt_lint:
        return
    base = c.prompt_lint.get(c.sides[0].label, {})
    axes = [a for a in LINT_AXES if any(a in v for v in c.prompt_lint.values())]
    yield ""
    yield "Prompt lint (0–1, higher is worse; change against the baseline; `polygon lint` shows the spans)"
    rows = []
    for side in c.sides:
        scores = c.prompt_lint.get(side.label)
        if scores is None:
            rows.append([side.label, *("(not linted)" if i == 0 else "" for i in range(len(axes)))])
            continue
        cells = []
        for a in axes:
            value = scores.get(a)
            delta = (
                "" if value is None or side is c.sides[0] or a not in base else f" ({value - base[a]:+.2f})"
            )
            cells.append(f"{'—' if value is None else f'{value:.2f}'}{delta}")
        rows.append([side.label, *cells])
    yield from table([("", LEFT), *((a.replace("_attention", ""), RIGHT) for a in axes)], rows)


def _gates(c: Comparison) -> Iterator[str]:
    gates = sorted({g for s in c.scorecards for g in s.gate_failures})
    if gates:
        yield ""
        yield "Gate failures"
        yield from table(
            [("", LEFT), *((s.label, RIGHT) for s in c.scorecards)],
            ([g, *(str(s.gate_failures.get(g, 0)) for s in c.scorecards)] for g in gates),
            indent="  ",
        )


def _probes(c: Comparison) -> Iterator[str]:
    probes = sorted({p for s in c.scorecards for p in s.probes})
    if not probes:
        return
    yield ""
    detector = " (scripted/detector: deterministic detectors, not a model)" if c.heuristic else ""
    yield f"Probe compliance, Wilson 95%{detector}"
    width = max(len(s.label) for s in c.scorecards)
    for p in probes:
        yield f"  {p}"
        for s in c.scorecards:
            yield f"      {s.label:<{width}}  {_rate(s.probes.get(p))}"


def comparison_markdown(c: Comparison) -> str:
    """The comparison for a pull-request comment: scorecards, paired differences, analysis."""
    judge = comparison_judge(c)
    lines = [
        f"### Polygon comparison · rubric {c.rubric_version}",
        "",
        f"Judge: {judge} · baseline: `{c.sides[0].label}`" if c.sides else f"Judge: {judge}",
        "",
        *markdown_table(SCORECARD_COLUMNS, (scorecard_cells(s) for s in c.scorecards)),
    ]
    note = latency_note(c)
    if note:
        lines += ["", f"<sub>{note}</sub>"]
    if c.differences:
        lines += ["", "#### Paired differences (bootstrap 95% CI over scenarios)", ""]
        lines += markdown_table(
            [("change", LEFT), ("mean", RIGHT), ("95% CI", RIGHT), ("calls", RIGHT), ("", LEFT)],
            (_difference_cells(p) for p in c.differences),
        )
    spread = [r for r in c.matrix if r.incomparable or (r.spread or 0) > 0][:10]
    if spread:
        labels = [s.label for s in c.sides]
        lines += ["", "#### Scenarios by spread (top 10)", ""]
        lines += markdown_table(
            [("scenario", LEFT), *((x, RIGHT) for x in labels), ("spread", RIGHT)],
            (
                [
                    r.scenario,
                    *(_num(r.values[x]) for x in labels),
                    "incomparable" if r.incomparable else f"{r.spread:.1f}",
                ]
                for r in spread
            ),
        )
    analysis = comparison_analysis(c)
    if analysis:
        lines += ["", "#### Analysis", "", *(f"- {line}" for line in analysis)]
    return "\n".join(lines) + "\n"


def _difference_cells(p: PairedDifference) -> list[str]:
    if p.mean_difference is None:
        return [f"{p.b} − {p.a}", "—", "—", "0", "no scenario judged on both sides"]
    return [
        f"{p.b} − {p.a}",
        f"{p.mean_difference:+.1f}",
        f"[{p.low:+.1f}, {p.high:+.1f}]",
        str(p.pairs),
        "within noise" if p.within_noise else "beyond noise",
    ]


def comparison_json(c: Comparison) -> str:
    """The comparison as JSON (deterministic).

    The structs as they are, but the sentences made here are written where the public format
    has always had them: ``judge`` (not ``judges``), ``mixed`` as lines and ``analysis``. Keys
    are sorted, so the bytes are those of the days the projection stored the sentences.
    """
    data = to_builtins(c)
    del data["judges"]
    data["judge"] = comparison_judge(c)
    data["mixed"] = [mixed_setting_line(m) for m in c.mixed]
    data["analysis"] = comparison_analysis(c)
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
