"""An end-call or transfer in the same answer as real tool calls: the calls run, then the call ends.

A model agent's built-in ``end_call``/``transfer_to_human`` beside real calls used to drop them
(``[refund_payment, end_call]`` just hung up), so a ``never: {tool: refund_payment}`` policy could
not fire and a stub's fault was never seen; a Python or HTTP agent's ``end`` beside tool calls was
dropped instead (it was stepped again). Each case reads back one run of a tiny suite through the
CLI: Python agents, and a model agent and an HTTP agent served by a real server on 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import ConversationEnded, LmdbLog, SpokenBesideTools, ToolCalled, TurnSpoken
from polygon.events.families import CheckRecorded
from tests.support.fault_server import completion, serve

SAID = "Your refund is on its way. Goodbye."
AGAIN = "I was stepped again."

AGENTS = f"""
from polygon.simulate.agents import AgentReply, ToolCall

REFUND = ToolCall(id="r1", name="refund_payment", arguments={{"order": "A-17"}})
NOTIFY = ToolCall(id="n1", name="notify_team", arguments={{}})


class Line:
    def __init__(self, reply):
        self.reply = reply

    def step(self, req):
        if req.tool_results:  # never reached: an ending reply is not stepped again
            return AgentReply(reply={AGAIN!r})
        return self.reply


def make_hangup(prompt="", params=None):
    return Line(AgentReply(reply={SAID!r}, tool_calls=[REFUND, NOTIFY], end="hangup"))


def make_transfer(prompt="", params=None):
    return Line(AgentReply(tool_calls=[REFUND], end="transfer"))
"""

SUITE = """
name: endings
seed: 5
max_turns: 3
openai_base_url: {url}
configs:
  py_hangup: {{agent: "python:ending_agents:make_hangup", prompt: "hangup"}}
  py_transfer: {{agent: "python:ending_agents:make_transfer", prompt: "transfer"}}
  model_hangup: {{agent: "model:openai/test-agent", prompt: "hangup"}}
  model_transfer: {{agent: "model:openai/test-agent", prompt: "transfer"}}
  http_hangup: {{agent: "{url}/step", prompt: "hangup"}}
noise: {{intensity: 0.0, language: en}}
tools:
  - name: refund_payment
    description: Refund an order.
    parameters: {{type: object, properties: {{order: {{type: string}}}}, required: [order]}}
    stub: {{mode: fixed, response: {{ok: true}}}}
  - name: notify_team
    description: Tell the team (always down here).
    parameters: {{type: object, properties: {{}}}}
    stub: {{mode: fixed, response: {{ok: true}}, faults: {{server_error: 1.0}}}}
policies:
  - name: no_refunds
    never: {{tool: refund_payment}}
personas:
  - {{id: owed, type: cooperative, outcome: success, difficulty: 1,
     goal: get my money back for order A-17, facts: {{name: Ana Horvat}}}}
scenarios:
  - {{id: refund, persona: owed}}
