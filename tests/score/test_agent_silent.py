"""An agent turn that says nothing is flagged: ``check:agent_silent`` (infogoal45).

A model that returns an empty reply (``""``, whitespace, punctuation) and no tool call makes
the caller hear silence; the protocol allows it, so no check said so. Run through the CLI:
one silent turn the agent recovers from passes, named; silence twice or a call that ends on
it fails, shown in report, explain and replay; a call whose agent always spoke records no
such check (its events stay as they were); a rubric that gates on it fails the call.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import CheckRecorded
from polygon.score.silence import agent_silent
from polygon.transcript import ConversationView, ToolView, TurnView

SUITE = """
name: quiet
seed: 4
max_turns: 5
trials: 1
configs:
  speaks: {agent: "python:quiet_agents:make_speaks"}
  once: {agent: "python:quiet_agents:make_once"}
  twice: {agent: "python:quiet_agents:make_twice"}
  mute: {agent: "python:quiet_agents:make_mute"}
caller: {model: scripted/caller}
judge: {model: scripted/heuristic, rubric: RUBRIC}
personas:
  - {id: p, type: cooperative, outcome: success, difficulty: 1, language: en,
     goal: book a table for two, facts: {name: Ana Silva}}
scenarios:
  - {id: table, persona: p}
"""

AGENTS = """
from polygon import AgentReply, AgentStep


class Agent:
    def __init__(self, quiet):
        self.quiet = quiet

    def step(self, req: AgentStep) -> AgentReply:
        if req.turn in self.quiet:
            return AgentReply(reply=" ... ")
        return AgentReply(reply=f"Sorry, which day would you like, Ana? (turn {req.turn})")


def make_speaks(prompt="", params=None):
    return Agent(set())


def make_once(prompt="", params=None):
    return Agent({2})


def make_twice(prompt="", params=None):
    return Agent({1, 3})


def make_mute(prompt="", params=None):
    return Agent(set(range(1, 10)))
"""


def _run(tmp_path: Path, rubric: str) -> tuple[str, CliRunner]:
    rubric_ref = "v5"
    if rubric:
        bundled = (Path(__file__).resolve().parents[2] / "rubrics" / "v5.yaml").read_text()
        gated = bundled.replace("version: v5", "version: quiet1").replace(
            '  - "check:agent_contradicts_tools"',
            '  - "check:agent_contradicts_tools"\n  - "check:agent_silent"',
        )
        assert '"check:agent_silent"' in gated
        (tmp_path / "quiet.yaml").write_text(gated)
        rubric_ref = str(tmp_path / "quiet.yaml")
    (tmp_path / "suite.yaml").write_text(SUITE.replace("RUBRIC", rubric_ref))
    (tmp_path / "quiet_agents.py").write_text(AGENTS)
    log, runner = str(tmp_path / "log"), CliRunner()
    ran = runner.invoke(cli, ["--log", log, "run", str(tmp_path / "suite.yaml"), "--run-id", "q"])
    assert ran.exception is None, ran.output
    return log, runner


def _silent(row: dict[str, object]) -> dict[str, object] | None:
    checks = row["checks"]
    assert isinstance(checks, list)
    return next((c["event"] for c in checks if c["event"]["check"] == "agent_silent"), None)


def test_silence_is_flagged_once_named_twice_or_at_the_end_failed(tmp_path: Path) -> None:
    log, runner = _run(tmp_path, "")
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "q", "--json"]).output)
    rows = {r["record"]["config"]: r for r in report["conversations"]}
    assert _silent(rows["speaks"]) is None  # an agent that always spoke: no new event
    once, twice, mute = _silent(rows["once"]), _silent(rows["twice"]), _silent(rows["mute"])
    assert once is not None and once["outcome"] == "pass" and "turn 2" in str(once["detail"])
    assert twice is not None and twice["outcome"] == "fail" and "turns 1, 3" in str(twice["detail"])
    assert mute is not None and mute["outcome"] == "fail" and "ended on its silence" in str(mute["detail"])
    text = runner.invoke(cli, ["--log", log, "report", "q"]).output
    assert "check agent_silent: the agent said nothing at turns 1, 3" in text
    explained = runner.invoke(cli, ["--log", log, "explain", "q.twice.table.0"]).output
    assert "agent_silent" in explained and "AGENT: (silence: ' ... ')" in explained
    replayed = runner.invoke(cli, ["--log", log, "replay", "q.once.table.0"]).output
    assert "(silence — said nothing: ' ... ')" in replayed


def test_a_rubric_that_gates_on_agent_silent_fails_the_silent_call(tmp_path: Path) -> None:
    log, runner = _run(tmp_path, "gated")
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "q", "--json"]).output)
    verdicts = {r["record"]["config"]: r["verdict"] for r in report["conversations"]}
    gates = {g["gate"]: g["fired"] for g in verdicts["twice"]["gates"]}
    assert gates["check:agent_silent"] is True and verdicts["twice"]["verdict"] == "fail"
    assert not {g["gate"]: g["fired"] for g in verdicts["once"]["gates"]}["check:agent_silent"]


def _turn(n: int, text: str | None, *, tools: int = 0, end: str = "") -> TurnView:
    calls = [
        ToolView(
            at=i,
            index=i,
            tool="lookup",
            arguments={},
            valid=True,
            validation_errors=[],
            result={},
            error="",
            fault="",
            latency_ms=0.0,
        )
        for i in range(tools)
    ]
    return TurnView(turn=n, caller_text="hello", agent_text=text, agent_end=end, tools=calls)


def _check(*turns: TurnView) -> list[CheckRecorded]:
    return agent_silent(ConversationView(conversation_id="c", turns=list(turns)))


def test_a_lookup_or_a_wordless_hang_up_is_no_silence_but_punctuation_is() -> None:
    assert _check(_turn(1, ""), _turn(2, "Hi."))[0].outcome == "pass"
    assert _check(_turn(1, "", tools=1), _turn(2, "Done.")) == []  # it worked the tools
    assert _check(_turn(1, "Bye."), _turn(2, "", end="hangup")) == []  # a hang-up, judged elsewhere
    assert _check(_turn(1, "Hi."), _turn(2, None)) == []  # the caller ended before the agent spoke
    ended = _check(_turn(1, "Hi."), _turn(2, "?!"), _turn(3, None))
    assert ended[0].outcome == "fail" and ended[0].evidence[0].turn == 2
