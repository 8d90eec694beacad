"""Rendering a comparison (text for people; ``--json`` uses the structs directly)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from polygon.events import to_builtins
from polygon.lint import AXES as LINT_AXES
from polygon.projections.compare import Comparison, Scorecard
from polygon.projections.probes import Rate


def _num(value: float | None, fmt: str = "{:.1f}") -> str:
    return "—" if value is None else fmt.format(value)


def _rate(rate: Rate | None) -> str:
    if rate is None or rate.rate is None:
        return "n/a"
    return f"{rate.rate * 100:.0f}% [{rate.low * 100:.0f}–{rate.high * 100:.0f}] n={rate.applicable}"  # type: ignore[operator]


def comparison_lines(c: Comparison, *, top: int = 0) -> Iterator[str]:
    """The comparison screen as text; ``top`` limits the matrix and divergences (0: all)."""
    labels = [s.label for s in c.sides]
    width = max(10, *(len(x) + 2 for x in labels))
    yield f"Comparison · rubric {c.rubric_version} · judge: {c.judge}"
    yield "Shown: the newest rubric every side shares, each call's latest pass · choose with --rubric"
    for difference in c.mixed:
        yield f"MIXED SETTINGS (--allow-mixed): {difference}"
    yield ""
    yield "Scorecards (mean and CI over graded calls: pass, warn, fail)"
    head = (
        f"{'calls':>6}{'mean':>7}{'95% CI':>16}{'pass':>6}{'warn':>6}{'fail':>6}{'error':>6}{'incon':>6}"
        f"{'simerr':>7}{'loops':>7}{'p95 ms':>8}  pass^k"
    )
    yield f"{'':<{width}}{head}"
    for s in c.scorecards:
        ci = f"[{_num(s.composite_low)}, {_num(s.composite_high)}]"
        ks = " ".join(f"^{k}={v:.2f}" for k, v in s.pass_hat_k.items())
        latency = f"{s.latency_p95_ms:.0f}" if s.latency_p95_ms is not None else "—"
        yield (
            f"{s.label:<{width}}{s.conversations:>6}{_num(s.composite_mean):>7}{ci:>16}{s.passed:>6}"
            f"{s.warned:>6}{s.failed:>6}{s.errored:>6}{s.inconclusive:>6}{s.simulator_errors:>7}"
            f"{s.loops:>7}{latency:>8}  {ks}"
        )
    for s in c.scorecards:
        if s.flaky:
            flaky = ", ".join(s.flaky)
            yield f"  {s.label}: flaky scenarios (trials disagree): {flaky}; flip rate {s.flip_rate:.0%}"
    yield from _prompt_lint(c, width)
    yield from _table("Criteria (mean score 1–5)", c, lambda s: s.criteria, "{:.2f}", width)
    yield from _table("By caller type (mean composite)", c, lambda s: s.by_caller_type, "{:.1f}", width)
    yield from _table("By difficulty (mean composite)", c, lambda s: s.by_difficulty, "{:.1f}", width)
    yield from _gates(c, width)
    yield from _probes(c)
    yield ""
    yield "Scenarios by spread (best − worst configuration)"
    yield f"{'scenario':<24}" + "".join(f"{x:>{width}}" for x in labels) + f"{'spread':>9}"
    rows = c.matrix[:top] if top else c.matrix
    for r in rows:
        spread = "incomparable" if r.incomparable else f"{r.spread:.1f}"
        yield f"{r.scenario:<24}" + "".join(f"{_num(r.values[x]):>{width}}" for x in labels) + f"{spread:>9}"
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
    for line in c.analysis:
        yield f"  - {line}"


def _table(
    title: str, c: Comparison, pick: Callable[[Scorecard], dict[str, float]], fmt: str, width: int
) -> Iterator[str]:
    keys = sorted({k for s in c.scorecards for k in pick(s)})
    if not keys:
        return
    yield ""
    yield title
    for k in keys:
        cells = "".join(f"{(fmt.format(pick(s)[k]) if k in pick(s) else '—'):>{width}}" for s in c.scorecards)
        yield f"  {k:<22}{cells}"


def _prompt_lint(c: Comparison, width: int) -> Iterator[str]:
    """Each side's prompt lint beside its behaviour: the axis, and the change from the baseline."""
    if not c.prompt_lint:
        return
    base = c.prompt_lint.get(c.sides[0].label, {})
    axes = [a for a in LINT_AXES if any(a in v for v in c.prompt_lint.values())]
    yield ""
    yield "Prompt lint (0–1, higher is worse; change against the baseline; `polygon lint` shows the spans)"
    yield f"{'':<{width}}" + "".join(f"{a.replace('_attention', ''):>15}" for a in axes)
    for side in c.sides:
        scores = c.prompt_lint.get(side.label)
        if scores is None:
            yield f"{side.label:<{width}}  (not linted)"
            continue
        cells = []
        for a in axes:
            value = scores.get(a)
            delta = (
                "" if value is None or side is c.sides[0] or a not in base else f" ({value - base[a]:+.2f})"
            )
            cells.append(f"{'—' if value is None else f'{value:.2f}'}{delta}")
        yield f"{side.label:<{width}}" + "".join(f"{cell:>15}" for cell in cells)


def _gates(c: Comparison, width: int) -> Iterator[str]:
    gates = sorted({g for s in c.scorecards for g in s.gate_failures})
    if gates:
        yield ""
        yield "Gate failures"
        for g in gates:
            yield f"  {g:<22}" + "".join(f"{s.gate_failures.get(g, 0):>{width}}" for s in c.scorecards)


def _probes(c: Comparison) -> Iterator[str]:
    probes = sorted({p for s in c.scorecards for p in s.probes})
    if not probes:
        return
    yield ""
    detector = " (scripted/detector: deterministic detectors, not a model)" if c.heuristic else ""
    yield f"Probe compliance, Wilson 95%{detector}"
    for p in probes:
        yield f"  {p}"
        for s in c.scorecards:
            yield f"      {s.label:<16}{_rate(s.probes.get(p))}"


def comparison_json(c: Comparison) -> str:
    """The comparison as JSON (deterministic)."""
    return json.dumps(to_builtins(c), sort_keys=True, ensure_ascii=False, indent=2) + "\n"
