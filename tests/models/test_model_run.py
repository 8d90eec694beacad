"""A whole run with model-driven agent, caller, judge and probes against a local
OpenAI-compatible server; then the same run from the cache with the server gone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.score.rubric import CRITERIA
from tests.support.fault_server import completion, serve
from tests.support.runs import model_suite
from tests.support.text import replaced

SECRET = "sk-test-never-logged"


def smart(body: dict[str, Any]) -> dict[str, Any]:
    """Plays agent, caller, judge and probe answerer depending on the request."""
    system = body["messages"][0]["content"] if body["messages"][0]["role"] == "system" else ""
    fmt = body.get("response_format", {}).get("json_schema", {}).get("name")
    if fmt == "judgement":
        return completion(
            json.dumps({c: {"score": 4, "evidence": "[turn 1] AGENT: hello"} for c in CRITERIA})
        )
    if fmt == "probe":
        return completion(json.dumps({"answer": "yes", "evidence": "turn 1"}))
    if system.startswith("You are a person phoning"):
        turns = sum(1 for m in body["messages"] if m["role"] == "assistant")
        return completion(
            "Great, thanks. Bye! [BYE]" if turns >= 2 else "I need a cleaning on Friday please."
        )
    if "tools" in body:
        last = body["messages"][-1]
        if last["role"] == "tool":
            return completion("You're booked. Anything else?")
        if sum(1 for m in body["messages"] if m["role"] == "user") == 2:
            call = {
                "id": "c1",
                "type": "function",
                "function": {"name": "find_slots", "arguments": json.dumps({"day": "friday"})},
            }
            return completion(None, [call])
        return completion("Hello, Smile Dental. How can I help?")
    return completion("?")


def test_model_run_then_cache_with_the_network_gone(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    log = tmp_path / "log"
    runner = CliRunner()
    with serve(["smart"]) as (url, server):
        server.smart = smart
        suite = model_suite(tmp_path, url)
        res = runner.invoke(
            cli, ["--log", str(log), "run", str(suite), "--config", "v1", "--run-id", "m1", "--no-progress"]
        )
        assert res.exit_code == 0, res.output
        served = len(server.requests)
    assert served > 0
    with LmdbLog(log, readonly=True) as lg:
        events = list(lg.read_all())
    roles = {e.payload.role for e in events if e.tag == "model.called"}
    assert roles == {"agent", "caller", "judge", "probe"}
    assert SECRET not in json.dumps([str(e.payload) for e in events])
    judged = [e.payload for e in events if e.tag == "judge.scored"]
    assert judged and all(not j.heuristic and j.judge == "openai/test-judge" for j in judged)
    report = runner.invoke(cli, ["--log", str(log), "report", "m1"]).output
    assert "openai/test-judge" in report and "heuristic" not in report

    # The server is gone: a cached re-run must make zero requests and give the same verdicts.
    dead = model_suite(tmp_path, "http://127.0.0.1:9/v1")
    res = runner.invoke(
        cli,
        ["--log", str(log), "run", str(dead), "--config", "v1", "--run-id", "m2", "--cache", "--no-progress"],
    )
    assert res.exit_code == 0, res.output
    with LmdbLog(log, readonly=True) as lg:
        cached = [e.payload for e in lg.read_all(tags={"model.called"}) if e.stream.startswith("conv/m2.")]
    assert cached and all(c.cached and c.attempts == 0 for c in cached)
    r1 = json.loads(runner.invoke(cli, ["--log", str(log), "report", "m1", "--json"]).output)
    r2 = json.loads(runner.invoke(cli, ["--log", str(log), "report", "m2", "--json"]).output)
    assert [c["verdict"]["composite"] for c in r1["conversations"]] == [
        c["verdict"]["composite"] for c in r2["conversations"]
    ]
    assert runner.invoke(cli, ["--log", str(log), "report", "m1"]).output == report


def test_model_agent_ends_the_call_and_bad_tool_args_are_recorded(tmp_path: Path) -> None:
    def agent_only(body: dict[str, Any]) -> dict[str, Any]:
        users = sum(1 for m in body["messages"] if m["role"] == "user")
        if "tools" not in body:
            return smart(body)
        if body["messages"][-1]["role"] == "tool":
            return completion("Sorry, that did not work.")
        if users == 1:
            call = {
                "id": "c1",
                "type": "function",
                "function": {"name": "book_slot", "arguments": '{"slot": '},
            }
            return completion(None, [call])
        call = {"id": "c2", "type": "function", "function": {"name": "end_call", "arguments": "{}"}}
        return completion("Goodbye!", [call])

    log = tmp_path / "log"
    with serve(["smart"]) as (url, server):
        server.smart = agent_only
        suite = model_suite(tmp_path, url)
        text = replaced(suite.read_text(), "model: openai/test-caller", "model: scripted/caller")
        text = replaced(text, "model: openai/test-judge", "model: scripted/heuristic")
        text = replaced(text, "probe_model: openai/test-probe", "probe_model: scripted/detector")
        suite.write_text(text)
        res = CliRunner().invoke(
            cli,
            [
                "--log",
                str(log),
                "run",
                str(suite),
                "--config",
                "v1",
                "--run-id",
                "a",
                "--no-progress",
                "--json",
            ],
        )
    assert res.exit_code == 0, res.output
    with LmdbLog(log, readonly=True) as lg:
        tools = [e.payload for e in lg.read_all(tags={"tool.called"})]
        ended = [e.payload for e in lg.read_all(tags={"conversation.ended"})]
    assert tools and all(not t.valid for t in tools)
    assert any(e.reason == "hangup" and e.by == "agent" for e in ended)


def test_killed_model_run_resumes_without_asking_again(tmp_path: Path) -> None:
    """Exchanges are committed as they happen; a resumed run reuses their recorded answers."""
    import signal
    import subprocess
    import sys
    import time

    from polygon.events.errors import StorageError

    def slow_smart(body: dict[str, Any]) -> dict[str, Any]:
        time.sleep(0.05)
        return smart(body)

    log = tmp_path / "log"
    with serve(["smart"]) as (url, server):
        server.smart = slow_smart
        suite = model_suite(tmp_path, url)
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "polygon",
                "--log",
                str(log),
                "run",
                str(suite),
                "--config",
                "v1",
                "--run-id",
                "k",
                "--no-progress",
                "--concurrency",
                "4",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        partial = False
        while time.monotonic() < deadline and not partial:
            time.sleep(0.05)
            try:
                with LmdbLog(log, readonly=True) as lg:
                    partial = lg.stats().by_tag.get("conversation.turn_spoken", 0) >= 6
            except StorageError:
                pass
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert partial, "the run never got going"
        with LmdbLog(log, readonly=True) as lg:
            asked_before = {e.payload.request_hash for e in lg.read_all(tags={"model.called"})}
        before = len(server.requests)
        res = CliRunner().invoke(
            cli, ["--log", str(log), "run", str(suite), "--resume", "k", "--no-progress"]
        )
        assert res.exit_code == 0, res.output
        resumed_requests = server.requests[before:]
    from polygon.models import request_hash

    assert asked_before and not any(request_hash(r) in asked_before for r in resumed_requests)
    with LmdbLog(log, readonly=True) as lg:
        assert lg.verify().ok
        assert lg.stats().by_tag["conversation.ended"] == 12
        identities = [e.identity for e in lg.read_all()]
    assert len(identities) == len(set(identities))
