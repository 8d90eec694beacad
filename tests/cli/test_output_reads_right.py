"""Issue 28, items 7–12: text tables sized to their content, imports shown as imported,
``replay --step`` without a terminal, whole leaderboard labels, latency over named calls,
``expect:`` findings worded as findings (the last in tests/app/test_expect.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events.families import PointRan, SweepPoint, SweepStarted
from polygon.projections.compare import Side, build_comparison
from polygon.projections.leaderboard import build_leaderboard
from polygon.projections.report import RunReport
from polygon.projections.verdicts import ConversationRecord, ConversationVerdict
from polygon.render import (
    comparison_lines,
    comparison_markdown,
    leaderboard_lines,
    render_markdown,
    render_text,
)
from polygon.score.verdict import Verdict
from polygon.texttable import LEFT, RIGHT, table
from tests.support.views import conv

ROOT = Path(__file__).parents[2]
CONFIG_A = "a" * 36 + "-cfg"
CONFIG_B = "b" * 36 + "-cfg"
SUITE_NAME = "n" * 36 + "-ste"
RUN_ID = "r" * 40
LONG = (CONFIG_A, CONFIG_B, SUITE_NAME, RUN_ID)


def _cli(log: Path, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    return res.exit_code, res.stdout, res.output


def _whole(name: str, text: str) -> None:
    """``name`` is shown whole and never runs into the next cell (no letter or digit right after it)."""
    found = [line for line in text.splitlines() if name in line]
    assert found, f"{name} not shown:\n{text}"
    for line in found:
        assert not re.search(re.escape(name) + r"[A-Za-z0-9_]", line), (
            f"{name!r} runs into the next column: {line!r}"
        )


def _aligned(text: str, header: str, cell: str) -> None:
    """In the table under ``header``, the column ``cell`` heads starts at one place on every row."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = lines[
        start : start + next((j for j, line in enumerate(lines[start:]) if not line.strip()), len(lines))
    ]
    at = rows[0].index(cell)
    assert all(len(r) <= at or r[at - 1] == " " for r in rows[1:]), rows


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run whose configurations, scenarios, suite and run id are each 40 characters."""
    folder = tmp_path_factory.mktemp("long")
    shutil.copytree(ROOT / "examples" / "starter", folder / "s")
    path = folder / "s" / "suite.yaml"
    suite = yaml.safe_load(path.read_text())
    suite["name"] = SUITE_NAME
    base = suite["configs"]["baseline"]
    suite["configs"] = {CONFIG_A: base, CONFIG_B: dict(base)}
    for p in suite["personas"]:
        p["id"] = p["id"].ljust(40, "x")
    for s in suite["scenarios"]:
        s["id"], s["persona"] = s["id"].ljust(40, "y"), s["persona"].ljust(40, "x")
    suite["trials"] = 2
    path.write_text(yaml.safe_dump(suite))
    log = folder / "log"
    code, _, out = _cli(log, "run", str(path), "--run-id", RUN_ID, "--no-progress")
    assert code == 0, out
    return log


def test_table_sizes_columns_to_the_widest_cell() -> None:
    names = ["x" * 40, "y" * 40]
    lines = table(
        [("name", LEFT), ("n", RIGHT), ("other", LEFT)], [[names[0], 1, names[1]], ["s", 12345, "t"]]
    )
    assert lines[0].index("n  ") == lines[1].index(names[0]) + 40 + 2 + 4  # right-aligned under its header
    for line in lines[1:]:
        assert line.split() == [c for c in line.split()]  # no cell runs into the next
    assert lines[1].split() == [names[0], "1", names[1]]
    assert all(not line.endswith(" ") for line in lines)


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("report", "latest"), (CONFIG_A, CONFIG_B, RUN_ID)),
        (("compare", "latest"), (CONFIG_A, CONFIG_B)),
        (("runs",), (RUN_ID, SUITE_NAME)),
        (("report", "latest", "--format", "markdown"), (CONFIG_A, CONFIG_B, RUN_ID)),
    ],
)
def test_forty_character_names_never_run_together(
    long_log: Path, args: tuple[str, ...], names: tuple[str, ...]
) -> None:
    code, out, all_ = _cli(long_log, *args)
    assert code == 0, all_
    for name in names:
        _whole(name, out)
    for scenario in ("cooperative-check".ljust(40, "y"), "busy-check".ljust(40, "y")):
        if "--format" not in args and args[0] != "runs":
            _whole(scenario, out)
    if args == ("report", "latest"):
        _aligned(out, "config ", "calls")
        _aligned(out, "conversation ", "verdict")
    if args == ("runs",):
        _aligned(out, "run ", "state")


def test_trend_columns_fit_forty_character_names(monkeypatch: pytest.MonkeyPatch, long_log: Path) -> None:
    import polygon.app as app
    from polygon.projections.probes import Rate, TrendPoint

    rate = Rate(right=3, applicable=3, not_applicable=1, rate=1.0, low=0.4, high=1.0)
    points = [
        TrendPoint(run_id=RUN_ID, config=CONFIG_A, probe_hash="h", rate=rate, new_series=True),
        TrendPoint(
            run_id="short", config=CONFIG_B, probe_hash="h2", rate=rate, new_series=True, note="reworded"
        ),
    ]
    # the command imports its use case from the app's face when it runs: patch the face
    monkeypatch.setattr(app, "probe_trend", lambda log, probe, config: points)
    code, out, all_ = _cli(long_log, "trend", "p")
    assert code == 0, all_
    for name in (RUN_ID, CONFIG_A, CONFIG_B):
        _whole(name, out)
    # the rate column starts at the same place on every line
    lines = [line for line in out.splitlines() if "100%" in line]
    assert len({line.index("100%") for line in lines}) == 1


def test_an_import_is_shown_as_imported_not_unfinished(tmp_path: Path) -> None:
    log = tmp_path / "log"
    transcripts = ROOT / "examples" / "clinic" / "transcripts.jsonl"
    code, _, out = _cli(log, "import", str(transcripts), "--run-id", "imp")
    assert code == 0, out
    code, out, _ = _cli(log, "runs")
    row = next(line for line in out.splitlines() if line.startswith("imp "))
    assert "imported" in row and "UNFINISHED" not in row


def test_replay_step_without_a_terminal_steps_on_stdin_lines(long_log: Path) -> None:
    ref = f"{RUN_ID}.{CONFIG_A}.cooperative-check" + "y" * 23 + ".0"
    whole = CliRunner().invoke(cli, ["--log", str(long_log), "replay", ref])
    assert whole.exit_code == 0, whole.output
    one = CliRunner().invoke(cli, ["--log", str(long_log), "replay", ref, "--step"], input="\n")
    assert one.exit_code == 0 and "Aborted" not in one.output, one.output
    assert "stopped after 1 of" in one.stderr
    assert len(one.stdout) < len(whole.stdout)
    none = CliRunner().invoke(cli, ["--log", str(long_log), "replay", ref, "--step"], input="")
    assert none.exit_code == 0 and "Aborted" not in none.output
    assert none.stderr.strip().splitlines() == [none.stderr.strip()]  # one line
    every = CliRunner().invoke(cli, ["--log", str(long_log), "replay", ref, "--step"], input="\n" * 200)
    assert every.exit_code == 0 and every.stdout == whole.stdout


def _row(
    config: str, scenario: str, trial: int, latency: float, composite: float = 80.0
) -> ConversationVerdict:
    return ConversationVerdict(
        record=ConversationRecord(
            conversation_id=f"r.{config}.{scenario}.{trial}",
            config=config,
            scenario=scenario,
            trial=trial,
            turns=4,
            latency_p95_ms=latency,
        ),
        verdict=Verdict(
            composite=composite, verdict="pass", partial=False, unscored=[], missing=[], criteria=[], gates=[]
        ),
    )


def test_leaderboard_labels_are_never_cut_so_two_points_never_read_alike() -> None:
    alike = "Adriatic Bank, this is Sara. How can I help you today?"
    values = [{"greeting": alike + " (short)"}, {"greeting": alike + " (long)"}]
    started = SweepStarted(
        sweep_id="w",
        name="t",
        sweep_hash="h",
        suite_name="s",
        mode="grid",
        base="c",
        points=[SweepPoint(index=i, values=v, profile=f"p{i}", run_id=f"r{i}") for i, v in enumerate(values)],
        scenarios=["s0", "s1"],
        trials=1,
    )
    rows = {
        i: [_row("c", s, 0, 0.0, 70.0 + 10 * i + j) for j, s in enumerate(["s0", "s1"])] for i in range(2)
    }
    board = build_leaderboard(
        started,
        [started, *(PointRan(sweep_id="w", index=i, run_id=f"r{i}") for i in rows)],
        rows,
        rubric_version="v1",
    )
    text = "\n".join(leaderboard_lines(board))
    for v in values:
        assert f"greeting={v['greeting']}  " in text, text


def test_latency_says_over_which_calls_and_compares_like_with_like() -> None:
    # A measures every call; B (a Python agent) measures only the calls that used a stub,
    # and those happen to be its fast ones. Alone B looks faster; on the common calls it is slower.
    b = [
        _row("B", "s0", 0, 350.0),
        _row("B", "s1", 0, 360.0),
        _row("B", "s2", 0, 0.0),
        _row("B", "s3", 0, 0.0),
    ]
    a = [
        _row("A", "s0", 0, 300.0),
        _row("A", "s1", 0, 310.0),
        _row("A", "s2", 0, 900.0),
        _row("A", "s3", 0, 900.0),
    ]
    report = RunReport(
        run_id="r",
        rubric_version="v1",
        rubric_hash="h",
        judges=[],
        heuristic=False,
        configs=[],
        conversations=a + b,
    )
    from polygon.projections.report import _summaries

    report.configs = _summaries(a + b)
    text = render_text(report)
    b_line = next(line for line in text.splitlines() if line.startswith("B "))
    assert b_line.rstrip().endswith("355 (2/4)"), b_line  # over 2 of 4 calls, said
    assert "over the calls where latency was measured" in text
    sides = [Side(label=x, run_id="r", config=x) for x in ("A", "B")]
    views = {
        r.record.conversation_id: conv(r.record.conversation_id, [(1, "agent", "Hello.")]) for r in a + b
    }
    comparison = build_comparison(
        sides, {"A": a, "B": b}, {}, views, rubric_version="v1", judges=["j"], heuristic=False
    )
    cards = {s.label: s for s in comparison.scorecards}
    assert cards["A"].latency_p95_ms == 605.0 and cards["B"].latency_p95_ms == 355.0  # alone: B looks faster
    assert (
        cards["A"].latency_common_p95_ms == 305.0 and cards["B"].latency_common_p95_ms == 355.0
    )  # like with like
    assert cards["A"].latency_common_calls == 2
    text = "\n".join(comparison_lines(comparison))
    assert "over the 2 (scenario, trial) calls measured on every side" in text
    assert "B 355 over 2 of 4 calls" in text
    assert "| B |" in comparison_markdown(comparison)


def test_markdown_report_is_a_table_with_the_calls_that_did_not_pass(long_log: Path) -> None:
    code, out, _ = _cli(long_log, "report", "latest", "--format", "markdown")
    assert code == 0
    assert out.startswith(f"### Polygon run `{RUN_ID}`")
    assert f"| {CONFIG_A} |" in out and "|---|---:|" in out
    code, out, _ = _cli(long_log, "compare", "latest", "--format", "markdown")
    assert code == 0, out
    assert out.startswith("### Polygon comparison") and f"| {CONFIG_B} |" in out


def test_markdown_escapes_pipes() -> None:
    report = RunReport(
        run_id="r|x",
        rubric_version="v1",
        rubric_hash="h",
        judges=[],
        heuristic=False,
        configs=[],
        conversations=[],
    )
    report.conversations = [_row("c|d", "s", 0, 0.0)]
    from polygon.projections.report import _summaries

    report.configs = _summaries(report.conversations)
    out = render_markdown(report)
    assert "| c\\|d |" in out


def test_personas_list_fits_forty_character_ids(long_log: Path) -> None:
    suite = long_log.parent / "s" / "suite.yaml"
    code, out, all_ = _cli(long_log, "personas", "list", str(suite))
    assert code == 0, all_
    for persona in ("cooperative-check".ljust(40, "x"), "busy-check".ljust(40, "x")):
        _whole(persona, out)
    _aligned(out, "persona ", "type")
