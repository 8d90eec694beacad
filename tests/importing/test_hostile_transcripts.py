"""Hostile transcripts: every malformed record is one problem line, never a traceback or a half import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli

GOOD = {"id": "ok", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}


def _call(**assistant: object) -> dict[str, object]:
    return {"id": "bad", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", **assistant}]}


HOSTILE = [
    ("content is a number", {"id": "bad", "messages": [{"role": "user", "content": 5}]}),
    ("tool_calls is a number", _call(content="x", tool_calls=5)),
    ("tool_calls holds strings", _call(content="x", tool_calls=["oops"])),
    ("function is a string", _call(content="x", tool_calls=[{"id": "t", "function": "find_slots"}])),
    ("messages is a string", {"id": "bad", "messages": "hello"}),
    ("a message is a list", {"id": "bad", "messages": [[1, 2]]}),
    ("unknown role", {"id": "bad", "messages": [{"role": "wizard", "content": "x"}]}),
    ("orphan tool result", {"id": "bad", "messages": [{"role": "tool", "tool_call_id": "z", "content": "x"}]}),
]


@pytest.mark.parametrize(("what", "record"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_malformed_record_is_a_problem_and_the_rest_imports(tmp_path: Path, what: str, record: object) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(record) + "\n")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "import", str(path), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["conversations"] == 1 and len(summary["problems"]) == 1
    assert f"{path}:2:" in summary["problems"][0] and "Traceback" not in res.output
    strict = CliRunner().invoke(cli, ["--log", str(tmp_path / "log2"), "import", str(path), "--strict"])
    assert strict.exit_code == 2 and f"{path}:2:" in strict.output
    stats = CliRunner().invoke(cli, ["--log", str(tmp_path / "log2"), "log", "stats", "--json"])
    assert stats.exit_code != 0 or json.loads(stats.output)["events"] == 0  # nothing written, no orphan run


def test_values_the_log_cannot_hold_are_made_safe(tmp_path: Path) -> None:
    big = 2**70
    call = {"id": "t1", "type": "function", "function": {"name": "f", "arguments": json.dumps({"n": big})}}
    record = {
        "id": "odd",
        "messages": [
            {"role": "user", "content": "truncated emoji \\udc80 here"},
            {"role": "assistant", "content": "ok", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "t1", "content": "[" * 200 + "]" * 200},
        ],
    }
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(record).replace("\\\\udc80", "\\udc80") + "\n")
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "import", str(path), "--run-id", "o"])
    assert res.exit_code == 0, res.output
    replay = json.loads(CliRunner().invoke(cli, ["--log", str(log), "replay", "o.imported.odd.0", "--json"]).output)
    turn = replay["turns"][0]
    assert "\ufffd" in turn["caller_text"] or "?" in turn["caller_text"]
    assert turn["tools"][0]["arguments"] == {"n": str(big)}
    assert CliRunner().invoke(cli, ["--log", str(log), "log", "verify"]).exit_code == 0


def test_an_endless_file_is_refused_quickly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import polygon.app.import_ as importing

    monkeypatch.setattr(importing, "MAX_TRANSCRIPT_BYTES", 1_000_000)
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "import", "/dev/zero"])
    assert res.exit_code == 2 and "/dev/zero: larger than 1 MB" in res.output


def test_deep_nesting_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "import", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["conversations"] == 1


@pytest.mark.parametrize("fmt", [[], ["--format", "auto"], ["--format", "openai-chat"], ["--format", "polygon-jsonl"]])
def test_deep_nesting_alone_is_one_line_error_on_every_path(tmp_path: Path, fmt: list[str]) -> None:
    # format detection read the first line with the standard library before the importers'
    # depth guard: without --format this was a RecursionError traceback
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "import", str(path), *fmt])
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1 and f"{path}:1:" in res.output
    assert "deeper than" in res.output


def test_the_bounded_decoder_refuses_depth_past_its_cap_and_reads_the_rest() -> None:
    from polygon.importing.jsonread import MAX_JSON_DEPTH, JsonError, loads

    deep = '{"a": ' + "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH + "}"
    with pytest.raises(JsonError, match="deeper than"):
        loads(deep)  # the standard library reads it; what comes next would recurse into it
    with pytest.raises(JsonError, match="deeper than"):
        loads("[" * 100_000 + "]" * 100_000)
    brackets_in_text = '{"a": "' + "[" * 1000 + '", "b": [[1]]}'
    assert loads(brackets_in_text)["b"] == [[1]]  # brackets inside strings are not nesting
    fits = "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1)
    assert isinstance(loads(fits), list)
