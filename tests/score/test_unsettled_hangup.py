"""An agent that hangs up on a caller it never answered fails goal_reached (trial39 defect 5).

A refusal scenario whose ``expect`` is only ``no_calls`` passed a one-line brush-off and a
hang-up at 88.75, with goal_achievement 5 from the heuristic judge. Run end to end through
the CLI: the brush-off fails, a polite refusal with the same ``expect`` still passes.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli

SUITE = """
name: snakes
seed: 3
max_turns: 6
trials: 1
configs:
  quit: {agent: "python:snake_agents:make_quit"}
  refuse: {agent: "python:snake_agents:make_refuse"}
caller: {model: scripted/caller}
judge: {model: scripted/heuristic, rubric: v4}
tools:
  - name: book_appointment
    parameters: {type: object, properties: {pet: {type: string}}, required: [pet]}
    stub: {mode: fixed, response: {ok: true}}
personas:
  - {id: snake, type: chatty, outcome: refusal, difficulty: 2, goal: ask whether you treat pet snakes,
     facts: {name: Olga Berg}}
scenarios:
  - {id: snake, persona: snake, expect: {no_calls: [book_appointment]}}
"""

AGENTS = """
from polygon import AgentReply, AgentStep


class Line:
    def __init__(self, text):
        self.text = text

    def step(self, req: AgentStep) -> AgentReply:
        return AgentReply(reply=self.text, end="hangup")


def make_quit(prompt="", params=None):
    return Line("Paws and Claws. Sorry, we are very busy right now. Goodbye.")


def make_refuse(prompt="", params=None):
    return Line("I'm afraid we don't treat snakes, we only see cats and dogs. Goodbye.")
"""


def test_a_brush_off_and_hang_up_fails_a_polite_refusal_passes(tmp_path: Path) -> None:
    (tmp_path / "suite.yaml").write_text(SUITE)
    (tmp_path / "snake_agents.py").write_text(AGENTS)
    log, runner = str(tmp_path / "log"), CliRunner()
    ran = runner.invoke(cli, ["--log", log, "run", str(tmp_path / "suite.yaml"), "--run-id", "rsnake"])
    assert ran.exception is None, ran.output
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "rsnake", "--json"]).output)
    rows = {r["record"]["config"]: r for r in report["conversations"]}
    quit_, refuse = rows["quit"], rows["refuse"]
    assert quit_["verdict"]["verdict"] == "fail"
    reached = next(c["event"] for c in quit_["checks"] if c["event"]["check"] == "goal_reached")
    assert "the agent hung up without settling the caller's goal" in reached["detail"]
    goal = next(c for c in quit_["verdict"]["criteria"] if c["criterion"] == "goal_achievement")
    assert goal["value"] == 1.0  # the heuristic judge: the caller was left stuck
    assert refuse["verdict"]["verdict"] == "pass"
