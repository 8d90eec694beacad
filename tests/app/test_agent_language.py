"""End to end through the CLI: an agent answering a Croatian caller in English fails (trial39, defect 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner, Result

from polygon.cli.main import cli

LINE = Path(__file__).parent / "lang"


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def test_the_agent_in_another_language_than_the_call_fails_and_explain_names_the_turn(tmp_path: Path) -> None:
    folder = tmp_path / "lang"
    shutil.copytree(LINE, folder, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    log = tmp_path / "log"
    ran = polygon(log, "run", str(folder / "suite.yaml"), "--run-id", "rl")
    assert ran.exit_code == 0, ran.output
    report = polygon(log, "report", "rl", "--json")
    assert report.exit_code == 0, report.output
    verdicts = {
        r["record"]["config"]: r["verdict"]["verdict"] for r in json.loads(report.output)["conversations"]
    }
    assert verdicts == {"croatian": "pass", "english": "fail", "russian": "fail"}
    why = polygon(log, "explain", "rl.english.djelatnik.0")
    assert why.exit_code == 0, why.output
    assert "check:policy          FIRED: broken: policy:agent_language" in why.output
    assert "turn 1: the agent spoke en, the call's language is hr" in why.output
    assert "[heard en: this, is, you]" in why.output
    kept = polygon(log, "explain", "rl.croatian.djelatnik.0")
    assert "pass  policy:agent_language" in kept.output
