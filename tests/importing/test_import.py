"""Importing real calls: every format, malformed lines, idempotence, redaction, n/a, compare, re-drive."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.app.gating import NEWEST_GATING
from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.importing.formats import ImportedConversation, ImportProblem, detect_format, parse
from polygon.importing.redaction import redact
from tests.support.examples import clinic_suite_path

TEXT = """CALLER: Hi, I'd like to book a cleaning. My number is 091 555 0134.
AGENT: Sure. Which day suits you?
CALLER: Friday. Write to ana.kovac@example.com, card 4111 1111 1111 1111.
AGENT: Booked for Friday 09:00.
---
USER: Is it free?
ASSISTANT: It's guaranteed free of charge!
"""

CHAT_A = {
    "id": "call-a",
    "messages": [
        {"role": "system", "content": "You are Mia"},
        {"role": "user", "content": "Book me for Tuesday"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "t1",
                    "type": "function",
                    "function": {"name": "find_slots", "arguments": '{"day": "tuesday"}'},
                },
                {
                    "id": "t2",
                    "type": "function",
                    "function": {
                        "name": "book_slot",
                        "arguments": '{"slot": "Tuesday 10:30", "name": "Ana", "phone": 915}',
                    },
                },
            ],
        },
        {"role": "tool", "tool_call_id": "t1", "content": '["Tuesday 10:30"]'},
        {"role": "tool", "tool_call_id": "t2", "content": '{"ok": true}'},
        {"role": "assistant", "content": "You're booked for Tuesday 10:30."},
    ],
}
CHAT_B = {
    "id": "call-b",
    "messages": [
        {"role": "user", "content": "Hello?"},
        {"role": "assistant", "content": "Hi, how can I help?"},
    ],
}


def files(tmp_path: Path) -> tuple[Path, Path]:
    text = tmp_path / "calls.txt"
    text.write_text(TEXT)
    chat = tmp_path / "chat.jsonl"
    chat.write_text(json.dumps(CHAT_A) + "\nthis line is broken {\n" + json.dumps(CHAT_B) + "\n")
    return text, chat


def test_text_format_two_conversations() -> None:
    out = list(parse(Path("t.txt"), TEXT, "text"))
    assert [type(o) for o in out] == [ImportedConversation, ImportedConversation]
    first = out[0]
    assert isinstance(first, ImportedConversation) and first.line == 1 and len(first.turns) == 2
    assert first.turns[1].caller.startswith("Friday") and first.turns[1].agent == "Booked for Friday 09:00."


def test_text_unknown_speaker_names_the_line() -> None:
    (problem,) = list(parse(Path("t.txt"), "CALLER: hi\nROBOT: hello\n", "text"))
    assert (
        isinstance(problem, ImportProblem) and problem.line == 2 and "unknown speaker 'ROBOT'" in str(problem)
    )


def test_openai_multi_tool_turn_with_results() -> None:
    (conv,) = list(parse(Path("c.jsonl"), json.dumps(CHAT_A), "openai-chat"))
    assert isinstance(conv, ImportedConversation) and conv.system_prompt == "You are Mia"
    (turn,) = conv.turns
    assert [t.name for t in turn.tools] == ["find_slots", "book_slot"]
    assert turn.tools[0].result == ["Tuesday 10:30"] and turn.tools[1].result == {"ok": True}
    assert turn.agent == "You're booked for Tuesday 10:30."


def test_openai_whole_file_and_polygon_export_detection(tmp_path: Path) -> None:
    whole = json.dumps(CHAT_B["messages"], indent=2)
    assert detect_format(Path("x.json"), whole) == "openai-chat"
    (conv,) = list(parse(Path("x.json"), whole, "openai-chat"))
    assert isinstance(conv, ImportedConversation) and conv.turns[0].agent == "Hi, how can I help?"


def test_import_skips_malformed_line_scores_with_na_and_is_idempotent(tmp_path: Path) -> None:
    text, chat = files(tmp_path)
    log = tmp_path / "log"
    runner = CliRunner()
    args = ["--log", str(log), "import", str(text), str(chat), "--suite", str(clinic_suite_path()), "--json"]
    first = json.loads(runner.invoke(cli, args).output)
    assert first["conversations"] == 4 and first["written"] > 0
    assert first["problems"] == [f"{chat}:2: not valid JSON (Expecting value at line 2 column 1)"]
    again = json.loads(runner.invoke(cli, args).output)
    assert again["run_id"] == first["run_id"] and again["written"] == 0
    run = first["run_id"]
    with LmdbLog(log, readonly=True) as lg:
        assert lg.verify().ok
        checks = [e.payload for e in lg.read_all(tags={"check.recorded"})]
        tools = [e.payload for e in lg.read_all(tags={"tool.called"})]
    needs_truth = [
        c for c in checks if c.check in ("goal_reached", "agent_contradicts_facts", "caller_outside_facts")
    ]
    assert needs_truth and all(c.outcome == "n/a" for c in needs_truth)
    assert [t.valid for t in tools] == [True, False] and all(t.validated for t in tools)
    report = json.loads(runner.invoke(cli, ["--log", str(log), "report", run, "--json"]).output)
    for row in report["conversations"]:
        reasons = " ".join(str(g) for g in row["verdict"]["gates"] if g["fired"])
        assert "goal_reached" not in reasons  # n/a is never a failure
    explain = runner.invoke(cli, ["--log", str(log), "explain", f"{run}.imported.call-a.0"])
    assert explain.exit_code == 0 and "n/a" in explain.output and "invalid_tool_args" in explain.output
    replay = runner.invoke(cli, ["--log", str(log), "replay", f"{run}.imported.line1.0"])
    assert replay.exit_code == 0 and "imported real call" in replay.output


def test_strict_refuses_and_writes_nothing(tmp_path: Path) -> None:
    _, chat = files(tmp_path)
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "import", str(chat), "--strict"])
    assert res.exit_code == 2 and "chat.jsonl:2" in res.output and "nothing was imported" in res.output
    assert not (log / "data.mdb").exists() or not list(LmdbLog(log, readonly=True).read_all())


def test_redaction_leaves_nothing_behind(tmp_path: Path) -> None:
    text, chat = files(tmp_path)
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "import", str(text), "--redact"])
    assert res.exit_code == 0, res.output
    dump = CliRunner().invoke(cli, ["--log", str(log), "log", "export"]).output
    for secret in ("091 555 0134", "0134", "ana.kovac@example.com", "4111 1111 1111 1111", "1111"):
        assert secret not in dump
    assert "[PHONE]" in dump and "[EMAIL]" in dump and "[CARD]" in dump


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("call +385 91 555 0134 now", "call [PHONE] now"),
        ("mail a.b+c@d-e.hr!", "mail [EMAIL]!"),
        ("card 4111-1111-1111-1111", "card [CARD]"),
        ("room 12 at 10:30", "room 12 at 10:30"),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_imported_run_compares_with_a_synthetic_one(tmp_path: Path) -> None:
    log = tmp_path / "log"
    runner = CliRunner()
    assert (
        runner.invoke(
            cli,
            [
                "--log",
                str(log),
                "run",
                str(clinic_suite_path()),
                "--config",
                "v1",
                "--run-id",
                "s",
                "--no-progress",
            ],
        ).exit_code
        == 0
    )
    export = tmp_path / "v2.jsonl"
    other = tmp_path / "other"
    assert (
        runner.invoke(
            cli,
            [
                "--log",
                str(other),
                "run",
                str(clinic_suite_path()),
                "--config",
                "v2",
                "--run-id",
                "p",
                "--no-progress",
            ],
        ).exit_code
        == 0
    )
    runner.invoke(
        cli, ["--log", str(other), "log", "export", "-o", str(export), "--stream-prefix", "conv/p.v2.coop"]
    )
    mapping = tmp_path / "map.yaml"
    mapping.write_text("v2.coop-booking.0: coop-booking\n")
    res = runner.invoke(
        cli,
        [
            "--log",
            str(log),
            "import",
            str(export),
            "--map",
            str(mapping),
            "--run-id",
            "imp",
            "--config",
            "prod",
        ],
    )
    assert res.exit_code == 0, res.output
    # An import without --suite is judged under the newest gating rubric: judge the simulated
    # run under it too, so the two share a rubric to compare under.
    rejudged = runner.invoke(cli, ["--log", str(log), "judge", "s", "--rubric", NEWEST_GATING])
    assert rejudged.exit_code == 0, rejudged.output
    # Real callers against a scripted one: refused by default, shown side by side when allowed.
    refused = runner.invoke(cli, ["--log", str(log), "compare", "s", "imp"])
    assert refused.exit_code == 2 and "differ in caller" in refused.output
    allowed = runner.invoke(cli, ["--log", str(log), "compare", "s", "imp", "--allow-mixed", "--json"])
    out = json.loads(allowed.output)
    assert out["mixed"] == [
        "caller: s:v1 scripted/caller; imp:prod real callers (imported)",
        "noise intensity: s:v1 0.35; imp:prod real",
    ]
    rows = {r["scenario"]: r for r in out["matrix"]}
    assert not rows["coop-booking"]["incomparable"] and rows["coop-booking"]["values"]["imp:prod"] is not None
    assert rows["busy-booking"]["incomparable"] and rows["busy-booking"]["values"]["imp:prod"] is None


def test_rerun_stops_at_the_first_divergence(tmp_path: Path) -> None:
    log = tmp_path / "log"
    runner = CliRunner()
    assert (
        runner.invoke(
            cli,
            [
                "--log",
                str(log),
                "run",
                str(clinic_suite_path()),
                "--config",
                "v1",
                "--run-id",
                "s",
                "--no-progress",
            ],
        ).exit_code
        == 0
    )
    source = "s.v1.coop-booking.0"
    res = runner.invoke(
        cli,
        [
            "--log",
            str(log),
            "rerun",
            source,
            "--suite",
            str(clinic_suite_path()),
            "--config",
            "v2",
            "--run-id",
            "x",
        ],
    )
    assert res.exit_code == 0, res.output
    new = res.output.splitlines()[0]
    expected = json.loads(
        runner.invoke(cli, ["--log", str(log), "divergence", source, "s.v1.coop-booking.0", "--json"]).output
    )
    assert expected["divergence"] is None
    with LmdbLog(log, readonly=True) as lg:
        events = list(lg.read_stream(f"conv/{new}"))
    ended = next(e.payload for e in events if e.tag == "conversation.ended")
    started = events[0].payload
    assert started.source_conversation == source and ended.reason == "diverged"
    split = json.loads(runner.invoke(cli, ["--log", str(log), "divergence", source, new, "--json"]).output)
    assert split["divergence"]["turn"] == ended.turns  # stopped exactly where the calls part
    same = runner.invoke(
        cli,
        [
            "--log",
            str(log),
            "rerun",
            source,
            "--suite",
            str(clinic_suite_path()),
            "--config",
            "v1",
            "--run-id",
            "y",
        ],
    )
    assert "never parted" in same.output
    cont = runner.invoke(
        cli,
        [
            "--log",
            str(log),
            "rerun",
            source,
            "--suite",
            str(clinic_suite_path()),
            "--config",
            "v2",
            "--run-id",
            "z",
            "--continue",
        ],
    )
    assert cont.exit_code == 0 and "parted" in cont.output
    with LmdbLog(log, readonly=True) as lg:
        z = [e.payload for e in lg.read_stream(f"conv/{cont.output.splitlines()[0]}")]
    from polygon.events.families import ConversationEnded

    assert next(p for p in z if isinstance(p, ConversationEnded)).reason != "diverged"


def test_a_silent_agent_is_inconclusive_and_unparseable_arguments_are_invalid(tmp_path: Path) -> None:
    # trial39 defect 6: a call with no agent turn passed at 76.25, "{not json" arguments were "valid"
    lines = [
        {"id": "silent", "messages": [{"role": "user", "content": "hello, is anyone there?"}]},
        {
            "id": "bad-args",
            "messages": [
                {"role": "user", "content": "book me in"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "c1", "type": "function", "function": {"name": "x", "arguments": "{not json"}}
                    ],
                },
            ],
        },
        {
            "id": "spoke",
            "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Hello!"}],
        },
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    log = tmp_path / "log"
    runner = CliRunner()
    run = json.loads(runner.invoke(cli, ["--log", str(log), "import", str(path), "--json"]).output)["run_id"]
    report = json.loads(runner.invoke(cli, ["--log", str(log), "report", run, "--json"]).output)
    verdicts = {row["record"]["scenario"]: row["verdict"] for row in report["conversations"]}
    assert verdicts["silent"]["verdict"] == "inconclusive"
    assert "no agent turn" in verdicts["silent"]["state_reason"]
    assert verdicts["spoke"]["verdict"] != "inconclusive"  # an agent that spoke is judged as before
    with LmdbLog(log, readonly=True) as lg:
        tools = [e.payload for e in lg.read_all(tags={"tool.called"})]
        checks = {
            c.payload.check: c.payload
            for c in lg.read_all(tags={"check.recorded"})
            if c.payload.conversation_id.endswith("bad-args.0")
        }
    assert [(t.valid, t.validated) for t in tools] == [(False, True)]
    assert "not a JSON object" in tools[0].validation_errors[0]
    assert checks["invalid_tool_args"].outcome == "fail"
