"""Comparison of two or more configurations.

Scorecards, the scenario matrix by spread, paired differences with bootstrap intervals and
divergence points: numbers and ids only. The written analysis is made from them by
``polygon.render`` (compare_analysis).

Pure: built from the verdict rows, probe tables and conversation views the use case read
from the log. Bootstrap resampling uses a fixed seed, so a rebuild is byte-identical.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from math import comb

import msgspec

from polygon.compare import Divergence, find_divergence
from polygon.projections.probes import ProbeTable, Rate
from polygon.projections.report import call_latency, latency_measured, measured_latencies, scenario_trials
from polygon.projections.verdicts import ConversationVerdict
from polygon.score import GRADED, OUT_OF_SCORECARD
from polygon.transcript import ConversationView

BOOTSTRAP_SEED = 20261130
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_CHUNK = 1 << 16
"""Draws per chunk of resamples (whole resamples; at least one)."""


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One configuration under comparison."""

    label: str
    run_id: str
    config: str


class Scorecard(msgspec.Struct, frozen=True, kw_only=True):
    """One configuration's results."""

    label: str
    conversations: int
    judged: int
    composite_mean: float | None
    composite_low: float | None
    composite_high: float | None
    passed: int
    warned: int
    failed: int
    criteria: dict[str, float]
    by_caller_type: dict[str, float]
    by_difficulty: dict[str, float]
    probes: dict[str, Rate]
    loops: int
    gate_failures: dict[str, int]
    pass_hat_k: dict[str, float]
    errored: int = 0
    inconclusive: int = 0
    simulator_errors: int = 0
    flaky: list[str] = msgspec.field(default_factory=list)
    """Scenarios whose trials disagree (some passed, some did not)."""
    flip_rate: float = 0.0
    """Mean over scenarios of the share of trials that differ from the scenario's usual state."""
    latency_p95_ms: float | None = None
    """Median of each call's p95 agent turn latency, over this side's ``latency_calls`` measured calls."""
    latency_calls: int = 0
    """This side's calls with any latency measured."""
    latency_common_p95_ms: float | None = None
    """The same median over only the (scenario, trial) calls measured on every side: like with like."""
    latency_common_calls: int = 0
    """How many (scenario, trial) calls every side measured (the base of ``latency_common_p95_ms``)."""


class MatrixRow(msgspec.Struct, frozen=True, kw_only=True):
    """One scenario across configurations."""

    scenario: str
    values: dict[str, float | None]
    spread: float | None
    incomparable: bool


class PairedDifference(msgspec.Struct, frozen=True, kw_only=True):
    """``b − a`` over scenarios both judged, with a bootstrap 95% interval."""

    a: str
    b: str
    pairs: int
    mean_difference: float | None
    low: float | None
    high: float | None
    within_noise: bool
    excluded: dict[str, int] = msgspec.field(default_factory=dict)
    """(scenario, trial) pairs left out because a side has no graded verdict, by that side's state."""


class ScenarioDivergence(msgspec.Struct, frozen=True, kw_only=True):
    """Where two configurations' calls of one scenario part."""

    scenario: str
    a: str
    b: str
    a_conversation: str
    b_conversation: str
    divergence: Divergence | None


class MixedSetting(msgspec.Struct, frozen=True, kw_only=True):
    """A setting the sides differ in (compared anyway only with ``--allow-mixed``)."""

    setting: str
    """``caller``, ``judge``, ``noise intensity`` or ``language``."""
    values: dict[str, list[str]]
    """Side label → the distinct values of its calls, sorted; in side order."""


