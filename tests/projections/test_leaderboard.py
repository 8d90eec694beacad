"""The leaderboard's order and ties, as a table: sorting keys, ties within noise, states apart."""

from __future__ import annotations

import json

import pytest

from polygon.events.families import PointRan, PointRefused, SweepPoint, SweepStarted, SweepStopped
from polygon.projections.leaderboard import build_leaderboard
from polygon.projections.verdicts import ConversationRecord, ConversationVerdict
from polygon.render import leaderboard_html, leaderboard_json, leaderboard_lines
from polygon.score.verdict import Verdict

SCENARIOS = [f"s{i}" for i in range(10)]


def _row(
    index: int, scenario: str, composite: float, state: str = "pass", latency: float = 0.0
) -> ConversationVerdict:
    return ConversationVerdict(
        record=ConversationRecord(
            conversation_id=f"p{index}.c.{scenario}.0", config="c", scenario=scenario, latency_p95_ms=latency
        ),
        verdict=Verdict(
            composite=composite, verdict=state, partial=False, unscored=[], missing=[], criteria=[], gates=[]
        ),
    )


def _board(
    points: dict[int, list[ConversationVerdict]],
    refused: tuple[int, ...] = (),
    stopped: bool = False,
    total: int | None = None,
):
    n = total or (max([*points, *refused]) + 1)
    started = SweepStarted(
        sweep_id="w",
        name="t",
        sweep_hash="h",
        suite_name="s",
        mode="grid",
        base="c",
        points=[SweepPoint(index=i, values={"k": i}, profile=f"p{i}", run_id=f"r{i}") for i in range(n)],
        scenarios=SCENARIOS,
        trials=1,
    )
    events: list[object] = [started]
    events += [PointRan(sweep_id="w", index=i, run_id=f"r{i}") for i in points]
    events += [
        PointRefused(sweep_id="w", index=i, estimated_tokens=900, limit=500, basis="b") for i in refused
    ]
    if stopped:
        events.append(SweepStopped(sweep_id="w", after_index=0, mean_composite=10.0, floor=50.0))
    return build_leaderboard(started, events, points, rubric_version="v1")


# the same scores on every scenario but with a fixed offset: a clear, tie-free difference
def _shifted(index: int, base: list[float], shift: float, **kw: object) -> list[ConversationVerdict]:
    return [_row(index, s, v + shift, **kw) for s, v in zip(SCENARIOS, base, strict=True)]  # type: ignore[arg-type]


NOISY = [60, 95, 70, 88, 55, 99, 65, 80, 72, 91]


@pytest.mark.parametrize(
    ("points", "order", "ties"),
    [
        # higher mean first; a gap of 10 on every scenario is beyond noise
        (
            {0: _shifted(0, NOISY, 0), 1: _shifted(1, NOISY, 8), 2: _shifted(2, NOISY, -10)},
            [1, 0, 2],
            [False, False],
        ),
        # equal means: the steadier point (smaller sd) first
        ({0: _shifted(0, [70, 90] * 5, 0), 1: _shifted(1, [80] * 10, 0)}, [1, 0], [True]),
        # equal means and sd: the faster point first
        ({0: _shifted(0, NOISY, 0, latency=300.0), 1: _shifted(1, NOISY, 0, latency=120.0)}, [1, 0], [True]),
        # a point better on half the scenarios and worse on the other half is within noise
        (
            {
                0: _shifted(0, [80] * 10, 0),
                1: [_row(1, s, 80 + (15 if i % 2 else -14)) for i, s in enumerate(SCENARIOS)],
            },
            [1, 0],
            [True],
        ),
    ],
)
def test_order_and_ties(
    points: dict[int, list[ConversationVerdict]], order: list[int], ties: list[bool]
) -> None:
    board = _board(points)
    ranked = [r for r in board.rows if r.rank]
    assert [r.index for r in ranked] == order
    assert [r.tie for r in ranked[1:]] == ties
    assert ranked[0].tie is False and ranked[0].rank == 1


def test_error_and_inconclusive_are_counted_apart_never_averaged() -> None:
    rows = _shifted(0, [80] * 10, 0)
    rows[0] = _row(0, "s0", 0.0, state="error")
    rows[1] = _row(0, "s1", 100.0, state="inconclusive")
    board = _board({0: rows})
    [row] = board.rows
    assert row.mean == 80.0 and row.graded == 8 and row.calls == 10
    assert row.states == {"pass": 8, "error": 1, "inconclusive": 1}


def test_refused_and_not_run_points_are_listed_after_the_ranked_with_why() -> None:
    board = _board({0: _shifted(0, NOISY, 0)}, refused=(1,), stopped=True, total=3)
    assert [(r.index, r.status) for r in board.rows] == [(0, "ran"), (1, "refused"), (2, "not run")]
    assert board.rows[1].refusal is not None and board.rows[1].refusal.estimated_tokens == 900
    assert board.stopped_early is not None and board.stopped_early.floor == 50.0
    data = json.loads(leaderboard_json(board))
    assert [r["note"] for r in data["rows"]] == [
        "",
        "refused: estimated 900 tokens > limit 500 (b)",
        "not run: the sweep stopped early",
    ]
    assert data["stopped"] == "stopped early: the first point's mean composite 10.0 is below the floor 50"
    assert "refusal" not in data["rows"][1] and "stopped_early" not in data
    text = "\n".join(leaderboard_lines(board))
    assert "STOPPED EARLY" in text and "refused: estimated" in text


def test_html_escapes_values() -> None:
    board = _board({0: _shifted(0, NOISY, 0)})
    hostile = board.rows[0].__class__(
        **{
            **{f: getattr(board.rows[0], f) for f in board.rows[0].__struct_fields__},
            "values": {"k": "<script>alert(1)</script>"},
        }
    )
    page = leaderboard_html(
        board.__class__(**{**{f: getattr(board, f) for f in board.__struct_fields__}, "rows": [hostile]})
    )
    assert "<script>" not in page and "&lt;script&gt;" in page
