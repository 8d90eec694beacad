"""Defects a tester found as a demanding user (notes/trial.md 3, 5, 7), each reproduced on a pizza run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from polygon.app.passes import run_started, start_run
from polygon.cli.main import cli
from polygon.events import LmdbLog
from tests.support.runs import pizza

CONV = "p.good.veggie.0"
V1_PASS = "v1/scripted/heuristic/k1"


def _cli(log: Path, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args], input=stdin)


@pytest.fixture(scope="module")
def judged_twice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run ``p`` (config good), scored under v1 as it ran and judged again under v2."""
    folder = tmp_path_factory.mktemp("judged")
    log = folder / "log"
    ran = _cli(log, "run", str(pizza(folder)), "--config", "good", "--run-id", "p", "--no-progress")
    assert ran.exit_code == 0, ran.output
    judged = _cli(log, "judge", "p", "--rubric", "v2")
    assert judged.exit_code == 0, judged.output
    return log


def test_explain_takes_the_rubric_from_the_pass_id(judged_twice: Path) -> None:
    alone = _cli(judged_twice, "explain", CONV, "--pass", V1_PASS)
    assert alone.exit_code == 0, alone.output
    assert "rubric v1 (hash " in alone.output and f"pass {V1_PASS}" in alone.output
    agreeing = _cli(judged_twice, "explain", CONV, "--pass", V1_PASS, "--rubric", "v1")
    assert agreeing.exit_code == 0 and agreeing.output == alone.output
    contradicting = _cli(judged_twice, "explain", CONV, "--pass", V1_PASS, "--rubric", "v2")
    assert contradicting.exit_code == 2
    assert f"pass '{V1_PASS}' was judged under rubric v1, not v2" in contradicting.output
    unknown = _cli(judged_twice, "explain", CONV, "--pass", "v9/nobody/k1")
    assert unknown.exit_code == 2
    assert f"no pass 'v9/nobody/k1' (passes: {V1_PASS}, v2/scripted/heuristic/k1)" in unknown.output


def test_report_takes_the_rubric_from_the_pass_id(judged_twice: Path) -> None:
    shown = _cli(judged_twice, "report", "p", "--pass", V1_PASS)
    assert shown.exit_code == 0, shown.output
    assert shown.output == _cli(judged_twice, "report", "p", "--pass", V1_PASS, "--rubric", "v1").output
    assert _cli(judged_twice, "report", "p", "--pass", V1_PASS, "--rubric", "v2").exit_code == 2


def test_report_on_a_run_not_finished_says_so_and_sends_nobody_to_judge(judged_twice: Path, tmp_path: Path) -> None:
    """A run whose log holds its start only: still simulating (no call ended) or stopped."""
    with LmdbLog(judged_twice, readonly=True) as done:
        started = run_started(done, "p")
    with LmdbLog(tmp_path / "log") as log:
        start_run(log, started, lambda: "")
    res = _cli(tmp_path / "log", "report", "p")
    assert res.exit_code == 2
    assert "run p has not finished and no call of it is scored yet: it is still running, or it stopped" in res.output
    assert "polygon judge" not in res.output


@pytest.mark.parametrize(
    ("typed", "stopped"),
    [
        ("q\n", "stopped after 0 of 3 turns: the user typed q"),
        ("\nquit\n", "stopped after 1 of 3 turns: the user typed quit"),
        ("\n", "stopped after 1 of 3 turns: stdin ended"),
    ],
)
def test_replay_step_says_whether_the_user_stopped_it_or_stdin_ended(
    judged_twice: Path, typed: str, stopped: str
) -> None:
    res = CliRunner().invoke(cli, ["--log", str(judged_twice), "replay", CONV, "--step"], input=typed)
    assert res.exit_code == 0, res.output
    assert res.stderr.strip().splitlines() == [stopped]


def test_import_of_bad_json_names_the_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"messages": [{"role": "user", "content": "hi"}]}\n  {"bad json\n')
    res = _cli(tmp_path / "log", "import", str(bad), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["problems"] == [
        f"{bad}:2: not valid JSON (Unterminated string starting at line 2 column 4)"
    ]
    alone = tmp_path / "alone.jsonl"
    alone.write_text('{"bad json\n')
    refused = _cli(tmp_path / "log", "import", str(alone))
    assert refused.exit_code == 2
    assert "alone.jsonl:1: not valid JSON (Unterminated string starting at line 1 column 2)" in refused.output
