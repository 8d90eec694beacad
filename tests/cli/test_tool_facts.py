"""End to end: an agent that tells the caller a time its own tool gave otherwise fails (trial39, defect 1)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from polygon.cli.main import cli

SUITE = Path(__file__).parent / "outage_line" / "suite.yaml"


def _cli(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def test_the_inventing_line_fails_on_its_tool_and_the_correct_one_passes(tmp_path: Path) -> None:
    log = tmp_path / "log"
    ran = _cli(log, "run", str(SUITE), "--run-id", "o", "--no-progress")
    assert ran.exit_code == 0, ran.output
    report = json.loads(_cli(log, "report", "o", "--json").output)
    verdicts = {c["record"]["config"]: c["verdict"]["verdict"] for c in report["conversations"]}
    assert verdicts == {"correct": "pass", "invents": "fail"}
    explained = _cli(log, "explain", "o.invents.coop-outage.0")
    assert explained.exit_code == 0, explained.output
    assert "check:agent_contradicts_tools FIRED" in explained.output
    assert "said '13:00', outage_status gave the time '16:00'" in explained.output
    assert _cli(log, "report", "o", "--fail-on", "fail").exit_code == 1
