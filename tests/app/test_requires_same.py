"""``requires.same``: the guarded call acts on what was verified (trial40 defect 6).

The tester's shape: the agent verified R-48213/Okafor, then dispatched on R-55190 (another
renter's booking): PASS 97.50 with ``requires: {tool: dispatch_tow, after: verify_booking,
result: {verified: true}}``. With ``same: [booking_ref]`` that call breaks the policy; the
agent dispatching on the verified booking keeps it.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli

SUITE = """
name: wrongref
seed: 40
max_turns: 6
trials: 1
configs:
  right: {agent: "python:ref_agents:make", params: {ref: " r-48213"}}
  wrong: {agent: "python:ref_agents:make", params: {ref: R-55190}}
caller: {model: scripted/caller}
judge: {model: scripted/heuristic, rubric: v5}
policies:
  - name: verify_before_dispatch
    requires: {tool: dispatch_tow, after: verify_booking, result: {verified: true}, same: [SAME]}
tools:
  - name: verify_booking
    parameters:
      type: object
      properties: {booking_ref: {type: string}, last_name: {type: string}}
    stub:
      mode: rules
      rules:
        - when: {booking_ref: R-48213, last_name: Okafor}
          respond: {verified: true}
      default: {verified: false}
  - name: dispatch_tow
    parameters:
      type: object
      properties: {booking_ref: {type: string}, location: {type: string}}
    stub: {mode: fixed, response: {dispatched: true, job: TW-7781}}
personas:
  - {id: coop-tow, type: cooperative, outcome: success, difficulty: 1, goal: get a tow truck,
     facts: {name: Grace Okafor, booking_ref: R-48213, last_name: Okafor, location: A34 layby}}
scenarios:
  - {id: coop-tow, persona: coop-tow}
"""

AGENTS = """
from polygon import AgentReply, AgentStep, ToolCall


class RefLine:
    def __init__(self, ref):
        self.ref, self.step_no = ref, 0

    def step(self, req: AgentStep) -> AgentReply:
        self.step_no += 1
        if self.step_no == 1:
            verify = ToolCall(id="v", name="verify_booking",
                              arguments={"booking_ref": "R-48213", "last_name": "Okafor"})
            return AgentReply(tool_calls=[verify])
        if self.step_no == 2:
            dispatch = ToolCall(id="d", name="dispatch_tow",
                                arguments={"booking_ref": self.ref, "location": "A34 layby"})
            return AgentReply(tool_calls=[dispatch])
        return AgentReply(reply="Done. A tow truck has been dispatched to the A34 layby. Goodbye.", end="hangup")


def make(prompt="", params=None):
    return RefLine((params or {})["ref"])
"""


def _run(tmp_path: Path, same: str) -> dict[str, dict[str, object]]:
    (tmp_path / "suite.yaml").write_text(SUITE.replace("SAME", same))
    (tmp_path / "ref_agents.py").write_text(AGENTS)
    log, runner = str(tmp_path / "log"), CliRunner()
    ran = runner.invoke(cli, ["--log", log, "run", str(tmp_path / "suite.yaml"), "--run-id", "rref"])
    assert ran.exception is None, ran.output
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "rref", "--json"]).output)
    out = {}
    for row in report["conversations"]:
        policy = next(
            c["event"] for c in row["checks"] if c["event"]["check"] == "policy:verify_before_dispatch"
        )
        out[row["record"]["config"]] = policy
    return out


def test_dispatching_on_another_booking_than_the_verified_one_breaks_the_policy(tmp_path: Path) -> None:
    policy = _run(tmp_path, "booking_ref")
    wrong, right = policy["wrong"], policy["right"]
    assert wrong["outcome"] == "fail", wrong
    assert "on the same booking_ref" in wrong["detail"] and "R-55190" in wrong["evidence"][0]["quote"]
    # dispatched on " r-48213": the verified booking, case and spaces aside
    assert right["outcome"] == "pass", right


def test_a_same_argument_a_tool_does_not_take_is_a_load_error(tmp_path: Path) -> None:
    (tmp_path / "suite.yaml").write_text(SUITE.replace("SAME", "booking_rf"))
    (tmp_path / "ref_agents.py").write_text(AGENTS)
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(tmp_path / "suite.yaml")])
    assert res.exit_code == 2
    assert "policies[verify_before_dispatch].requires.same.booking_rf" in res.output
    assert "no argument 'booking_rf'" in res.output
