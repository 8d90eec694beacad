"""Whole runs: determinism, resume after SIGKILL, the HTTP agent, replay from the log only."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.errors import ResumeRefusedError
from polygon.events import LmdbLog, to_builtins
from polygon.examples.clinic.agents import Receptionist
from polygon.simulate.agents import AgentStep
from tests.support.examples import clinic_suite_path
from tests.support.runs import contents, run_clinic, wait_for_conversations
from tests.support.text import replaced

FIXTURES = Path(__file__).parent / "fixtures"


def test_same_suite_and_seed_give_the_same_events(tmp_path: Path) -> None:
    run_clinic(tmp_path / "a", run_id="fixed", concurrency=1)
    run_clinic(tmp_path / "b", run_id="fixed", concurrency=7)
    assert contents(tmp_path / "a") == contents(tmp_path / "b")
    run_clinic(tmp_path / "c", run_id="fixed", seed=99)
    assert contents(tmp_path / "c") != contents(tmp_path / "a")


def test_two_runs_started_in_one_second_get_two_ids(tmp_path: Path) -> None:
    """The run id comes from the suite, the seed and the start second; a second start in that
    second (the clock stands still here) must not meet the first run's id."""
    first = run_clinic(tmp_path / "log", configs=("v1",))
    second = run_clinic(tmp_path / "log", configs=("v1",))
    assert first != second
    with LmdbLog(tmp_path / "log", readonly=True) as log:
        assert {e.payload.run_id for e in log.read_all(tags={"run.started"})} == {first, second}


def test_every_step_is_an_event(tmp_path: Path) -> None:
    run_id = run_clinic(tmp_path / "log", run_id="r")
    with LmdbLog(tmp_path / "log", readonly=True) as log:
        tags = log.stats().by_tag
        events = list(log.read_stream("conv/r.v2.coop-booking.0"))
    assert tags["conversation.started"] == tags["conversation.ended"] == 24
    caller_turns = [
        e for e in events if e.tag == "conversation.turn_spoken" and e.payload.speaker == "caller"
    ]
    noise = [e for e in events if e.tag == "noise.applied"]
    # Every caller turn the agent heard went through the noise stage (a final goodbye is not heard).
    assert len(noise) in (len(caller_turns), len(caller_turns) - 1)
    assert tags["tool.called"] > 0 and tags["run.started"] == tags["run.finished"] == 1
    tags_in_order = [e.tag for e in events]
    assert tags_in_order[0] == "conversation.started"
    ended = tags_in_order.index("conversation.ended")
    assert set(tags_in_order[ended + 1 :]) == {"check.recorded", "judge.scored", "probe.answered"}
    assert [e.stream_version for e in events] == list(range(1, len(events) + 1))
    assert run_id == "r"


