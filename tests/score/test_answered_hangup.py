"""An answer to a caller who only asked settles the call (trial42 D4).

A claims line's status answer ("Ihr Schaden SN-40117 ist in Prüfung, der Gutachtertermin ist
am Dienstag 14:00.") and a hotel's advice ("… contact your embassy or consulate"), each
followed by a goodbye and the agent's hang-up, failed goal_reached: "the agent hung up
without settling the caller's goal". Run end to end through the CLI, the agent answering and
hanging up in the same turn (so the caller never gets to close): a status read from the
tool, or the advice ``expect.says`` asks for, settles; a hang-up that only reads back the
caller's own claim number, or gives advice without the required phrase, still fails.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli

SUITE = """
name: answers
seed: 5
max_turns: 6
trials: 1
configs:
  status: {agent: "python:answer_agents:make_status"}
  echo: {agent: "python:answer_agents:make_echo"}
  advice: {agent: "python:answer_agents:make_advice"}
  vague: {agent: "python:answer_agents:make_vague"}
caller: {model: scripted/caller}
judge: {model: scripted/heuristic, rubric: v4}
tools:
  - name: claim_status
    parameters: {type: object, properties: {schaden_nr: {type: string}}, required: [schaden_nr]}
    stub: {mode: fixed, response: {schaden_nr: SN-40117, status: in Prüfung, gutachter: Dienstag 14:00}}
personas:
  - {id: stand, type: busy, outcome: success, difficulty: 1, language: de,
     goal: den Stand seines Schadens SN-40117 erfahren,
     facts: {name: Stefan Müller, schadennummer: SN-40117}}
  - {id: passport, type: cooperative, outcome: success, difficulty: 1, language: en,
     goal: find out what to do after losing the passport,
     facts: {name: Kenji Tanaka}}
scenarios:
  - {id: stand, persona: stand, expect: {calls: {claim_status: {schaden_nr: SN-40117}}}}
  - {id: passport, persona: passport, expect: {says: [[embassy, consulate]]}}
"""

AGENTS = """
from polygon import AgentReply, AgentStep, ToolCall


class Agent:
    def __init__(self, said):
        self.said = said

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results or "passport" in req.heard.lower():
            return AgentReply(reply=self.said, end="hangup")
        call = ToolCall(id="c1", name="claim_status", arguments={"schaden_nr": "SN-40117"})
        return AgentReply(reply="", tool_calls=[call])


def make_status(prompt="", params=None):
    return Agent("Ihr Schaden SN-40117 ist in Prüfung, der Gutachter kommt am Dienstag 14:00. Auf Wiederhören.")


def make_echo(prompt="", params=None):
    return Agent("Ihr Schaden SN-40117, ich habe nachgesehen. Auf Wiederhören.")


def make_advice(prompt="", params=None):
    return Agent("Please report the loss to the police and contact your embassy or consulate. Goodbye.")


def make_vague(prompt="", params=None):
    return Agent("Please keep calm, these things happen to many guests. Goodbye.")
"""


def _reached(row: dict[str, object]) -> str:
    checks = row["checks"]
    assert isinstance(checks, list)
    return str(next(c["event"]["detail"] for c in checks if c["event"]["check"] == "goal_reached"))


def test_a_status_or_required_advice_settles_an_echo_or_a_vague_line_does_not(tmp_path: Path) -> None:
    (tmp_path / "suite.yaml").write_text(SUITE)
    (tmp_path / "answer_agents.py").write_text(AGENTS)
    log, runner = str(tmp_path / "log"), CliRunner()
    ran = runner.invoke(cli, ["--log", log, "run", str(tmp_path / "suite.yaml"), "--run-id", "rans"])
    assert ran.exception is None, ran.output
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "rans", "--json"]).output)
    rows = {(r["record"]["config"], r["record"]["scenario"]): r for r in report["conversations"]}
    unsettled = "the agent hung up without settling the caller's goal"
    assert unsettled not in _reached(rows["status", "stand"])
    assert unsettled not in _reached(rows["advice", "passport"])
    assert rows["status", "stand"]["verdict"]["verdict"] == "pass"
    assert rows["advice", "passport"]["verdict"]["verdict"] == "pass"
    assert unsettled in _reached(rows["echo", "stand"])  # the caller's own claim number is no answer
    assert "no value its tools returned" in _reached(rows["echo", "stand"])
    assert unsettled in _reached(rows["vague", "passport"])
