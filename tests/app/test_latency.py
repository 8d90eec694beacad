"""Agent latency: recorded per turn, summarised per call, checked against a budget, reported."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import CheckRecorded, ConversationEnded, TurnSpoken

SUITE = """
name: slow-line
seed: 2
max_turns: 3
latency_budget_ms: {budget}
configs:
  http: {{agent: "{url}", prompt: "Answer."}}
noise: {{intensity: 0.0}}
personas:
  - {{id: p, type: cooperative, outcome: success, difficulty: 1, goal: ask about opening hours,
     facts: {{name: Ana Horvat}}}}
"""


class _Slow(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers["content-length"]))
        time.sleep(0.12)
        body = msgspec.json.encode({"reply": "We are open from nine to five. Anything else?"})
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def slow_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/step"
    server.shutdown()


def _run(tmp_path: Path, url: str, budget: int) -> tuple[Path, str]:
    suite = tmp_path / f"suite{budget}.yaml"
    suite.write_text(SUITE.format(url=url, budget=budget))
    log = tmp_path / f"log{budget}"
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(suite), "--run-id", "s"])
    assert res.exit_code == 0, res.output
    return log, CliRunner().invoke(cli, ["--log", str(log), "report", "s"]).output


def test_an_http_agents_wall_time_is_recorded_checked_and_reported(tmp_path: Path, slow_url: str) -> None:
    log, report = _run(tmp_path, slow_url, budget=50)
    with LmdbLog(log, readonly=True) as opened:
        events = [e.payload for e in opened.read_all()]
    agent_turns = [p for p in events if isinstance(p, TurnSpoken) and p.speaker == "agent"]
    assert agent_turns and all(p.latency_ms >= 100 for p in agent_turns)  # the server's 120 ms
    ended = next(p for p in events if isinstance(p, ConversationEnded))
    assert ended.latency_p95_ms >= 100
    check = next(p for p in events if isinstance(p, CheckRecorded) and p.check == "latency")
    assert check.outcome == "fail" and "over the budget of 50 ms" in check.detail
    assert "p95 ms" in report and "check latency: p95" in report
    replay = CliRunner().invoke(cli, ["--log", str(log), "replay", "s.http.p.0"]).output
    assert " ms)" in replay
    _, within = _run(tmp_path, slow_url, budget=5000)
    assert "check latency" not in within  # passed: no reason to show


def test_a_python_agents_own_time_is_not_recorded_so_runs_stay_identical(tmp_path: Path) -> None:
    from tests.support.runs import contents, run_clinic

    run_clinic(tmp_path / "a", run_id="same")
    run_clinic(tmp_path / "b", run_id="same")
    assert contents(tmp_path / "a") == contents(tmp_path / "b")
    with LmdbLog(tmp_path / "a", readonly=True) as opened:
        agent = [
            e.payload
            for e in opened.read_all()
            if isinstance(e.payload, TurnSpoken) and e.payload.speaker == "agent"
        ]
    # Only the stubs' simulated latency: turns without a tool call took no recorded time.
    assert any(p.latency_ms > 0 for p in agent) and any(p.latency_ms == 0 for p in agent)
