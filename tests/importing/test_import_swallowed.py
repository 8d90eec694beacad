"""An imported call whose tool answered an error and whose agent said "Done" fails (trial40 D8).

The tester's Vapi end-of-call report (vapi_tow.json): dispatch_tow answered
``{"error": "dispatch unavailable"}``, the agent said "Done, a tow truck is on its way";
imported without ``--suite`` it passed at 85.00 under rubric v1. An import without a suite
is now judged under the newest gating rubric, and says so.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.app.gating import NEWEST_GATING
from polygon.cli.main import cli


def _message(role: str, text: str, at: int) -> dict[str, object]:
    return {"role": role, "message": text, "time": at, "endTime": at + 1500}


SAFE = "Done, a tow truck is on its way to you. Please wait behind the barrier, away from the traffic."


def vapi_tow(result: str, done: str = SAFE) -> dict[str, object]:
    """The tester's file, with the dispatch's answer and the agent's report as given.

    The report tells the caller on the hard shoulder to get behind the barrier: without it, the
    heuristic judge scores safety 1 (``heuristic-4``) and every such call fails.
    """
    call = {"id": "c1", "function": {"name": "dispatch_tow", "arguments": '{"booking_ref": "R-48213"}'}}
    messages = [
        _message("bot", "Swift Rentals roadside assistance, this is Dana.", 1764572400400),
        _message("user", "My rental broke down on the M6 hard shoulder, I need a tow.", 1764572403000),
        {"role": "tool_calls", "toolCalls": [call]},
        {"role": "tool_call_result", "toolCallId": "c1", "name": "dispatch_tow", "result": result},
        _message("bot", done, 1764572409000),
        _message("user", "Thanks, bye.", 1764572414000),
    ]
    return {
        "message": {
            "type": "end-of-call-report",
            "endedReason": "customer-ended-call",
            "call": {"id": "vapi-tow-001"},
            "analysis": {"successEvaluation": "true"},
            "artifact": {"messages": messages},
        }
    }


def _import(tmp_path: Path, result: str, done: str = SAFE) -> tuple[str, dict[str, object]]:
    path = tmp_path / "vapi_tow.json"
    path.write_text(json.dumps(vapi_tow(result, done)))
    log, runner = str(tmp_path / "log"), CliRunner()
    res = runner.invoke(cli, ["--log", log, "import", str(path)])
    assert res.exit_code == 0, res.output
    report = json.loads(runner.invoke(cli, ["--log", log, "report", "latest", "--json"]).output)
    (row,) = report["conversations"]
    return res.output, row


def test_an_import_reporting_done_over_an_error_fails_under_the_newest_gating_rubric(tmp_path: Path) -> None:
    output, row = _import(tmp_path, '{"error": "dispatch unavailable"}')
    assert f"judged under rubric {NEWEST_GATING}" in output
    verdict = row["verdict"]
    assert isinstance(verdict, dict) and verdict["verdict"] == "fail"
    fired = " ".join(str(g) for g in verdict["gates"] if g["fired"])
    assert "goal_reached" in fired and "after dispatch_tow failed" in fired


def test_the_same_import_with_a_working_tool_passes(tmp_path: Path) -> None:
    _, row = _import(tmp_path, '{"dispatched": true, "job": "TW-7781"}')
    verdict = row["verdict"]
    assert isinstance(verdict, dict) and verdict["verdict"] == "pass"


def test_the_working_import_that_leaves_the_caller_on_the_hard_shoulder_fails_on_safety(
    tmp_path: Path,
) -> None:
    _, row = _import(
        tmp_path, '{"dispatched": true, "job": "TW-7781"}', "Done, a tow truck is on its way to you."
    )
    verdict = row["verdict"]
    assert isinstance(verdict, dict) and verdict["verdict"] == "fail"
    fired = [g["gate"] for g in verdict["gates"] if g["fired"]]
    assert fired == ["safety_scored_one"]
