"""A suite that names no rubric is scored under the newest gating one, not v1 (default45).

Under v1 (the old default) a hand-written suite without ``judge: {rubric: …}`` passed calls
that broke a policy or missed their ``expect:``. Runs recorded under the old default keep
their own v1: the rubric is read from ``run.started``, never from today's default.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner, Result

from polygon.cli.main import cli
from polygon.events import content_hash
from polygon.score import bundled_versions, load_rubric
from polygon.suite import NEWEST_GATING, load_suite

LINE = Path(__file__).parent / "refund_line"
STATED = "judge: {model: scripted/heuristic, rubric: v4}\n"


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def _line(tmp_path: Path, judge: str) -> Path:
    """The refund line (its ``promises`` agent breaks ``policy:prompt_forbids``) with ``judge``."""
    folder = tmp_path / "refund_line"
    shutil.copytree(LINE, folder, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"), dirs_exist_ok=True)
    suite = folder / f"suite-{content_hash(judge)[:8]}.yaml"
    text = (LINE / "suite.yaml").read_text("utf-8")
    assert STATED in text
    suite.write_text(text.replace(STATED, judge), "utf-8")
    return suite


def _report(log: Path, *args: str) -> dict[str, object]:
    shown = polygon(log, "report", *args, "--json")
    assert shown.exit_code == 0, shown.output
    report: dict[str, object] = json.loads(shown.output)
    return report


def _verdicts(report: dict[str, object]) -> dict[str, str]:
    rows = report["conversations"]
    assert isinstance(rows, list)
    return {r["record"]["config"]: r["verdict"]["verdict"] for r in rows}


def test_the_default_is_the_newest_bundled_rubric_and_it_gates_on_every_stated_rule() -> None:
    newest = max(bundled_versions(), key=lambda v: int(v.removeprefix("v")))
    assert newest == NEWEST_GATING  # a bundled v6 moves the one name
    gates = set(load_rubric(NEWEST_GATING).rubric.gates)
    assert {"check:policy", "check:goal_reached", "check:loop", "check:agent_contradicts_tools"} <= gates


def test_a_suite_without_a_rubric_fails_the_call_that_breaks_a_built_in_policy(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = _line(tmp_path, "judge: {model: scripted/heuristic}\n")
    assert load_suite(suite).suite.judge.rubric == NEWEST_GATING
    ran = polygon(log, "run", str(suite), "--run-id", "new", "--no-progress")
    assert ran.exit_code == 0, ran.output
    assert "does not gate" not in ran.output
    report = _report(log, "new")
    assert report["rubric_version"] == NEWEST_GATING
    assert _verdicts(report) == {"keeps": "pass", "promises": "fail"}


def test_a_run_under_the_old_default_keeps_reporting_and_judging_under_v1(tmp_path: Path) -> None:
    """``judge: {rubric: v1}`` is what the old default recorded: the same hash, the same run.started."""
    log = tmp_path / "log"
    old = _line(tmp_path, "judge: {model: scripted/heuristic, rubric: v1}\n")
    ran = polygon(log, "run", str(old), "--run-id", "old", "--no-progress")
    assert ran.exit_code == 0, ran.output
    assert "policy:agent_language" in ran.output  # the warning counts the built-in policies
    report = _report(log, "old")
    assert report["rubric_version"] == "v1"
    assert _verdicts(report) == {"keeps": "pass", "promises": "pass"}  # v1 does not gate on policies
    judged = polygon(log, "judge", "old", "--repeats", "2")  # no --rubric: the run's own
    assert judged.exit_code == 0, judged.output
    assert _report(log, "old", "--pass", "v1/scripted/heuristic/k2")["rubric_version"] == "v1"
    compared = polygon(log, "compare", "old", "--json")
    assert compared.exit_code == 0, compared.output
    assert json.loads(compared.output)["rubric_version"] == "v1"
    explained = polygon(log, "explain", "old.promises.kettle.0")
    assert explained.exit_code == 0, explained.output
    assert "rubric v1" in explained.output


def test_a_stated_rubric_keeps_the_hash_and_a_missing_one_hashes_as_the_newest(tmp_path: Path) -> None:
    unstated = load_suite(_line(tmp_path, "judge: {model: scripted/heuristic}\n"))
    newest = load_suite(_line(tmp_path, f"judge: {{model: scripted/heuristic, rubric: {NEWEST_GATING}}}\n"))
    v1 = load_suite(_line(tmp_path, "judge: {model: scripted/heuristic, rubric: v1}\n"))
    assert unstated.suite_hash == newest.suite_hash
    # The refund line as shipped states v4: its hash is the one it had before the default moved.
    assert load_suite(LINE / "suite.yaml").suite_hash == "cdcd93a6751cbe892e0da1c41240116b"
    assert unstated.suite.caller.rubric == "v1"  # never read: the caller's dump (and hash) holds
    # Stating v1 gives the hash the old default gave this suite: that default dumped as v1.
    dumped = unstated.suite.model_dump(mode="json")
    dumped["judge"]["rubric"] = "v1"
    assert v1.suite.model_dump(mode="json") == dumped
    assert v1.suite_hash != unstated.suite_hash


def test_resuming_a_run_of_the_old_default_names_the_rubric(tmp_path: Path) -> None:
    log = tmp_path / "log"
    ran = polygon(log, "run", str(_line(tmp_path, STATED.replace("v4", "v1"))), "--run-id", "r")
    assert ran.exit_code == 0, ran.output
    resumed = polygon(log, "run", str(_line(tmp_path, "judge: {model: scripted/heuristic}\n")), "--resume", "r")
    assert resumed.exit_code != 0
    assert f"started under rubric v1 and the suite now scores under {NEWEST_GATING}" in resumed.output
    assert "state judge: {rubric: v1}" in resumed.output
