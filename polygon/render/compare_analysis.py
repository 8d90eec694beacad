"""The comparison's written analysis: systematic differences in words.

Made here, not in the projection: the projection holds the numbers (scorecards, paired
differences, the matrix, divergences) and this module says what they mean, deterministically,
so text, Markdown, JSON and the web page all show the same sentences.
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from polygon.projections import Comparison, PairedDifference, Rate, Scorecard


def comparison_analysis(c: Comparison) -> list[str]:
    """The analysis lines, the baseline (first side) against each other side, then divergences."""
    if len(c.scorecards) < 2:
        return []
    base = c.scorecards[0]
    lines: list[str] = []
    for card, diff in zip(c.scorecards[1:], c.differences, strict=True):
        lines += _versus(base, card, diff)
    splits = c.divergences
    causes: dict[str, int] = defaultdict(int)
    turns = [d.divergence.turn for d in splits if d.divergence is not None]
    for d in splits:
        causes[d.divergence.reason if d.divergence else "identical"] += 1
    if splits:
        where = f", first at turn {min(turns)}, median turn {statistics.median(turns):g}" if turns else ""
        lines.append(
            "Calls part by " + ", ".join(f"{k} {v}" for k, v in sorted(causes.items())) + where + "."
        )
    lost = [r.scenario for r in c.matrix if r.incomparable]
    if lost:
        lines.append(f"{len(lost)} scenario(s) incomparable (missing in a configuration): {', '.join(lost)}.")
    return lines


def _pct(rate: Rate) -> str:
    if rate.rate is None:
        return "n/a"
    return f"{rate.rate * 100:.0f}%"


def _states(card: Scorecard) -> str:
    parts = [
        f"{n} {what}"
        for n, what in (
            (card.errored, "errored (the agent could not complete the call)"),
            (card.inconclusive, "inconclusive"),
            (card.simulator_errors, "simulator errors (not the agent's; left out)"),
        )
        if n
    ]
    return f"{card.label}: " + ", ".join(parts) + "." if parts else ""


def _versus(a: Scorecard, b: Scorecard, diff: PairedDifference) -> list[str]:
    out = [line for line in (_states(a), _states(b)) if line]
    if diff.mean_difference is not None and a.composite_mean is not None and b.composite_mean is not None:
        noise = _noise(a, b, diff)
        out.append(
            f"{b.label} vs {a.label}: mean composite {b.composite_mean:.1f} vs {a.composite_mean:.1f} "
            f"({diff.mean_difference:+.1f} over {diff.pairs} paired calls, 95% CI "
            f"[{diff.low:+.1f}, {diff.high:+.1f}]: {noise})."
        )
    out += _moved(a, b)
    gates = [
        f"{g} {a.gate_failures.get(g, 0)} → {b.gate_failures.get(g, 0)}"
        for g in sorted(set(a.gate_failures) | set(b.gate_failures))
        if a.gate_failures.get(g, 0) != b.gate_failures.get(g, 0)
    ]
    if gates:
        out.append("Gate failures: " + ", ".join(gates) + ".")
    probes = [
        f"{p} {_pct(a.probes[p])} → {_pct(b.probes[p])}"
        for p in sorted(a.probes.keys() & b.probes.keys())
        if a.probes[p].rate != b.probes[p].rate
    ]
    if probes:
        out.append("Probe compliance changed: " + ", ".join(probes) + ".")
    if a.loops != b.loops:
        out.append(f"Loops: {a.loops} → {b.loops}.")
    return out


def _noise(a: Scorecard, b: Scorecard, diff: PairedDifference) -> str:
    """The composite difference against the noise, and what it hides: other verdicts, other gates.

    Equal composites can hide a call that fails a gate (a gate fails the call, not the score).
    """
    if not diff.within_noise:
        return "larger than run-to-run noise"
    counts = (("pass", a.passed, b.passed), ("warn", a.warned, b.warned), ("fail", a.failed, b.failed))
    states = [f"{what} {x} → {y}" for what, x, y in counts if x != y]
    gates = (sum(a.gate_failures.values()), sum(b.gate_failures.values()))
    if gates[0] != gates[1]:
        states.append(f"gate failures {gates[0]} → {gates[1]}")
    if not states:
        return "within run-to-run noise"
    return "within run-to-run noise for the composite, yet the verdicts differ: " + ", ".join(states)


def _moved(a: Scorecard, b: Scorecard) -> list[str]:
    """The criteria (by at least 0.25) and caller types (by at least 5) that moved most, three each."""
    out = []
    moved = sorted(
        ((b.criteria.get(c, 0) - a.criteria.get(c, 0), c) for c in a.criteria),
        key=lambda x: (-abs(x[0]), x[1]),
    )
    moved = [(d, c) for d, c in moved if abs(d) >= 0.25][:3]
    if moved:
        out.append("Criteria that moved most: " + ", ".join(f"{c} {d:+.2f}" for d, c in moved) + ".")
    types = sorted(
        ((b.by_caller_type.get(t, 0) - v, t) for t, v in a.by_caller_type.items() if t in b.by_caller_type),
        key=lambda x: (-abs(x[0]), x[1]),
    )
    types = [(d, t) for d, t in types if abs(d) >= 5][:3]
    if types:
        out.append("Caller types that moved most: " + ", ".join(f"{t} {d:+.1f}" for d, t in types) + ".")
    return out
