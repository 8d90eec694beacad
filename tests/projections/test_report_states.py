"""Verdict state × --fail-on × output format: what each output shows and when a CI exits 1."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import pytest

from polygon.projections.report import RunReport, _summaries, scenario_trials
from polygon.projections.verdicts import ConversationRecord, ConversationVerdict
from polygon.render import Enforcement, enforce, render_html, render_json, render_junit, render_text
from polygon.score.verdict import Verdict

REASONS = {
    "error": "the agent could not complete the call: agent raised RuntimeError",
    "inconclusive": "only 5% of the rubric's weight was scored (minimum 75%)",
    "simulator_error": "the simulator broke the call: the caller's model gave no answer",
}
COMPOSITE = {
    "pass": 90.0,
    "warn": 60.0,
    "fail": 20.0,
    "error": 55.0,
    "inconclusive": 100.0,
    "simulator_error": 0.0,
}


def report_with(state: str) -> RunReport:
    row = ConversationVerdict(
        record=ConversationRecord(conversation_id="r.a.s.0", config="a", scenario="s"),
        pass_id="v1/x/k1",
        judge="scripted/heuristic",
        heuristic=True,
        verdict=Verdict(
            composite=COMPOSITE[state],
            verdict=state,
            partial=state == "inconclusive",
            unscored=[],
            missing=[],
            criteria=[],
            gates=[],
            state_reason=REASONS.get(state, ""),
        ),
    )
    rows = [row]
    return RunReport(
        run_id="r",
        rubric_version="v1",
        rubric_hash="h" * 32,
        judges=["scripted/heuristic"],
        heuristic=True,
        configs=_summaries(rows),
        conversations=rows,
        scenarios=scenario_trials(rows),
    )


# (state, --fail-on, allow inconclusive, allow simulator errors) → exit 1?
EXIT = [
    ("pass", "fail", False, False, False),
    ("warn", "fail", False, False, False),
    ("warn", "warn", False, False, True),
    ("fail", "fail", False, False, True),
    ("fail", None, False, False, False),
    ("error", "fail", False, False, True),
    ("error", "warn", False, False, True),
    ("error", None, False, False, False),
    ("inconclusive", "fail", False, False, True),
    ("inconclusive", "fail", True, False, False),
    ("inconclusive", "warn", True, False, False),
    ("simulator_error", "fail", False, False, True),
    ("simulator_error", "fail", False, True, False),
    ("simulator_error", None, False, False, False),
]


@pytest.mark.parametrize(("state", "fail_on", "allow_inc", "allow_sim", "exits"), EXIT)
def test_exit_code(state: str, fail_on: str | None, allow_inc: bool, allow_sim: bool, exits: bool) -> None:
    missed = enforce(report_with(state), Enforcement(fail_on, None, allow_inc, allow_sim))
    assert bool(missed) is exits, missed


# (state) → JUnit element, scorecard column
SHOWN = [
    ("pass", None, "passed"),
    ("warn", "system-out", "warned"),
    ("fail", "failure", "failed"),
    ("error", "error", "errored"),
    ("inconclusive", "skipped", "inconclusive"),
    ("simulator_error", "skipped", "simulator_errors"),
]


@pytest.mark.parametrize(("state", "junit", "column"), SHOWN)
def test_every_format_shows_the_state(state: str, junit: str | None, column: str) -> None:
    report = report_with(state)
    text = render_text(report)
    row = next(line for line in text.splitlines() if line.startswith("r.a.s.0"))
    assert row.split()[1] == state
    if state in REASONS:
        assert REASONS[state] in row and REASONS[state] in json.dumps(json.loads(render_json(report)))
    data = json.loads(render_json(report))
    assert data["conversations"][0]["verdict"]["verdict"] == state
    assert data["configs"][0][column] == 1
    # a full composite is only over graded calls: errors and the like never lift or sink the mean
    assert (data["configs"][0]["mean_composite"] is None) is (state not in ("pass", "warn", "fail"))
    case = ET.fromstring(render_junit(report)).find("testsuite/testcase")
    assert case is not None
    children = [c.tag for c in case]
    assert children == ([junit] if junit else [])
    if junit == "skipped":
        assert case[0].get("message", "").startswith(state)
    assert f"<tr class='{state}'>" in render_html(report)
