"""Rendering the leaderboard projection (:mod:`polygon.projections.leaderboard`) for people and tools.

The projection holds why a sweep stopped and why a point is not ranked as data; the words
are said here, and JSON writes them under the keys it always had (``stopped``, each row's
``note``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from polygon.events import to_builtins
from polygon.projections import Leaderboard, LeaderboardRow
from polygon.render.phrases import HEURISTIC_LABEL, LATENCY_NOTE, latency_cell
from polygon.texttable import LEFT, RIGHT, table

if TYPE_CHECKING:
    import jinja2


def _values(row: LeaderboardRow, centre: dict[str, Any] | None = None) -> str:
    moved = {k: v for k, v in row.values.items() if not centre or centre.get(k, object()) != v}
    if centre and not moved:
        return "(centre)"
    return ", ".join(f"{k}={v}" for k, v in moved.items()) or "(base)"


def _stopped(board: Leaderboard) -> str:
    """Why the sweep stopped early, or "" when it did not."""
    s = board.stopped_early
    if s is None:
        return ""
    return (
        f"stopped early: the first point's mean composite {s.mean_composite:.1f} "
        f"is below the floor {s.floor:g}"
    )


def _note(board: Leaderboard, row: LeaderboardRow) -> str:
    """Why a point is not ranked ("" for a ranked one)."""
    if row.refusal is not None:
        r = row.refusal
        return f"refused: estimated {r.estimated_tokens:,} tokens > limit {r.limit:,} ({r.basis})"
    if row.status == "not run":
        return "not run: the sweep stopped early" if board.stopped_early else "not run yet (resume the sweep)"
    return "" if row.graded else "no graded call: not ranked"


def _heading(board: Leaderboard) -> list[str]:
    """What was swept, under which rubric and judge (the baseline labelled), and the centre."""
    judge = HEURISTIC_LABEL if board.heuristic else "model judge"
    around = f"{board.name}, {board.mode} around {board.base}"
    swept = f"Leaderboard · sweep {board.sweep_id} ({around})"
    lines = [f"{swept} · rubric {board.rubric_version} · judge: {judge}"]
    if board.centre:
        centre = ", ".join(f"{k}={v}" for k, v in board.centre.items())
        lines.append(f"Centre: {centre} (the others move one parameter off it)")
    return lines


def leaderboard_lines(board: Leaderboard) -> Iterator[str]:
    """The board as text."""
    yield from _heading(board)
    yield (
        "Sorted by mean composite, then stability (sd, lower is steadier), then speed (p95 agent "
        f"turn ms); {len(board.scenarios)} scenarios × {board.trials} trials a point"
    )
    if board.stopped_early:
        yield f"STOPPED EARLY: {_stopped(board).removeprefix('stopped early: ')}"
    yield ""
    ranked = [r for r in board.rows if r.status == "ran" and r.mean is not None]
    yield from table(RANKED_COLUMNS, (_ranked_cells(board, row) for row in ranked))
    others = [r for r in board.rows if r.status != "ran" or r.mean is None]
    if others:
        yield ""
        yield from table(
            [("-", RIGHT), ("point", LEFT), ("why not ranked", LEFT)],
            (["-", _values(row, board.centre), _note(board, row)] for row in others),
        )
    if any(r.speed_ms is not None for r in board.rows):
        yield LATENCY_NOTE
    yield ""
    yield "Each point's calls are an ordinary run: polygon report RUN, replay RUN.<config>.<scenario>.<trial>"
    for row in board.rows:
        if row.status == "ran":
            reused = " (reused)" if row.reused else ""
            point = _values(row, board.centre)
            point = point if point.startswith("(") else f"({point})"  # "(centre)" is bracketed already
            yield f"  point {row.index} {point}: run {row.run_id}{reused}, {row.tokens:,} tokens"


RANKED_COLUMNS = [
    ("#", RIGHT),
    ("point", LEFT),
    ("mean", RIGHT),
    ("95% CI", RIGHT),
    ("sd", RIGHT),
    ("p95 ms", RIGHT),
    ("calls", RIGHT),
    ("vs leader", LEFT),
    ("states", LEFT),
]


def _ranked_cells(board: Leaderboard, row: LeaderboardRow) -> list[str]:
    """A ranked point's cells: its label whole (never cut, so two points never read alike)."""
    ci = f"[{row.low:.1f}, {row.high:.1f}]" if row.low is not None and row.high is not None else "—"
    speed = latency_cell(row.speed_ms, row.speed_calls, row.calls)
    if row.rank == 1:
        vs = "leader"
    elif row.difference is None:
        vs = "no shared calls"
    else:
        vs = f"{row.difference:+.1f} {'tie (within noise)' if row.tie else 'worse'}"
    return [
        str(row.rank),
        _values(row, board.centre),
        f"{row.mean or 0.0:.1f}",
        ci,
        f"{row.stability or 0.0:.1f}",
        speed,
        str(row.calls),
        vs,
        " ".join(f"{k} {v}" for k, v in row.states.items()),
    ]


def leaderboard_data(board: Leaderboard) -> dict[str, Any]:
    """The board as plain data for JSON (``leaderboard --format json``, ``sweep --json``).

    The reasons are written as sentences where the format has always had them: ``stopped``
    ("" when the sweep did not stop) and each row's ``note``, not as the projection's data.
    """
    data: dict[str, Any] = to_builtins(board)
    del data["stopped_early"]
    data["stopped"] = _stopped(board)
    for row, out in zip(board.rows, data["rows"], strict=True):
        del out["refusal"]
        out["note"] = _note(board, row)
    return data


def leaderboard_json(board: Leaderboard) -> str:
    """The board as JSON (sorted keys: the same log gives the same bytes)."""
    return json.dumps(leaderboard_data(board), sort_keys=True) + "\n"


def leaderboard_html(board: Leaderboard) -> str:
    """A standalone HTML page (the template ``leaderboard/page.html``; every value escaped)."""
    from polygon.render.templating import quotes_as_ever  # Jinja loads only when a page is drawn

    title = f"Leaderboard · {board.name} ({board.sweep_id})"
    stopped = _stopped(board)  # "" when the sweep did not stop: the template then shows no line
    rows = [_html_cells(board, row) for row in board.rows]
    latency = LATENCY_NOTE if any(r.speed_ms is not None for r in board.rows) else ""
    text = _page().render(title=title, heading=_heading(board), stopped=stopped, rows=rows, latency=latency)
    return quotes_as_ever(text) + "\n"  # Jinja drops a template's last newline; the page has one


def _html_cells(board: Leaderboard, row: LeaderboardRow) -> list[str]:
    """A point's cells on the page: every point, ranked or not, with its note in the last cell."""
    ci = "—" if row.low is None else f"[{row.low:.1f}, {row.high:.1f}]"
    vs = "leader" if row.rank == 1 else "tie" if row.status == "ran" and row.tie else ""
    return [
        str(row.rank or "—"),
        _values(row, board.centre),
        "—" if row.mean is None else f"{row.mean:.1f}",
        ci,
        "—" if row.stability is None else f"{row.stability:.1f}",
        "—" if row.speed_ms is None else f"{row.speed_ms:.0f}",
        str(row.calls),
        vs,
        _note(board, row),
    ]


@functools.cache
def _page() -> jinja2.Template:
    """The leaderboard's template, compiled once per process."""
    from polygon.render.templating import environment

    return environment().get_template("leaderboard/page.html")
