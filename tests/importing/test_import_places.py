"""Import defects from trial 40: re-import with --suite, non-UTF-8 bytes, where a problem is."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from tests.support.examples import clinic_suite_path

CHAT = {
    "id": "call-a",
    "messages": [
        {"role": "user", "content": "Book me for Tuesday"},
        {"role": "assistant", "content": "You're booked for Tuesday 10:30."},
    ],
}


def _import(log: Path, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), "import", *args])
    return res.exit_code, res.stdout, res.stderr


def test_reimport_with_a_suite_is_another_run_and_again_a_no_op(tmp_path: Path) -> None:
    chat, log = tmp_path / "calls.jsonl", tmp_path / "log"
    chat.write_text(json.dumps(CHAT) + "\n")
    code, plain, _ = _import(log, str(chat), "--json")
    assert code == 0
    suite_args = [str(chat), "--suite", str(clinic_suite_path()), "--json"]
    code, with_suite, err = _import(log, *suite_args)
    assert code == 0, err  # once: "identity ... was already written with different content"
    first, second = json.loads(plain), json.loads(with_suite)
    assert first["run_id"] != second["run_id"]
    assert second["written"] > 0
    code, again, _ = _import(log, *suite_args)
    assert code == 0
    assert json.loads(again)["run_id"] == second["run_id"]
    assert json.loads(again)["written"] == 0  # "Importing the same files again changes nothing"
    code, plain_again, _ = _import(log, str(chat), "--json")
    assert json.loads(plain_again) == {**first, "written": 0}


RETELL_LIST = [
    {
        "call_id": "retell-ok",
        "transcript_with_tool_calls": [
            {"role": "agent", "content": "Swift Rentals, Dana speaking."},
            {"role": "user", "content": "I need to speak to a real person."},
        ],
    },
    {"call_id": "retell-empty", "disconnection_reason": "user_hangup", "transcript_with_tool_calls": []},
    {"call_id": "retell-nofields"},
]


def test_a_list_of_calls_names_each_item_and_empty_is_not_missing(tmp_path: Path) -> None:
    calls, log = tmp_path / "retell_odd.json", tmp_path / "log"
    calls.write_text(json.dumps(RETELL_LIST))
    code, out, err = _import(log, str(calls))
    assert code == 0
    assert f"skipped {calls}:item 2: retell: transcript_with_tool_calls is empty" in err
    assert f"skipped {calls}:item 3: retell: no transcript_with_tool_calls in the call" in err
    assert ":1:" not in err  # every item was "FILE:1"


def test_an_empty_file_is_named(tmp_path: Path) -> None:
    empty, log = tmp_path / "empty.json", tmp_path / "log"
    empty.write_text("")
    code, _, err = _import(log, str(empty))
    assert code == 2
    assert err.strip() == f"error: no conversation could be imported: {empty}: empty file"


def test_a_wrongly_typed_end_reason_is_a_problem(tmp_path: Path) -> None:
    record = {
        "call_id": "r1",
        "transcript_with_tool_calls": [{"role": "agent", "content": "hi"}, {"role": "user", "content": "a"}],
        "disconnection_reason": 7,
    }
    bad, log = tmp_path / "retell_badtype.json", tmp_path / "log"
    bad.write_text(json.dumps(record))
    code, _, err = _import(log, str(bad))
    assert code == 2
    assert f"{bad}:1: retell: disconnection_reason 7: expected text" in err


LATIN1 = (
    '{"message": {"type": "end-of-call-report", "endedReason": "customer-ended-call", '
    '"call": {"id": "vapi-latin1"}, "artifact": {"messages": [{"role": "bot", "message": "Hello caf\xe9"}, '
    '{"role": "user", "message": "Stra\xdfe"}]}}}'
).encode("latin-1")


def test_bytes_that_are_not_utf8_are_named_and_refused_under_strict(tmp_path: Path) -> None:
    calls, log = tmp_path / "vapi_latin1.json", tmp_path / "log"
    calls.write_bytes(LATIN1)
    offset = LATIN1.index(b"\xe9")
    code, out, err = _import(log, str(calls), "--strict")
    assert code == 2
    assert f"{calls}:1: not UTF-8 at byte offset {offset} (0xe9) (nothing was imported" in err
    code, out, err = _import(log, str(calls), "--json")
    assert code == 0  # without --strict the call is kept, and the replacement is said
    summary = json.loads(out)
    assert summary["conversations"] == 1 and summary["problems"] == []
    assert summary["written"] > 0  # --strict wrote nothing before
    assert summary["warnings"] == [
        f"{calls}:1: not UTF-8 at byte offset {offset} (0xe9): imported with U+FFFD in place of the bytes that are not"
    ]


def test_a_drafted_goal_is_an_act_and_keeps_the_callers_situation() -> None:
    from polygon.importing.drafting import _goal

    said = ["My rental broke down on the M6 hard shoulder, I need a tow."]
    assert _goal(said, "other") == "get a tow, my rental broke down on the M6 hard shoulder"  # was "a tow"
    assert _goal(["Hi, I'd like to book a cleaning."], "book") == "book a cleaning"


VAPI_TOW = {
    "message": {
        "type": "end-of-call-report",
        "endedReason": "customer-ended-call",
        "call": {"id": "vapi-tow-001"},
        "artifact": {
            "messages": [
                {"role": "bot", "message": "Swift Rentals roadside assistance, this is Dana."},
                {"role": "user", "message": "My rental broke down on the M6 hard shoulder, I need a tow."},
                {
                    "role": "tool_calls",
                    "toolCalls": [
                        {
                            "id": "c1",
                            "function": {
                                "name": "dispatch_tow",
                                "arguments": '{"booking_ref": "R-48213", "location": "M6 J14"}',
                            },
                        }
                    ],
                },
                {
                    "role": "tool_call_result",
                    "toolCallId": "c1",
                    "name": "dispatch_tow",
                    "result": '{"error": "x"}',
                },
                {"role": "bot", "message": "A tow truck is on its way."},
                {"role": "user", "message": "Thanks, bye."},
            ]
        },
    }
}


def test_a_draft_offers_the_tool_arguments_as_facts_marked_as_such(tmp_path: Path) -> None:
    import yaml

    calls, log, out = tmp_path / "vapi_tow.json", tmp_path / "log", tmp_path / "drafted.yaml"
    calls.write_text(json.dumps(VAPI_TOW))
    code, run_id, _ = _import(log, str(calls), "--run-id", "tow")
    assert code == 0
    res = CliRunner().invoke(cli, ["--log", str(log), "scenarios", "from-calls", "tow", "-o", str(out)])
    assert res.exit_code == 0, res.output
    (persona,) = yaml.safe_load(out.read_text())["personas"]
    assert persona["facts"] == {"booking_ref": "R-48213", "location": "M6 J14"}  # was {}
    assert persona["goal"] == "get a tow, my rental broke down on the M6 hard shoulder"
    assert "# facts from tool arguments (not the caller's words): booking_ref, location" in out.read_text()
