"""A German call that asks for the day and confirms it "am 20. Oktober" (a workshop line, stop 43).

Two misreadings made a correct German agent fail every call of a new suite:

- "An welchem Tag möchten Sie kommen?" named no fact: "Tag" was no date word (every "Guten
  Tag, …" would have asked for a date), so the caller restated its goal, the agent asked
  again and the call ended as the agent's loop. "Tag" now asks for a date outside a greeting.
- "Ihr Termin für HH K 7 am 20. Oktober": "7 am" was read as 07:00, a time no source gave,
  and failed ``agent_contradicts_tools``. German "am" ("on the") before a date, a weekday or
  a noun is no meridiem; English "7 am Monday" still is.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.languages import load_language
from polygon.score.tool_facts import values_in
from polygon.simulate.callers.understanding import asked

FACTS = {"name": "Jonas Weber", "kennzeichen": "M AB 123", "datum": "15. April"}


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("An welchem Tag möchten Sie kommen?", "datum"),
        ("Für welchen Tag soll ich den Termin eintragen?", "datum"),
        ("Guten Tag, wie lautet Ihr Kennzeichen?", "kennzeichen"),
        ("Autowerkstatt Müller, guten Tag. Wie lautet Ihr Kennzeichen?", "kennzeichen"),
    ],
)
def test_a_day_question_asks_for_the_date_and_a_greeting_does_not(question: str, key: str) -> None:
    got, named = asked(question, FACTS, "einen Termin für die Inspektion buchen", load_language("de"))
    assert (got, named) == (key, True)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Ihr Termin für HH K 7 am 20. Oktober ist gebucht.", {("day", "10-20")}),
        ("Tisch 4 am Montag.", {("weekday", "monday")}),
        ("Zimmer 12 am Ende des Flurs.", set()),
        ("Ihr Termin ist um 7:30 am Montag.", {("time", "07:30"), ("weekday", "monday")}),
        # English: a meridiem before a weekday, a month, "on" or the sentence's end
        ("Your slot is at 7 am Monday.", {("time", "07:00"), ("weekday", "monday")}),
        ("Your slot is at 9 am June 3rd.", {("time", "09:00"), ("day", "06-03")}),
        ("We open at 7 am on 3 May.", {("time", "07:00"), ("day", "05-03")}),
        ("We open at 7 am.", {("time", "07:00")}),
        ("Be there at 7 a.m. 20 October.", {("time", "07:00"), ("day", "10-20")}),
    ],
)
def test_german_am_is_no_meridiem(text: str, values: set[tuple[str, str]]) -> None:
    assert {(v.kind, v.value) for v in values_in(text)} == values


AGENT = '''
import re
from polygon import AgentReply, ToolCall

PLATE = re.compile(r"\\b([A-ZÄÖÜ]{1,3})\\s+([A-Z]{1,2})\\s*(\\d{1,4})\\b")
DATE = re.compile(r"\\b(\\d{1,2})\\.\\s*(April|Mai|Oktober)\\b")


class Werkstatt:
    def __init__(self, says=None):
        self.says, self.plate, self.date = says, "", ""

    def step(self, req):
        if req.tool_results:
            termin = self.says or req.tool_results[-1].result["termin"]
            return AgentReply(reply=f"Ihr Termin für {self.plate} am {termin} ist gebucht. Auf Wiederhören!", end="hangup")
        if m := PLATE.search(req.heard):
            self.plate = " ".join(m.groups())
        if m := DATE.search(req.heard):
            self.date = f"{m.group(1)}. {m.group(2)}"
        if not self.plate:
            return AgentReply(reply="Autowerkstatt Müller, guten Tag. Wie lautet Ihr Kennzeichen?")
        if not self.date:
            return AgentReply(reply="An welchem Tag möchten Sie kommen?")
        args = {"kennzeichen": self.plate, "datum": self.date}
        return AgentReply(tool_calls=[ToolCall(id="b1", name="termin_buchen", arguments=args)])


def make_good(prompt="", params=None):
    return Werkstatt()


def make_says_wrong(prompt="", params=None):
    return Werkstatt(says="16. April")
'''

SUITE = """
name: werkstatt
seed: 7
max_turns: 8
configs:
  good: {agent: "python:werkstatt_agent:make_good", prompt: Buche Werkstatttermine.}
  says_wrong: {agent: "python:werkstatt_agent:make_says_wrong", prompt: Buche Werkstatttermine.}
noise: {intensity: 0.0, language: de}
caller: {model: scripted/caller}
judge: {model: scripted/heuristic, rubric: v5}
tools:
  - name: termin_buchen
    description: Bucht einen Werkstatttermin.
    parameters:
      type: object
      properties: {kennzeichen: {type: string}, datum: {type: string}}
      required: [kennzeichen, datum]
    stub: {mode: template, template: '{"termin": "{{ args.datum }}", "bestaetigt": true}'}
personas:
  - {id: koop, type: cooperative, outcome: success, difficulty: 1, goal: einen Termin für die Inspektion buchen,
     facts: {name: Jonas Weber, kennzeichen: "M AB 123", datum: "15. April"}}
  - {id: reifen, type: confused, outcome: success, difficulty: 3, goal: einen Reifenwechsel buchen,
     facts: {name: Karl Braun, kennzeichen: "HH K 7", datum: "20. Oktober"}}
scenarios:
  - {id: inspektion, persona: koop, expect: {calls: {termin_buchen: {datum: {fact: datum}}}}}
  - {id: reifen, persona: reifen, expect: {calls: {termin_buchen: {datum: {fact: datum}}}}}
"""


def test_a_german_workshop_line_passes_the_right_agent_and_fails_the_one_that_says_another_day(
    tmp_path: Path,
) -> None:
    (tmp_path / "werkstatt_agent.py").write_text(textwrap.dedent(AGENT))
    (tmp_path / "suite.yaml").write_text(SUITE)
    log = str(tmp_path / "log")
    run = CliRunner().invoke(cli, ["--log", log, "run", str(tmp_path / "suite.yaml"), "--run-id", "w", "--no-progress"])
    assert run.exit_code in (0, 1), run.output
    report = CliRunner().invoke(cli, ["--log", log, "report", "w", "--format", "json"])
    calls = {c["record"]["conversation_id"]: c for c in json.loads(report.output)["conversations"]}
    verdicts = {cid.split(".", 1)[1]: c["verdict"]["verdict"] for cid, c in calls.items()}
    assert verdicts == {
        "good.inspektion.0": "pass",
        "good.reifen.0": "pass",
        "says_wrong.inspektion.0": "fail",
        "says_wrong.reifen.0": "fail",
    }, report.output
