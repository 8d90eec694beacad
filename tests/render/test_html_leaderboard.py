"""`leaderboard --format html`: drawn from the template, the same bytes as the f-string page it replaced."""

from __future__ import annotations

from polygon.projections import Leaderboard, LeaderboardRow
from polygon.projections.leaderboard import PointRefusal, StoppedEarly
from polygon.render import leaderboard_html, leaderboard_lines

HOSTILE = "<b>&'\"</b> &#39;"


def _ran(
    rank: int, values: dict[str, object], stats: tuple[float, float, float, float], **kw: object
) -> LeaderboardRow:
    """A ranked point: ``stats`` is (mean, low, high, sd)."""
    mean, low, high, sd = stats
    return LeaderboardRow(
        rank=rank,
        index=rank - 1,
        values=values,
        run_id=f"r{rank}",
        status="ran",
        calls=4,
        graded=4,
        mean=mean,
        low=low,
        high=high,
        stability=sd,
        states={"pass": 4},
        **kw,  # type: ignore[arg-type]
    )


def _board() -> Leaderboard:
    """Every kind of row (leader, tie, worse, not graded, refused, not run), hostile text in each field."""
    refusal = PointRefusal(estimated_tokens=12345, limit=6000, basis=f"b{HOSTILE}")
    return Leaderboard(
        sweep_id="w<1>",
        name=f"n{HOSTILE}",
        mode="oat",
        base="c",
        rubric_version="v1",
        heuristic=True,
        stopped_early=StoppedEarly(mean_composite=10.25, floor=50.0),
        centre={"k": 0},
        rows=[
            _ran(1, {"k": 0}, (90.04, 80.0, 95.5, 3.25), speed_ms=151.6),
            _ran(2, {"k": HOSTILE}, (89.0, 79.0, 94.0, 4.0), tie=True),
            _ran(3, {"j": 'a"b'}, (60.0, 50.0, 70.0, 9.0), speed_ms=1200.4),
            LeaderboardRow(rank=None, index=3, values={"k": 3}, run_id="r3", status="ran", calls=2),
            LeaderboardRow(
                rank=None, index=4, values={"k": 4}, run_id="r4", status="refused", refusal=refusal
            ),
            LeaderboardRow(rank=None, index=5, values={"k": 5}, run_id="r5", status="not run"),
        ],
    )


# Written by the f-string renderer this template replaced (polygon/render/leaderboard.py before
# the move), from the board above: the page keeps these bytes, plus what the text board said
# and the page did not (the baseline's label, the centre, the latency note).
FSTRING_PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>Leaderboard · n&lt;b&gt;&amp;&#x27;&quot;&lt;/b&gt; &amp;#39; (w&lt;1&gt;)</title>"
    "</head><body><h1>Leaderboard · n&lt;b&gt;&amp;&#x27;&quot;&lt;/b&gt; &amp;#39; (w&lt;1&gt;)</h1>"
    "<p><strong>stopped early: the first point&#x27;s mean composite 10.2 is below the floor 50</strong></p>"
    "<table><thead><tr><th>#</th><th>point</th><th>mean</th><th>95% CI</th><th>sd</th><th>p95 ms</th><th>calls</th><th>vs leader</th><th>note</th></tr>"
    "</thead><tbody><tr><td>1</td><td>(centre)</td><td>90.0</td><td>[80.0, 95.5]</td><td>3.2</td><td>152</td><td>4</td><td>leader</td><td></td></tr>"
    "<tr><td>2</td><td>k=&lt;b&gt;&amp;&#x27;&quot;&lt;/b&gt; &amp;#39;</td><td>89.0</td><td>[79.0, 94.0]</td><td>4.0</td><td>—</td><td>4</td><td>tie</td><td></td></tr>"
    "<tr><td>3</td><td>j=a&quot;b</td><td>60.0</td><td>[50.0, 70.0]</td><td>9.0</td><td>1200</td><td>4</td><td></td><td></td></tr>"
    "<tr><td>—</td><td>k=3</td><td>—</td><td>—</td><td>—</td><td>—</td><td>2</td><td></td><td>no graded call: not ranked</td></tr>"
    "<tr><td>—</td><td>k=4</td><td>—</td><td>—</td><td>—</td><td>—</td><td>0</td><td></td><td>refused: estimated 12,345 tokens &gt; limit 6,000 (b&lt;b&gt;&amp;&#x27;&quot;&lt;/b&gt; &amp;#39;)</td></tr>"
    "<tr><td>—</td><td>k=5</td><td>—</td><td>—</td><td>—</td><td>—</td><td>0</td><td></td><td>not run: the sweep stopped early</td></tr>"
    "</tbody></table></body></html>\n"
)
HEADING = (
    "<p>Leaderboard · sweep w&lt;1&gt; (n&lt;b&gt;&amp;&#x27;&quot;&lt;/b&gt; &amp;#39;, oat around c) · rubric v1 · "
    "judge: heuristic baseline (scripted/heuristic) — not a model&#x27;s judgement</p>"
    "<p>Centre: k=0 (the others move one parameter off it)</p>"
)
LATENCY = (
    "<p>p95 ms: the median of each call&#x27;s p95 agent turn latency, over the calls where latency "
    "was measured (n/m: over n of m calls; a Python agent&#x27;s own time is not measured, only its "
    "stub tools&#x27;)</p>"
)
GOLDEN = FSTRING_PAGE.replace("</h1>", "</h1>" + HEADING).replace("</table>", "</table>" + LATENCY)


def test_page_keeps_the_f_string_renderers_bytes_and_labels_the_baseline() -> None:
    assert leaderboard_html(_board()) == GOLDEN


def test_every_value_is_escaped_and_the_page_is_one_line() -> None:
    page = leaderboard_html(_board())
    assert "<b>" not in page and HOSTILE not in page
    assert page.count("&lt;b&gt;&amp;&#x27;&quot;&lt;/b&gt; &amp;#39;") == 5  # title, h1, heading, point, basis
    assert page.endswith("</html>\n") and page.count("\n") == 1


def test_no_stopped_line_when_the_sweep_ran_through() -> None:
    board = _board()
    page = leaderboard_html(
        Leaderboard(**{**{f: getattr(board, f) for f in board.__struct_fields__}, "stopped_early": None})
    )
    assert "<strong>" not in page and "not run yet (resume the sweep)" in page


def test_the_text_board_brackets_the_centre_point_once() -> None:
    runs = [line for line in leaderboard_lines(_board()) if line.startswith("  point ")]
    assert "  point 0 (centre): run r1, 0 tokens" in runs, runs
    assert "  point 1 (k=<b>&'\"</b> &#39;): run r2, 0 tokens" in runs, runs
