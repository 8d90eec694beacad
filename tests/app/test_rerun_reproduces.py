"""``rerun`` of a correct call against its own configuration reproduces it (trial40 D12).

The replayed caller's goodbye ends the new call as it ended the source, the scenario's
``expect`` from --suite scores it, and an agent turn that states another amount parts from
the source even though most of its words are the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from polygon.cli.main import cli

AGENTS = '''
from typing import Any

from polygon import AgentReply, AgentStep, ToolCall


class Priced:
    """Places the order, states its price, and waits for the caller to say goodbye."""

    def __init__(self, price: str) -> None:
        self.price, self.ordered = price, False

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results:
            self.ordered = True
            return AgentReply(reply=f"Done: a medium veggie for 18:30, {self.price} euros. Anything else?")
        if req.turn == 1:
            return AgentReply(reply="Pizza Roma. What can I get you, and for what time?")
        if self.ordered:  # reached only when the caller's goodbye did not end the call
            return AgentReply(reply="Thank you for calling, goodbye!", end="hangup")
        args = {"name": "Ana Horvat", "pizza": "Medium Veggie", "time": "18:30"}
        return AgentReply(reply="One moment.", tool_calls=[ToolCall(id="c1", name="place_order", arguments=args)])


def make(prompt: str = "", params: dict[str, Any] | None = None) -> Priced:
    return Priced(str((params or {}).get("price", "12")))
'''

SUITE = """
name: pizza-rerun
seed: 5
judge: {model: scripted/heuristic, rubric: v5}
max_turns: 8
configs:
  twelve: {agent: "python:rerun_shop_agents:make", prompt: "A medium veggie is 12 euros.", params: {price: "12"}}
  fourteen: {agent: "python:rerun_shop_agents:make", prompt: "A medium veggie is 14 euros.", params: {price: "14"}}
noise: {intensity: 0.0, language: en}
stores:
  orders: {"Ana Horvat": none}
tools:
  - name: place_order
    description: Place an order for a caller.
    parameters:
      type: object
      properties: {name: {type: string}, pizza: {type: string}, time: {type: string}}
      required: [name, pizza, time]
    stub: {mode: stateful, store: orders, action: put, key_arg: name, value: "{{ args.pizza }}"}
personas:
  - id: veggie
    type: cooperative
    outcome: success
    difficulty: 1
    goal: order a medium veggie pizza for 18:30
    facts: {name: Ana Horvat, request: Medium Veggie, preferred_time: "18:30"}
scenarios:
  - id: veggie-order
    persona: veggie
    expect:
      calls: {place_order.pizza: {fact: request}, place_order.time: {fact: preferred_time}}
      state: {orders: {"Ana Horvat": {fact: request}}}
"""

SOURCE = "s.twelve.veggie-order.0"


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def _suite(tmp_path: Path) -> Path:
    (tmp_path / "rerun_shop_agents.py").write_text(AGENTS)
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE)
    return path


def _row(log: Path, run_id: str) -> dict[str, Any]:
    res = polygon(log, "report", run_id, "--json")
    assert res.exit_code == 0, res.output
    [row] = json.loads(res.output)["conversations"]
    return dict(row)


def _check(row: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c["event"] for c in row["checks"] if c["event"]["check"] == name)


def _rerun(log: Path, suite: Path, config: str, run_id: str) -> Result:
    res = polygon(log, "rerun", SOURCE, "--suite", str(suite), "--config", config, "--run-id", run_id)
    assert res.exit_code == 0, res.output
    return res


def test_a_rerun_against_its_own_configuration_reproduces_the_verdict(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", _suite(tmp_path)
    assert (
        polygon(log, "run", str(suite), "--config", "twelve", "--run-id", "s", "--no-progress").exit_code == 0
    )
    res = _rerun(log, suite, "twelve", "x")
    assert f"never parted from {SOURCE}; ended caller_done" in res.output  # the goodbye ended it
    source, again = _row(log, "s"), _row(log, "x")
    assert (
        _check(source, "end_reason")["detail"]
        == _check(again, "end_reason")["detail"]
        == "caller_done by caller"
    )
    goal = _check(again, "goal_reached")
    assert goal["detail"].startswith("expect:"), goal  # the scenario's expect, not the inferred goal
    assert goal["outcome"] == _check(source, "goal_reached")["outcome"] == "pass"
    assert again["verdict"]["verdict"] == source["verdict"]["verdict"] == "pass"
    assert again["verdict"]["composite"] == source["verdict"]["composite"]


def test_a_rerun_that_states_another_amount_parts_at_that_turn(tmp_path: Path) -> None:
    log, suite = tmp_path / "log", _suite(tmp_path)
    assert (
        polygon(log, "run", str(suite), "--config", "twelve", "--run-id", "s", "--no-progress").exit_code == 0
    )
    res = _rerun(log, suite, "fourteen", "x")
    assert f"parted from {SOURCE} at turn 2: values" in res.output, res.output
    found = json.loads(polygon(log, "divergence", SOURCE, "x.fourteen.veggie-order.0", "--json").output)
    assert found["divergence"]["reason"] == "values" and found["divergence"]["turn"] == 2
