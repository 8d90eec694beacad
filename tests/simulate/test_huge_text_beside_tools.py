"""Huge text beside many tool calls: the agent's turn keeps the reply's cap, scoring stays linear.

An agent said 100k characters beside 32 tool calls in two rounds: the turn was 200k long, the
invalid-call check quoted it once per invalid call (15 MB from ``explain``), and two regular
expressions rescanned a long run from every position (minutes of CPU for 9 calls, the first
Ctrl-C unheard meanwhile). The run here ending at all is the check on speed: the suite's
timeout is the hang detector, nothing is timed.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.boundary import MAX_TEXT
from polygon.cli.main import cli
from polygon.events import LmdbLog, SpokenBesideTools, TurnSpoken
from polygon.events.families import CheckRecorded
from polygon.score.detectors import emails
from polygon.score.tool_facts import values_in
from tests.support.dying import tag_counts

HANG = 60
"""Seconds after the first Ctrl-C by which the run must have ended (a hang detector, not a speed bound)."""

AGENTS = """
from polygon.simulate.agents import AgentReply, ToolCall


def calls(off):
    # every other call names no tool: invalid, never retried
    return [ToolCall(id=f"c{i + off}", name="order_status" if i % 2 == 0 else f"nosuch_{i}",
                     arguments={"order_id": "A-100"}) for i in range(32)]


class Huge:
    def __init__(self):
        self.replies = [AgentReply(reply="1" * 150_000, tool_calls=calls(0)),
                        AgentReply(reply="X" * 150_000, tool_calls=calls(100)),
                        AgentReply(reply="done", end="hangup")]

    def step(self, req):
        return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]


def make_huge(prompt="", params=None):
    return Huge()
"""

SUITE = """
name: huge
seed: 4
max_turns: 2
configs:
  huge: {agent: "python:huge_agents:make_huge", prompt: "You answer an order line."}
noise: {intensity: 0.0, language: en}
tools:
  - name: order_status
    description: An order's status.
    parameters: {type: object, properties: {order_id: {type: string}}, required: [order_id]}
    stub: {mode: fixed, response: {status: shipped, eta: "2025-05-02"}}
personas:
  - {id: buyer, type: cooperative, outcome: success, difficulty: 1,
     goal: ask where order A-100 is, facts: {name: Ivo Kos}}
scenarios:
  - {id: where, persona: buyer}
"""

CUT_MARK = len(f"…(cut at {MAX_TEXT} characters)")


def _events(tmp_path: Path) -> list[object]:
    (tmp_path / "huge_agents.py").write_text(AGENTS)
    (tmp_path / "suite.yaml").write_text(SUITE)
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(tmp_path / "suite.yaml"), "--run-id", "h"])
    assert res.exit_code == 0, res.output
    with LmdbLog(log, readonly=True) as opened:
        return [e.payload for e in opened.read_stream("conv/h.huge.where.0")]


def test_text_beside_tools_and_the_turn_keep_the_reply_cap_and_checks_quote_a_turn_once(tmp_path: Path) -> None:
    events = _events(tmp_path)
    beside = [e for e in events if isinstance(e, SpokenBesideTools)]
    assert [len(b.text) for b in beside] == [MAX_TEXT + CUT_MARK] * 2  # each part cut like a reply
    agent = next(e for e in events if isinstance(e, TurnSpoken) and e.speaker == "agent")
    assert len(agent.text) == MAX_TEXT + CUT_MARK  # the two parts and the reply: one cap, not three
    assert agent.text.startswith("1" * 1000)
    checks = {e.check: e for e in events if isinstance(e, CheckRecorded)}
    answer = checks["invalid_tool_answer"]
    assert answer.outcome == "fail"
    quotes = [q.quote for q in answer.evidence]
    assert sum(q.startswith("nosuch_") for q in quotes) == 32  # every invalid call named ...
    assert sum(q.startswith("AGENT: ") for q in quotes) == 1  # ... the answer quoted once
    for check in checks.values():  # no check repeats the turn per tool call
        assert sum(len(q.quote) for q in check.evidence) <= 2 * (MAX_TEXT + CUT_MARK + 10), check.check


def test_long_runs_read_as_before_without_rescanning() -> None:
    # 100k characters with no "@" and 100k digits: once quadratic, now read in one pass
    assert emails("x" * 100_000) == []
    assert emails("write to anna.kos+1@example.com today")[0].value == "anna.kos+1@example.com"
    assert [v.kind for v in values_in("1" * 100_000 + " dollars")] == ["amount"]
    assert [(v.kind, v.value) for v in values_in("that is 1,250.50 dollars")] == [("amount", "1250.5")]


def test_the_first_ctrl_c_while_huge_calls_are_scored_ends_the_run(tmp_path: Path) -> None:
    (tmp_path / "huge_agents.py").write_text(AGENTS)
    (tmp_path / "suite.yaml").write_text(SUITE.replace("max_turns: 2", "max_turns: 2\ntrials: 6"))
    log = tmp_path / "log"
    args = ["run", str(tmp_path / "suite.yaml"), "--run-id", "h", "--no-progress"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "polygon", "--log", str(log), *args],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while tag_counts(log).get("conversation.ended", 0) < 1:  # a call is over: calls are being scored
        assert time.monotonic() < deadline and proc.poll() is None, "no call ended"
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)  # once: the second would end the process whatever it does
    try:
        _, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"still running {HANG} s after one Ctrl-C: scoring never reached a safe point")
    # 0: the last call was scored as the signal came; -SIGINT: it landed as Python exited, after
    # the run (Python's own default action then, every commit made: a shell shows 130)
    assert proc.returncode in (0, 130, -signal.SIGINT), err
    assert "Traceback" not in err and "interrupted again" not in err, err
