"""An agent that reports its outcome without a "done" word settles the call (trial41 D2).

The utility line's correct agent said "Your power cut is logged, ticket OUT-5521." and hung
up; goal_reached failed it for hanging up "without settling the caller's goal (it said no
outcome ...)". Run end to end through the CLI: the plain report settles the goal, an agent
that says the report was *not* logged and hangs up still fails.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli

SUITE = """
name: outage
seed: 3
max_turns: 6
trials: 1
configs:
  plain: {agent: "python:outage_agents:make_plain"}
  unlogged: {agent: "python:outage_agents:make_unlogged"}
caller: {model: scripted/caller}
judge: {model: scripted/heuristic, rubric: v4}
tools:
  - name: report_outage
    parameters: {type: object, properties: {postcode: {type: string}}, required: [postcode]}
    stub: {mode: fixed, response: {ticket: OUT-5521}}
personas:
  - {id: tom, type: cooperative, outcome: success, difficulty: 2, goal: report a power cut,
     facts: {name: Tom Reed}}
scenarios:
  - {id: cut, persona: tom, expect: {}}
"""

AGENTS = """
from polygon import AgentReply, AgentStep


class Line:
    def __init__(self, text):
        self.text = text

    def step(self, req: AgentStep) -> AgentReply:
        return AgentReply(reply=self.text, end="hangup")


def make_plain(prompt="", params=None):
    return Line("Your power cut is logged, ticket OUT-5521. Power should be back at 16:00. Goodbye.")


def make_unlogged(prompt="", params=None):
    return Line("Your power cut has not been logged yet. Goodbye.")
"""


def _reached(row: dict[str, object]) -> str:
    checks = row["checks"]
    assert isinstance(checks, list)
    return str(next(c["event"]["detail"] for c in checks if c["event"]["check"] == "goal_reached"))


def test_a_plain_report_settles_the_goal_a_negated_one_does_not(tmp_path: Path) -> None:
    (tmp_path / "suite.yaml").write_text(SUITE)
    (tmp_path / "outage_agents.py").write_text(AGENTS)
    log, runner = str(tmp_path / "log"), CliRunner()
    ran = runner.invoke(cli, ["--log", log, "run", str(tmp_path / "suite.yaml"), "--run-id", "rcut"])
    assert ran.exception is None, ran.output
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "rcut", "--json"]).output)
    rows = {r["record"]["config"]: r for r in report["conversations"]}
    assert "without settling" not in _reached(rows["plain"])
    assert "the agent hung up without settling the caller's goal" in _reached(rows["unlogged"])
