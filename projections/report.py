"""The report projection: a run's scorecard and verdicts, folded from the verdicts projection.

Nothing here reads a clock, so the same log gives the same report; :mod:`polygon.render.report`
writes it as text, JSON, JUnit XML, Markdown or HTML.
"""

from __future__ import annotations

import statistics
from collections import Counter

import msgspec

from polygon.projections.verdicts import (
    ConversationVerdict,
    RunRecord,
    choose_pass,
    choose_version,
    own_version,
    pass_index,
    passes,
    verdicts,
    versions,
)
from polygon.score import GRADED


class ConfigSummary(msgspec.Struct, kw_only=True):
    """One configuration's scorecard line.

    ``mean_composite`` is over the calls with a pass / warn / fail verdict only: an errored
    call has no meaningful composite, an inconclusive one has only a partial one, and a
    simulator error is not the agent's.
    """

    config: str
    conversations: int
    passed: int
    warned: int
    failed: int
    unjudged: int
    mean_composite: float | None
    gate_failures: int
    loops: int
    errored: int = 0
    inconclusive: int = 0
    simulator_errors: int = 0
    latency_p95_ms: float | None = None
    """Median of each call's p95 agent turn latency, over the ``latency_calls`` measured calls."""
    latency_calls: int = 0
    """How many of the configuration's calls had any latency measured (the p95's base)."""


class ScenarioTrials(msgspec.Struct, kw_only=True):
    """One (configuration, scenario) over its trials: how often it passed, and how stable it is."""

    config: str
    scenario: str
    trials: int
    """Trials with an agent verdict (simulator errors are left out)."""
    passed: int
    pass_rate: float | None
    pass_all: bool
    """pass^k: every trial passed."""
    flip_rate: float
    """Share of trials whose state differs from the scenario's most common state."""
    flaky: bool
    """Some trials passed and some did not."""
    states: list[str]


class Selection(msgspec.Struct, frozen=True, kw_only=True):
    """Which judge passes a report shows under its rubric version, and the others on record."""

    versions: list[str]
    """Rubric versions the run was judged under, oldest first."""
    chosen_pass: str | None
    """The pass asked for (by id or judge); None: each call's latest."""
    used_passes: list[str]
    """The passes of the rows shown, sorted."""
    passes: int
    """How many passes the log holds under the version."""
    own: str = ""
    """The rubric the run's suite named (what a report shows unless asked for another)."""


class RunReport(msgspec.Struct, kw_only=True):
    """Everything a report shows."""

    run_id: str
    rubric_version: str
    rubric_hash: str
    judges: list[str]
    heuristic: bool
    configs: list[ConfigSummary]
    conversations: list[ConversationVerdict]
    scenarios: list[ScenarioTrials] = msgspec.field(default_factory=list)
    selection: Selection | None = None
    """Which rubric and judge pass this report shows, and what else the log holds."""


def make_report(
    state: RunRecord,
    wanted_version: str | None,
    *,
    pass_id: str | None = None,
    judge: str | None = None,
    finished: bool = True,
) -> RunReport:
    """The report of a run under one rubric version and pass (never a mix of versions).

    ``finished``: the run recorded ``run.finished`` (an unfinished one with no scores yet is
    said to be unfinished, not sent to ``polygon judge``).
    """
    index = pass_index(state)
    version = choose_version(state, wanted_version, index, pass_id=pass_id, finished=finished)
    chosen = choose_pass(state, version, pass_id, judge, index)
    rows = verdicts(state, version, chosen, index)
    hashes = sorted({r.rubric_hash for r in state.rubrics if r.version == version})
    judges = sorted({r.judge for r in rows if r.judge})
    return RunReport(
        run_id=state.run_id,
        rubric_version=version,
        rubric_hash=hashes[0] if hashes else "",
        judges=judges,
        heuristic=any(r.heuristic for r in rows),
        configs=_summaries(rows),
        conversations=rows,
        scenarios=scenario_trials(rows),
        selection=Selection(
            versions=versions(state, index),
            chosen_pass=chosen,
            used_passes=sorted({r.pass_id for r in rows if r.pass_id}),
            passes=len(passes(state, version, index)),
            own=own_version(state),
        ),
    )


def _summaries(rows: list[ConversationVerdict]) -> list[ConfigSummary]:
    out = []
    for config in sorted({r.record.config for r in rows}):
        mine = [r for r in rows if r.record.config == config]
        judged = [r.verdict for r in mine if r.verdict is not None]
        graded = [v for v in judged if v.verdict in GRADED]
        count = Counter(v.verdict for v in judged)
        out.append(
            ConfigSummary(
                config=config,
                conversations=len(mine),
                passed=count["pass"],
                warned=count["warn"],
                failed=count["fail"],
                unjudged=len(mine) - len(judged),
                mean_composite=round(statistics.fmean(v.composite for v in graded), 2) if graded else None,
                gate_failures=sum(any(g.fired for g in v.gates) for v in judged),
                loops=sum(r.record.loop for r in mine),
                errored=count["error"],
                inconclusive=count["inconclusive"],
                simulator_errors=count["simulator_error"],
                latency_p95_ms=call_latency(mine),
                latency_calls=len(measured_latencies(mine)),
            )
        )
    return out


def call_latency(rows: list[ConversationVerdict]) -> float | None:
    """Median of the calls' p95 agent turn latencies, over the calls where any was measured.

    None ("—") when nothing was: imported calls, or a Python agent that called no stub (its
    own time is not recorded), have no latency rather than a latency of zero.
    """
    values = measured_latencies(rows)
    return round(statistics.median(values), 1) if values else None


def measured_latencies(rows: list[ConversationVerdict]) -> list[float]:
    """Each measured call's p95 agent turn latency (calls with none measured left out)."""
    return [r.record.latency_p95_ms for r in rows if latency_measured(r)]


def latency_measured(row: ConversationVerdict) -> bool:
    """The call recorded some agent turn latency (a zero means none was measured, not an instant)."""
    return bool(row.record.turns and row.record.latency_p95_ms > 0)


def state_of(row: ConversationVerdict) -> str:
    """The row's verdict state, ``unjudged`` when it has none under this rubric."""
    return row.verdict.verdict if row.verdict is not None else "unjudged"


def scenario_trials(rows: list[ConversationVerdict]) -> list[ScenarioTrials]:
    """Pass rate, pass^k and flip rate of each (configuration, scenario) over its trials."""
    groups: dict[tuple[str, str], list[str]] = {}
    for row in sorted(rows, key=lambda r: (r.record.config, r.record.scenario, r.record.trial)):
        groups.setdefault((row.record.config, row.record.scenario), []).append(state_of(row))
    out = []
    for (config, scenario), states in sorted(groups.items()):
        counted = [s for s in states if s != "simulator_error"]
        passed = counted.count("pass")
        common = Counter(counted).most_common(1)[0][1] if counted else 0
        out.append(
            ScenarioTrials(
                config=config,
                scenario=scenario,
                trials=len(counted),
                passed=passed,
                pass_rate=round(passed / len(counted), 6) if counted else None,
                pass_all=bool(counted) and passed == len(counted),
                flip_rate=round((len(counted) - common) / len(counted), 6) if counted else 0.0,
                flaky=0 < passed < len(counted),
                states=states,
            )
        )
    return out