def test_resume_after_sigkill_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    suite = str(FIXTURES / "slow_suite.yaml")
    killed = tmp_path / "killed"
    cmd = [
        sys.executable,
        "-m",
        "polygon",
        "--log",
        str(killed),
        "run",
        suite,
        "--run-id",
        "rk",
        "--concurrency",
        "3",
        "--no-progress",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_conversations(killed, 3, timeout=60)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    partial = contents(killed)
    res = CliRunner().invoke(cli, ["--log", str(killed), "run", suite, "--resume", "rk", "--no-progress"])
    assert res.exit_code == 0, res.output
    with LmdbLog(killed, readonly=True) as log:
        assert log.verify().ok
    whole = tmp_path / "whole"
    res = CliRunner().invoke(cli, ["--log", str(whole), "run", suite, "--run-id", "rk", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert partial < contents(killed)
    assert contents(killed) == contents(whole)


def test_resume_refuses_changed_seed(tmp_path: Path) -> None:
    run_clinic(tmp_path / "log", run_id="r1")
    with pytest.raises(ResumeRefusedError, match="the seed changed"):
        run_clinic(tmp_path / "log", resume="r1", seed=12345)


class _AgentServer(BaseHTTPRequestHandler):
    agents: dict[str, Receptionist] = {}

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        body = self.rfile.read(int(self.headers["content-length"]))
        step = msgspec.json.decode(body, type=AgentStep)
        agent = self.agents.setdefault(step.conversation_id, Receptionist())
        reply = msgspec.json.encode(agent.step(step))
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def agent_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _AgentServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/step"
    server.shutdown()


def _suite_with_agent(tmp_path: Path, agent: str) -> Path:
    text = clinic_suite_path().read_text()
    text = replaced(text, "python:polygon.examples.clinic.agents:make_v1", agent)
    text = replaced(text, "prompt_file: prompt_v1.md", "prompt: v1")
    text = replaced(text, "prompt_file: prompt_v2.md", "prompt: v2")
    path = tmp_path / "suite.yaml"
    path.write_text(text)
    return path


def _turns(path: Path, config: str) -> list[object]:
    with LmdbLog(path, readonly=True) as log:
        events = sorted(
            (e for e in log.read_all() if f".{config}." in e.stream),
            key=lambda e: (e.stream, e.stream_version),
        )
        # What was said and done; not how long it took (an HTTP agent's wall time is real).
        return [
            {k: v for k, v in to_builtins(e.payload).items() if k != "latency_ms"}
            for e in events
            if e.tag in ("conversation.turn_spoken", "tool.called")
        ]


def test_http_agent_behaves_like_the_same_python_agent(tmp_path: Path, agent_url: str) -> None:
    suite = _suite_with_agent(tmp_path, agent_url)
    res = CliRunner().invoke(
        cli,
        [
            "--log",
            str(tmp_path / "http"),
            "run",
            str(suite),
            "--config",
            "v1",
            "--run-id",
            "x",
            "--no-progress",
        ],
    )
    assert res.exit_code == 0, res.output
    run_clinic(tmp_path / "py", run_id="x", configs=("v1",))
    assert _turns(tmp_path / "http", "v1") == _turns(tmp_path / "py", "v1")


def test_dead_http_agent_ends_calls_with_agent_error(tmp_path: Path) -> None:
    suite = _suite_with_agent(tmp_path, "http://127.0.0.1:9/step")
    res = CliRunner().invoke(
        cli,
        [
            "--log",
            str(tmp_path / "log"),
            "run",
            str(suite),
            "--config",
            "v1",
            "--json",
            "--no-progress",
        ],
    )
    assert res.exit_code == 0, res.output
    # stdout alone: stderr may carry warnings
    assert json.loads(res.stdout)["end_reasons"] == {"agent_error": 12}


def test_replay_reads_only_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_clinic(tmp_path / "log", run_id="r")

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("replay must not run anything")

    monkeypatch.setattr("polygon.simulate.callers.scripted.ScriptedCaller.next", boom)
    monkeypatch.setattr("polygon.simulate.agents.python.PythonAgent.step", boom)
    monkeypatch.setattr("polygon.simulate.tools.ToolBox.call", boom)
    monkeypatch.setattr("polygon.simulate.noise.apply_noise", boom)
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "replay", "r.v2.distrustful-booking.0"])
    assert res.exit_code == 0, res.output
    assert "AGENT heard" in res.output and "ended #" in res.output
    data = CliRunner().invoke(
        cli, ["--log", str(tmp_path / "log"), "replay", "r.v2.coop-booking.0", "--json"]
    )
    view = json.loads(data.output)
    assert view["ended"]["reason"] and view["turns"][0]["caller_text"]
    assert any(not t["valid"] for turn in view["turns"] for t in turn["tools"])


class _BadAgentServer(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers["content-length"]))
        body = b'{"reply": 42, "tool_calls": "nope"'
        self.send_response(200)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_garbage_from_an_http_agent_ends_the_call_cleanly(tmp_path: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _BadAgentServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        suite = _suite_with_agent(tmp_path, f"http://127.0.0.1:{server.server_address[1]}/step")
        res = CliRunner().invoke(
            cli,
            [
                "--log",
                str(tmp_path / "log"),
                "run",
                str(suite),
                "--config",
                "v1",
                "--run-id",
                "g",
                "--json",
                "--no-progress",
            ],
        )
    finally:
        server.shutdown()
    assert res.exit_code == 0, res.output
    # stdout alone: stderr may carry warnings
    assert json.loads(res.stdout)["end_reasons"] == {"agent_error": 12}
    with LmdbLog(tmp_path / "log", readonly=True) as log:
        ended = next(e.payload for e in log.read_all(tags={"conversation.ended"}))
        assert "malformed JSON" in ended.detail and log.verify().ok


def test_resume_refuses_a_changed_agent_profile(tmp_path: Path) -> None:
    suite = _suite_with_agent(tmp_path, "python:polygon.examples.clinic.agents:make_v1")
    res = CliRunner().invoke(
        cli, ["--log", str(tmp_path / "log"), "run", str(suite), "--run-id", "p", "--no-progress"]
    )
    assert res.exit_code == 0, res.output
    suite.write_text(
        replaced(suite.read_text(), "    prompt: v1", "    prompt: v1\n    params: {temperature: 0.9}")
    )
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(suite), "--resume", "p"])
    assert res.exit_code == 2 and "changed since it started" in res.output


def test_a_plain_python_agent_run_commits_as_it_goes(tmp_path: Path) -> None:
    """Killed on its 101st agent step, the run has already committed the exchanges before it."""
    import shutil
    import subprocess
    import sys

    folder = tmp_path / "suite"
    shutil.copytree(Path(__file__).parent / "fixtures" / "dying", folder)
    text = clinic_suite_path().read_text()
    text = replaced(text, "python:polygon.examples.clinic.agents:make_v1", "python:agents:make")
    text = replaced(text, "prompt_file: prompt_v1.md", "prompt: v1\n    params: {after: 101}")
    text = replaced(text, "prompt_file: prompt_v2.md", "prompt: v2")
    text = replaced(text, "trials: 1", "trials: 4")
    (folder / "suite.yaml").write_text(text)
    log = tmp_path / "log"
    proc = subprocess.run(
        [sys.executable, "-m", "polygon", "--log", str(log), "run", str(folder / "suite.yaml"), "--config", "v1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == -9, proc.stderr
    with LmdbLog(log, readonly=True) as opened:
        committed = opened.last_seq()
    assert committed > 50, committed  # before: 1 (only run.started) until every call had ended