class Comparison(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``polygon compare`` shows, as data (its analysis sentences are rendered from it)."""

    rubric_version: str
    judges: list[str]
    """The judges of the verdicts shown, sorted."""
    heuristic: bool
    mixed: list[MixedSetting] = msgspec.field(default_factory=list)
    """Settings that differ between the sides (only with ``--allow-mixed``)."""
    sides: list[Side]
    scorecards: list[Scorecard]
    matrix: list[MatrixRow]
    differences: list[PairedDifference]
    divergences: list[ScenarioDivergence]
    prompt_lint: dict[str, dict[str, float]] = msgspec.field(default_factory=dict)
    """Side → its prompt's lint scores per axis (sides whose prompt was linted)."""


def bootstrap_mean(values: Sequence[float]) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the mean, with a fixed seed."""
    import numpy as np  # on first use: ~0.1 CPU s of the start of leaderboard, sweep and demo (issue 31)

    data = np.asarray(values, dtype=float)
    if len(data) < 2:
        return float(data.mean()), float(data.mean())
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    # Resamples in chunks of about 65k draws (512 KB of indices): 2,000 × 20,000 at once
    # would hold 640 MB, and chunks that stay in the CPU's cache gather twice as fast as
    # chunks of a million (at 20k calls, 0.6 -> 0.3 CPU s a side). The generator's stream is
    # the same however it is cut and each mean is of one row, so the interval is too.
    n = len(data)
    rows = max(1, BOOTSTRAP_CHUNK // n)
    chunks = [min(rows, BOOTSTRAP_RESAMPLES - done) for done in range(0, BOOTSTRAP_RESAMPLES, rows)]
    means = np.concatenate([data[rng.integers(0, n, size=(k, n))].mean(axis=1) for k in chunks])
    low, high = np.percentile(means, [2.5, 97.5])
    return round(float(low), 4), round(float(high), 4)


def _mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def _group_mean(rows: Sequence[ConversationVerdict], key: str) -> dict[str, float]:
    """Mean composite per group over graded calls only, as the scorecard's mean and the matrix.

    A simulator error's (or an error's, an inconclusive call's) composite is no score.
    """
    groups: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r.verdict is not None and r.verdict.verdict in GRADED:
            groups[str(getattr(r.record, key))].append(r.verdict.composite)
    return {k: round(statistics.fmean(v), 4) for k, v in sorted(groups.items())}


def pass_hat_k(rows: Sequence[ConversationVerdict]) -> dict[str, float]:
    """pass^k: the chance that all k trials of a scenario pass, averaged over scenarios.

    Every state but ``pass`` is a non-pass; simulator errors are left out (not the agent's).
    """
    by_scenario: dict[str, list[bool]] = defaultdict(list)
    for r in rows:
        if r.verdict is not None and r.verdict.verdict in OUT_OF_SCORECARD:
            continue
        by_scenario[r.record.scenario].append(r.verdict is not None and r.verdict.verdict == "pass")
    if not by_scenario:
        return {}
    trials = min(len(v) for v in by_scenario.values())
    # (passed, trials) per scenario: scenarios share them, and each binomial is a big int
    # (at 20k calls, 40k comb calls were 0.9 CPU s); the same exact ints, fetched once.
    counts = [(sum(v), len(v)) for v in by_scenario.values()]
    binomial = cache(comb)
    out = {}
    for k in range(1, trials + 1):
        out[str(k)] = round(statistics.fmean(binomial(p, k) / binomial(n, k) for p, n in counts), 4)
    return out


def scorecard(label: str, rows: Sequence[ConversationVerdict], probes: ProbeTable | None) -> Scorecard:
    """One configuration's scorecard; composites and criteria over graded calls only."""
    verdicts = [r.verdict for r in rows if r.verdict is not None]
    judged = [v for v in verdicts if v.verdict in GRADED]
    composites = [v.composite for v in judged]
    low, high = bootstrap_mean(composites) if composites else (None, None)
    criteria: dict[str, list[float]] = defaultdict(list)
    gates: dict[str, int] = defaultdict(int)
    for v in judged:
        for c in v.criteria:
            if c.value is not None:
                criteria[c.criterion].append(c.value)
        for g in v.gates:
            gates[g.gate] += g.fired
    config = rows[0].record.config if rows else ""
    trials = scenario_trials(list(rows))
    probe_rates = {}
    if probes is not None:
        for count in sorted(probes.counts.get(config, {}).values(), key=lambda c: c.probe_id):
            probe_rates[count.probe_id] = count.rate()
    return Scorecard(
        label=label,
        conversations=len(rows),
        judged=len(judged),
        composite_mean=_mean(composites),
        composite_low=low,
        composite_high=high,
        passed=sum(v.verdict == "pass" for v in judged),
        warned=sum(v.verdict == "warn" for v in judged),
        failed=sum(v.verdict == "fail" for v in judged),
        criteria={c: round(statistics.fmean(v), 4) for c, v in criteria.items()},
        latency_p95_ms=call_latency(list(rows)),
        latency_calls=len(measured_latencies(list(rows))),
        by_caller_type=_group_mean(rows, "persona_type"),
        by_difficulty=_group_mean(rows, "difficulty"),
        probes=probe_rates,
        loops=sum(r.record.loop for r in rows),
        gate_failures=dict(sorted(gates.items())),
        pass_hat_k=pass_hat_k(rows),
        errored=sum(v.verdict == "error" for v in verdicts),
        inconclusive=sum(v.verdict == "inconclusive" for v in verdicts),
        simulator_errors=sum(v.verdict in OUT_OF_SCORECARD for v in verdicts),
        flaky=[t.scenario for t in trials if t.flaky],
        flip_rate=round(statistics.fmean(t.flip_rate for t in trials), 4) if trials else 0.0,
    )


def common_latency(
    cards: list[Scorecard], sides: Sequence[Side], rows: dict[str, list[ConversationVerdict]]
) -> list[Scorecard]:
    """Each card with its p95 over the (scenario, trial) calls that every side measured.

    One side's p95 over its own measured calls is not comparable with another's when they
    measured different calls (a Python agent measures only the calls that used a stub).
    """
    measured = [
        {(r.record.scenario, r.record.trial): r for r in rows[s.label] if latency_measured(r)} for s in sides
    ]
    common = set.intersection(*(set(m) for m in measured)) if measured else set()
    out = []
    for card, mine in zip(cards, measured, strict=True):
        values = [mine[key].record.latency_p95_ms for key in common]
        p95 = round(statistics.median(values), 1) if values else None
        out.append(msgspec.structs.replace(card, latency_common_p95_ms=p95, latency_common_calls=len(common)))
    return out


def _scenario_means(rows: Sequence[ConversationVerdict]) -> dict[str, float]:
    groups: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r.verdict is not None and r.verdict.verdict in GRADED:
            groups[r.record.scenario].append(r.verdict.composite)
    return {k: statistics.fmean(v) for k, v in groups.items()}


def matrix(sides: Sequence[Side], rows: dict[str, list[ConversationVerdict]]) -> list[MatrixRow]:
    """Scenarios by spread (best minus worst configuration), largest first.

    A scenario missing for any configuration is incomparable — never filled with zeros —
    and listed last.
    """
    means = {s.label: _scenario_means(rows[s.label]) for s in sides}
    scenarios = sorted(
        {sc for m in means.values() for sc in m} | {r.record.scenario for v in rows.values() for r in v}
    )
    out = []
    for sc in scenarios:
        values = {s.label: (round(means[s.label][sc], 4) if sc in means[s.label] else None) for s in sides}
        present = [v for v in values.values() if v is not None]
        incomparable = len(present) < len(values)
        spread = None if incomparable else round(max(present) - min(present), 4)
        out.append(MatrixRow(scenario=sc, values=values, spread=spread, incomparable=incomparable))
    return sorted(out, key=lambda r: (r.incomparable, -(r.spread or 0.0), r.scenario))


def paired(a: Side, b: Side, rows: dict[str, list[ConversationVerdict]]) -> PairedDifference:
    """Differences over (scenario, trial) pairs graded on both sides (the others counted apart)."""
    left = {(r.record.scenario, r.record.trial): r for r in rows[a.label]}
    right = {(r.record.scenario, r.record.trial): r for r in rows[b.label]}
    diffs: list[float] = []
    excluded: dict[str, int] = defaultdict(int)
    for key in sorted(left.keys() & right.keys()):
        x, y = left[key].verdict, right[key].verdict
        if x is not None and y is not None and x.verdict in GRADED and y.verdict in GRADED:
            diffs.append(y.composite - x.composite)
            continue
        for side in (x, y):
            if side is None or side.verdict not in GRADED:
                excluded[side.verdict if side else "unjudged"] += 1
    if not diffs:
        return PairedDifference(
            a=a.label,
            b=b.label,
            pairs=0,
            mean_difference=None,
            low=None,
            high=None,
            within_noise=True,
            excluded=dict(sorted(excluded.items())),
        )
    low, high = bootstrap_mean(diffs)
    return PairedDifference(
        a=a.label,
        b=b.label,
        pairs=len(diffs),
        mean_difference=round(statistics.fmean(diffs), 4),
        low=low,
        high=high,
        within_noise=low <= 0 <= high,
        excluded=dict(sorted(excluded.items())),
    )


def divergences(
    a: Side, b: Side, rows: dict[str, list[ConversationVerdict]], views: Mapping[str, ConversationView]
) -> list[ScenarioDivergence]:
    """The first-trial calls of every scenario both sides ran."""

    def first(label: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for r in sorted(rows[label], key=lambda r: (r.record.scenario, r.record.trial)):
            out.setdefault(r.record.scenario, r.record.conversation_id)
        return out

    left, right = first(a.label), first(b.label)
    return [
        ScenarioDivergence(
            scenario=sc,
            a=a.label,
            b=b.label,
            a_conversation=left[sc],
            b_conversation=right[sc],
            divergence=find_divergence(views[left[sc]], views[right[sc]]),
        )
        for sc in sorted(left.keys() & right.keys())
    ]


def build_comparison(
    sides: Sequence[Side],
    rows: dict[str, list[ConversationVerdict]],
    probes: dict[str, ProbeTable],
    views: Mapping[str, ConversationView],
    *,
    rubric_version: str,
    judges: Sequence[str],
    heuristic: bool,
    mixed: Sequence[MixedSetting] = (),
    prompt_lint: Mapping[str, dict[str, float]] | None = None,
) -> Comparison:
    """The whole comparison; the first side is the baseline."""
    cards = common_latency(
        [scorecard(s.label, rows[s.label], probes.get(s.run_id)) for s in sides], sides, rows
    )
    table = matrix(sides, rows)
    diffs = [paired(sides[0], s, rows) for s in sides[1:]]
    splits = [d for s in sides[1:] for d in divergences(sides[0], s, rows, views)]
    return Comparison(
        rubric_version=rubric_version,
        judges=list(judges),
        heuristic=heuristic,
        mixed=list(mixed),
        sides=list(sides),
        scorecards=cards,
        matrix=table,
        differences=diffs,
        divergences=splits,
        prompt_lint=dict(prompt_lint or {}),
    )
