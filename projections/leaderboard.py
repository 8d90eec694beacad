"""A sweep's leaderboard: points sorted by mean composite, then stability, then speed.

- mean: of the point's graded calls (pass, warn, fail), with its 95% bootstrap interval;
  error, inconclusive and simulator_error are counted beside it, never folded in;
- stability: the standard deviation of the composite across the point's calls (scenarios
  and trials): lower is steadier;
- speed: the median, over calls that measured any, of each call's p95 agent turn latency;
- a point whose paired difference from the leader (same scenarios and trials, bootstrap
  95% interval) contains 0 is marked a tie: it is not shown to be worse.

Refused points, and points not run because the sweep stopped, are listed after the ranked
ones with the reason.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from polygon.events import PointRan, PointRefused, SweepStarted, SweepStopped
from polygon.projections.compare import Side, bootstrap_mean, paired
from polygon.projections.verdicts import ConversationVerdict
from polygon.score import GRADED, STATES


class PointRefusal(msgspec.Struct, frozen=True, kw_only=True):
    """Why a point was not started: its estimated tokens exceed the sweep's limit."""

    estimated_tokens: int
    limit: int
    basis: str
    """How the estimate was made (as the sweep recorded it)."""


class StoppedEarly(msgspec.Struct, frozen=True, kw_only=True):
    """Why the sweep stopped: its first point's mean composite is below the floor."""

    mean_composite: float
    floor: float


class LeaderboardRow(msgspec.Struct, frozen=True, kw_only=True):
    """One point on the leaderboard."""

    rank: int | None
    index: int
    values: dict[str, Any]
    run_id: str
    status: str
    """``ran``, ``refused`` or ``not run``."""
    calls: int = 0
    graded: int = 0
    mean: float | None = None
    low: float | None = None
    high: float | None = None
    stability: float | None = None
    speed_ms: float | None = None
    """Median of the point's calls' p95 agent turn latency, over the ``speed_calls`` measured."""
    speed_calls: int = 0
    """How many of the point's calls had any latency measured."""
    states: dict[str, int] = {}
    tie: bool = False
    """Within noise of the leader (paired bootstrap); the leader itself is not a tie."""
    difference: float | None = None
    """Mean paired difference from the leader (negative: worse)."""
    tokens: int = 0
    reused: bool = False
    refusal: PointRefusal | None = None
    """Set when ``status`` is ``refused``."""


class Leaderboard(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``polygon leaderboard`` shows."""

    sweep_id: str
    name: str
    mode: str
    base: str
    rubric_version: str
    heuristic: bool
    rows: list[LeaderboardRow]
    stopped_early: StoppedEarly | None = None
    """Set when the sweep stopped early (its points not run are listed as such)."""
    scenarios: list[str] = []
    trials: int = 0
    centre: dict[str, Any] = {}
    """A one-at-a-time sweep's centre point: rows are labelled by what they move off it."""


def build_leaderboard(
    started: SweepStarted,
    events: Iterable[object],
    rows_by_index: dict[int, list[ConversationVerdict]],
    *,
    rubric_version: str,
) -> Leaderboard:
    """The sorted board (pure: the same events and verdicts give the same bytes)."""
    events = list(events)
    ran = {e.index: e for e in events if isinstance(e, PointRan)}
    refused = {e.index: e for e in events if isinstance(e, PointRefused)}
    stopped = next((e for e in events if isinstance(e, SweepStopped)), None)
    measured = [
        _measured(started, p.index, rows_by_index.get(p.index, []), ran[p.index])
        for p in started.points
        if p.index in ran
    ]
    ranked = sorted((r for r in measured if r.mean is not None), key=_order)
    ranked = _with_ties(ranked, rows_by_index)
    unranked = [r for r in measured if r.mean is None]
    rest = [_not_ranked(started, p.index, refused.get(p.index)) for p in started.points if p.index not in ran]
    heuristic = any(v.heuristic for rows in rows_by_index.values() for v in rows)
    return Leaderboard(
        sweep_id=started.sweep_id,
        name=started.name,
        mode=started.mode,
        base=started.base,
        rubric_version=rubric_version,
        heuristic=heuristic,
        rows=[*ranked, *unranked, *rest],
        stopped_early=(
            StoppedEarly(mean_composite=stopped.mean_composite, floor=stopped.floor) if stopped else None
        ),
        scenarios=list(started.scenarios),
        trials=started.trials,
        centre=dict(started.points[0].values) if started.mode == "oat" and started.points else {},
    )


def _order(row: LeaderboardRow) -> tuple[float, float, float, int]:
    return (
        -(row.mean or 0.0),
        row.stability or 0.0,
        row.speed_ms if row.speed_ms is not None else math.inf,
        row.index,
    )


def _measured(
    started: SweepStarted, index: int, rows: Sequence[ConversationVerdict], ran: PointRan
) -> LeaderboardRow:
    point = started.points[index]
    states = Counter(r.verdict.verdict if r.verdict else "unjudged" for r in rows)
    graded = [r.verdict.composite for r in rows if r.verdict and r.verdict.verdict in GRADED]
    latencies = [r.record.latency_p95_ms for r in rows if r.record.latency_p95_ms > 0]
    mean = round(statistics.fmean(graded), 2) if graded else None
    low, high = bootstrap_mean(graded) if graded else (None, None)
    return LeaderboardRow(
        rank=None,
        index=index,
        values=dict(point.values),
        run_id=point.run_id,
        status="ran",
        calls=len(rows),
        graded=len(graded),
        mean=mean,
        low=None if low is None else round(low, 2),
        high=None if high is None else round(high, 2),
        stability=round(statistics.pstdev(graded), 2) if graded else None,
        speed_ms=round(statistics.median(latencies), 1) if latencies else None,
        speed_calls=len(latencies),
        states={s: states[s] for s in (*STATES, "unjudged") if states[s]},
        tokens=ran.tokens,
        reused=ran.reused,
    )


def _with_ties(
    ranked: list[LeaderboardRow], rows_by_index: dict[int, list[ConversationVerdict]]
) -> list[LeaderboardRow]:
    if not ranked:
        return []
    leader = ranked[0]
    table = {str(r.index): rows_by_index.get(r.index, []) for r in ranked}
    out = [msgspec.structs.replace(leader, rank=1)]
    for position, row in enumerate(ranked[1:], start=2):
        diff = paired(
            Side(label=str(leader.index), run_id="", config=""),
            Side(label=str(row.index), run_id="", config=""),
            table,
        )
        out.append(
            msgspec.structs.replace(
                row, rank=position, tie=diff.within_noise, difference=diff.mean_difference
            )
        )
    return out


def _not_ranked(started: SweepStarted, index: int, refused: PointRefused | None) -> LeaderboardRow:
    point = started.points[index]
    if refused is not None:
        return LeaderboardRow(
            rank=None,
            index=index,
            values=dict(point.values),
            run_id=point.run_id,
            status="refused",
            refusal=PointRefusal(
                estimated_tokens=refused.estimated_tokens, limit=refused.limit, basis=refused.basis
            ),
        )
    return LeaderboardRow(
        rank=None, index=index, values=dict(point.values), run_id=point.run_id, status="not run"
    )
