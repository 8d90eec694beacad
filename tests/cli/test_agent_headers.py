"""An HTTP agent's headers from environment variables, end to end against a real server.

The suite names the variable (``Authorization: "Bearer ${VAR}"``); the value is sent with every
step and never recorded, printed or reported, by a run, a sweep or a rerun, even when the
endpoint echoes it back. A variable that is not set stops the command before anything is written.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from polygon.cli.main import cli
from polygon.events import LmdbLog, to_builtins
from tests.support.runs import pizza

VARIABLE = "POLYGON_TEST_AGENT_TOKEN"
TOKEN = "s3cr3t-T0KEN-4711"


class _Server(ThreadingHTTPServer):
    authorization: list[str]


class _EchoingAgent(BaseHTTPRequestHandler):
    """Answers every step, saying the Authorization header back (as a careless endpoint might)."""

    server: _Server

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        step = json.loads(self.rfile.read(int(self.headers["content-length"])))
        said = self.headers.get("authorization", "")
        self.server.authorization.append(said)
        end = "hangup" if step["turn"] >= 2 else ""
        body = json.dumps({"reply": f"Your order is noted. I was sent {said}.", "end": end}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[_Server]:
    running = _Server(("127.0.0.1", 0), _EchoingAgent)
    running.authorization = []
    threading.Thread(target=running.serve_forever, daemon=True).start()
    yield running
    running.shutdown()


def _suite(tmp_path: Path, server: _Server) -> Path:
    url = f"http://127.0.0.1:{server.server_address[1]}/step"
    headers = f'headers: {{Authorization: "Bearer ${{{VARIABLE}}}", X-Team: pizza}}'
    return pizza(tmp_path, **{'"python:pizza_agents:make_good",': f'"{url}", {headers},'})


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def _recorded(log: Path) -> str:
    """Every event's payload, raw."""
    with LmdbLog(log, readonly=True) as opened:
        return "\n".join(repr(to_builtins(e.payload)) for e in opened.read_all())


def _shown(log: Path, tmp_path: Path, run_id: str) -> dict[str, str]:
    """Everything a user can read about ``run_id``: export, reports, replay, explain, runs."""
    outputs = {"raw log": _recorded(log), "runs": polygon(log, "runs").output}
    assert polygon(log, "log", "export", "-o", str(tmp_path / "export.jsonl")).exit_code == 0
    outputs["export"] = (tmp_path / "export.jsonl").read_text()
    for fmt in ("text", "json", "junit", "html", "markdown"):
        written = tmp_path / f"{run_id}.{fmt}"
        assert polygon(log, "report", run_id, "--format", fmt, "-o", str(written)).exit_code == 0
        outputs[fmt] = written.read_text()
    call = f"{run_id}.good.veggie.0"
    outputs["replay"] = polygon(log, "replay", call).output
    outputs["explain"] = polygon(log, "explain", call).output
    return outputs


def _no_token(outputs: dict[str, str]) -> None:
    assert [name for name, text in outputs.items() if TOKEN in text] == []


def test_a_header_from_the_environment_is_sent_and_never_recorded(
    tmp_path: Path, server: _Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    log = tmp_path / "log"
    ran = polygon(log, "run", str(_suite(tmp_path, server)), "--config", "good", "--run-id", "h", "--no-progress")
    assert ran.exit_code == 0, ran.output
    assert server.authorization and set(server.authorization) == {f"Bearer {TOKEN}"}
    outputs = _shown(log, tmp_path, "h") | {"run": ran.output}
    _no_token(outputs)
    assert "I was sent Bearer ***." in outputs["replay"]  # the echo is masked before it is recorded


def test_rerun_and_sweep_send_the_header_and_record_no_value(
    tmp_path: Path, server: _Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    log = tmp_path / "log"
    suite = _suite(tmp_path, server)
    assert polygon(log, "run", str(suite), "--config", "raises", "--run-id", "p", "--no-progress").exit_code == 0
    rerun = polygon(log, "rerun", "p.raises.veggie.0", "--suite", str(suite), "--config", "good", "--run-id", "x")
    assert rerun.exit_code == 0, rerun.output
    sent = len(server.authorization)
    assert sent > 0
    sweep = suite.parent / "sweep.yaml"
    sweep.write_text("name: s\nsuite: suite.yaml\nbase: good\nmode: oat\nparameters: {patience: [2]}\n")
    swept = polygon(log, "sweep", str(sweep))
    assert swept.exit_code == 0, swept.output
    assert len(server.authorization) > sent and set(server.authorization) == {f"Bearer {TOKEN}"}
    _no_token({"raw log": _recorded(log), "rerun": rerun.output, "sweep": swept.output})


@pytest.mark.parametrize("command", ["run", "rerun", "sweep"])
def test_an_unset_variable_stops_before_anything_is_written(
    tmp_path: Path, server: _Server, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    log = tmp_path / "log"
    suite = _suite(tmp_path, server)
    if command == "rerun":
        assert polygon(log, "run", str(suite), "--config", "raises", "--run-id", "p", "--no-progress").exit_code == 0
    before = _recorded(log) if command == "rerun" else ""
    sweep = suite.parent / "sweep.yaml"
    sweep.write_text("name: s\nsuite: suite.yaml\nbase: good\nmode: oat\nparameters: {patience: [2]}\n")
    args = {
        "run": ["run", str(suite), "--config", "good", "--no-progress"],
        "rerun": ["rerun", "p.raises.veggie.0", "--suite", str(suite), "--config", "good"],
        "sweep": ["sweep", str(sweep)],
    }[command]
    failed = polygon(log, *args)
    assert failed.exit_code == 2, failed.output
    assert (
        f"error: {suite}: configs.good.headers.Authorization: the environment variable {VARIABLE} is not set"
        in failed.output
    )
    assert server.authorization == []
    assert (_recorded(log) if log.exists() else "") == before


def test_a_config_that_does_not_run_needs_no_variable(
    tmp_path: Path, server: _Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    ran = polygon(tmp_path / "log", "run", str(_suite(tmp_path, server)), "--config", "raises", "--no-progress")
    assert ran.exit_code == 0, ran.output


def test_a_rotated_token_is_the_same_profile_a_changed_template_is_not(
    tmp_path: Path, server: _Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    log = tmp_path / "log"
    suite = _suite(tmp_path, server)
    assert polygon(log, "run", str(suite), "--config", "good", "--run-id", "r", "--no-progress").exit_code == 0
    monkeypatch.setenv(VARIABLE, "a-rotated-token-0815")
    resumed = polygon(log, "run", str(suite), "--resume", "r", "--no-progress")
    assert resumed.exit_code == 0, resumed.output
    suite.write_text(suite.read_text().replace("X-Team: pizza", "X-Team: pasta"))
    refused = polygon(log, "run", str(suite), "--resume", "r", "--no-progress")
    assert refused.exit_code == 2 and "the suite changed since it started" in refused.output, refused.output
