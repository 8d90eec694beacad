"""A question the agent's prompt answers settles the call (infogoal45).

"What are your opening hours", "how much is a blood test": answered from the prompt alone (no
tool call, no ``expect.says``), then the agent hung up, and goal_reached failed ("ended
hangup" without ``expect``, "hung up without settling" with one). Run end to end through the
CLI, each agent answering and hanging up in its first turn (so the caller never gets to
close): a time, a price, a yes/no naming what was asked settles; "I'm not sure, maybe
Tuesday", a question back and a yes that names nothing do not; and where the scenario has
``expect.says``, its phrase stays the rule.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.languages import caller_language
from polygon.languages.acts import read_turn
from polygon.simulate.callers.understanding import settled

SUITE = """
name: faq
seed: 3
max_turns: 6
trials: 1
configs:
  good: {agent: "python:faq_agents:make_good"}
  unsure: {agent: "python:faq_agents:make_unsure"}
  back: {agent: "python:faq_agents:make_back"}
  vague: {agent: "python:faq_agents:make_vague"}
caller: {model: scripted/caller}
judge: {model: scripted/heuristic, rubric: v5}
personas:
  - {id: hours, type: cooperative, outcome: success, difficulty: 1, language: en,
     goal: find out your opening hours, facts: {name: Ana Silva}}
  - {id: price, type: cooperative, outcome: success, difficulty: 1, language: en,
     goal: how much is a blood test, facts: {name: Ben Ode}}
  - {id: breakfast, type: cooperative, outcome: success, difficulty: 1, language: en,
     goal: check whether breakfast is included, facts: {name: Cy Park}}
scenarios:
  - {id: hours, persona: hours}
  - {id: price, persona: price, expect: {no_calls: [book]}}
  - {id: breakfast, persona: breakfast}
  - {id: hours-says, persona: hours, expect: {says: [[public holidays]]}}
tools:
  - name: book
    parameters: {type: object, properties: {day: {type: string}}}
    stub: {mode: fixed, response: {ok: true}}
"""

AGENTS = """
from polygon import AgentReply, AgentStep

GOOD = {
    "opening": "We're open Monday to Friday, 8:00 to 18:00. Goodbye.",
    "blood": "A blood test is £40. Goodbye.",
    "breakfast": "Yes, breakfast is included in every room rate. Goodbye.",
}


class Agent:
    def __init__(self, lines):
        self.lines = lines

    def step(self, req: AgentStep) -> AgentReply:
        said = next((v for k, v in self.lines.items() if k in req.heard.lower()), "Goodbye.")
        return AgentReply(reply=said, end="hangup")


def make_good(prompt="", params=None):
    return Agent(GOOD)


def make_unsure(prompt="", params=None):
    return Agent({k: "I'm not sure, maybe Tuesday at 9:00. Goodbye." for k in GOOD})


def make_back(prompt="", params=None):
    return Agent({k: "Why do you want to know that on a Monday? Goodbye." for k in GOOD})


def make_vague(prompt="", params=None):
    return Agent({k: "Yes, I can help you with that. Goodbye." for k in GOOD})
"""


def _run(tmp_path: Path) -> dict[tuple[str, str], dict[str, object]]:
    (tmp_path / "suite.yaml").write_text(SUITE)
    (tmp_path / "faq_agents.py").write_text(AGENTS)
    log, runner = str(tmp_path / "log"), CliRunner()
    ran = runner.invoke(cli, ["--log", log, "run", str(tmp_path / "suite.yaml"), "--run-id", "faq"])
    assert ran.exception is None, ran.output
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "faq", "--json"]).output)
    return {(r["record"]["config"], r["record"]["scenario"]): r for r in report["conversations"]}


def _goal(row: dict[str, object]) -> tuple[str, str]:
    checks = row["checks"]
    assert isinstance(checks, list)
    event = next(c["event"] for c in checks if c["event"]["check"] == "goal_reached")
    return str(event["outcome"]), str(event["detail"])


def test_a_prompt_answer_settles_a_question_and_a_non_answer_does_not(tmp_path: Path) -> None:
    rows = _run(tmp_path)
    for scenario in ("hours", "price", "breakfast"):
        outcome, detail = _goal(rows["good", scenario])
        assert outcome == "pass", (scenario, detail)
        assert rows["good", scenario]["verdict"]["verdict"] == "pass"  # type: ignore[index]
    assert "8:00" in _goal(rows["good", "hours"])[1]  # the answer is quoted
    for config in ("unsure", "back", "vague"):
        for scenario in ("hours", "price", "breakfast"):
            assert _goal(rows[config, scenario])[0] == "fail", (config, scenario)
    assert "nor answered" in _goal(rows["unsure", "price"])[1]  # with expect: the hang-up rule says why


def test_expect_says_stays_the_rule_for_a_prompt_answer(tmp_path: Path) -> None:
    rows = _run(tmp_path)
    outcome, detail = _goal(rows["good", "hours-says"])
    assert outcome == "fail"
    assert "public holidays" in detail and "no time, date, day or amount" not in detail


HOURS, PRICE, BREAKFAST = (
    "find out your opening hours",
    "how much is a blood test",
    "check whether breakfast is included",
)


@pytest.mark.parametrize(
    ("goal", "said", "answers"),
    [
        (HOURS, "We're open Monday to Friday, 8 am to 6 pm.", True),
        (PRICE, "It costs £40.", True),
        ("find out when you open on Saturday", "On Saturdays it's 9:00 to 13:00.", True),
        (HOURS, "I'm not sure, maybe on Tuesday.", False),
        (PRICE, "Let me check that for you, it could be £40.", False),
        (HOURS, "Thanks for calling the clinic.", False),
        ("see a dentist about a toothache", "I have Monday 09:00 free. Shall I book it?", False),
        ("ask about braces for my son", "We're open Monday to Friday.", False),  # no question of when
    ],
)
def test_the_caller_who_asked_closes_on_a_prompt_answer(goal: str, said: str, answers: bool) -> None:
    en = caller_language("en")
    assert settled(read_turn(said, en), goal, {"name": "Ana Silva"}, en) is answers