"""


def _call(name: str, arguments: str, cid: str) -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


def _answer(body: dict[str, Any]) -> dict[str, Any]:
    """The agent under test: an HTTP agent's step (Polygon's protocol), else a model's request."""
    if "heard" in body:
        if body["tool_results"]:
            return {"reply": AGAIN}
        calls = [{"id": "r1", "name": "refund_payment", "arguments": {"order": "A-17"}}]
        return {"reply": SAID, "tool_calls": [*calls, {"id": "n1", "name": "notify_team"}], "end": "hangup"}
    if body["messages"][-1]["role"] == "tool":
        return completion(AGAIN)
    # the system prompt says which way the model ends
    refund = _call("refund_payment", '{"order": "A-17"}', "r1")
    if body["messages"][0]["content"] == "hangup":  # the ending named between the real calls
        return completion(SAID, [refund, _call("end_call", "{}", "e1"), _call("notify_team", "{}", "n1")])
    return completion(None, [_call("transfer_to_human", '{"reason": "refund"}', "t1"), refund])


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The log of one run of every configuration, and how many answers the server gave."""
    tmp_path = tmp_path_factory.mktemp("endings")
    log = tmp_path / "log"
    with serve(["smart"]) as (url, server):
        server.smart = _answer
        (tmp_path / "ending_agents.py").write_text(AGENTS)
        (tmp_path / "suite.yaml").write_text(SUITE.format(url=url))
        args = ["run", str(tmp_path / "suite.yaml"), "--run-id", "e", "--no-progress"]
        res = CliRunner().invoke(cli, ["--log", str(log), *args])
        assert res.exit_code == 0, res.output
        asked = len(server.requests)
    return log, asked


def _events(log: Path, config: str) -> list[object]:
    with LmdbLog(log, readonly=True) as opened:
        return [e.payload for e in opened.read_stream(f"conv/e.{config}.refund.0")]


def _said(events: list[object]) -> list[TurnSpoken]:
    return [e for e in events if isinstance(e, TurnSpoken) and e.speaker == "agent"]


def test_the_real_calls_run_in_order_then_the_call_hangs_up(ran: tuple[Path, int]) -> None:
    log, asked = ran
    assert asked == 3  # one answer per agent: none was asked again after its tools
    for config in ("py_hangup", "model_hangup", "http_hangup"):
        events = _events(log, config)
        order = [
            type(e).__name__ for e in events if isinstance(e, SpokenBesideTools | ToolCalled | TurnSpoken)
        ]
        assert order == ["TurnSpoken", "SpokenBesideTools", "ToolCalled", "ToolCalled", "TurnSpoken"], config
        calls = [(c.index, c.tool, c.fault) for c in events if isinstance(c, ToolCalled)]
        # the stub's fault is recorded like any call's
        assert calls == [(0, "refund_payment", ""), (1, "notify_team", "server_error")], config
        assert [(t.text, t.ends_call) for t in _said(events)] == [(SAID, "hangup")], config
        ended = next(e for e in events if isinstance(e, ConversationEnded))
        assert (ended.reason, ended.by, ended.turns) == ("hangup", "agent", 1), config


def test_a_transfer_beside_a_real_call_runs_it_then_transfers(ran: tuple[Path, int]) -> None:
    log, _ = ran
    for config in ("py_transfer", "model_transfer"):
        events = _events(log, config)
        assert [c.tool for c in events if isinstance(c, ToolCalled)] == ["refund_payment"], config
        assert not [e for e in events if isinstance(e, SpokenBesideTools)], config
        # what was said is what is recorded: no stand-in farewell beside a real call
        assert [(t.text, t.ends_call) for t in _said(events)] == [("", "transfer")], config
        ended = next(e for e in events if isinstance(e, ConversationEnded))
        assert (ended.reason, ended.by) == ("transfer", "agent"), config


def test_a_never_policy_on_the_call_beside_the_ending_fires(ran: tuple[Path, int]) -> None:
    log, _ = ran
    for config in ("py_hangup", "py_transfer", "model_hangup", "model_transfer", "http_hangup"):
        check = next(
            e for e in _events(log, config) if isinstance(e, CheckRecorded) and e.check == "policy:no_refunds"
        )
        assert check.outcome == "fail", config


def test_replay_shows_the_calls_then_the_ending(ran: tuple[Path, int]) -> None:
    log, _ = ran
    for config in ("py_hangup", "model_hangup", "http_hangup"):
        out = CliRunner().invoke(cli, ["--log", str(log), "replay", f"e.{config}.refund.0"]).output
        assert AGAIN not in out, config
        said = out.index(f"calling tools: {SAID}")
        refund, notify = out.index("refund_payment("), out.index("notify_team(")
        assert said < refund < notify < out.index("[ends call: hangup]"), config
        assert "policy no_refunds BROKEN" in out, config
