"""The note's Ray row: a worker without the key, a worker without a module, a dead raylet.

``python -m tests.fuzz.ray_table`` starts a local Ray (2 CPUs), then runs the pizza suite on it
three ways and prints one table row: a traceback is an exception that is not a Polygon error;
a hole is a run that exits 0, or records the worker's fault as the agent's ``error``.
"""

from __future__ import annotations

import http.server
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import ray
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.errors import PolygonError
from polygon.events import LmdbLog
from polygon.events.families import ConversationEnded
from tests.support.runs import pizza

FAULT_ENDS = ("agent_error", "simulator_error")


class _Refuses(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        body = b'{"error": {"message": "Incorrect API key provided", "code": "invalid_api_key"}}'
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def _errors(log: Path) -> int:
    """Calls the log says ended by an error of the agent or the simulated caller."""
    if not (log / "data.mdb").exists():
        return 0
    with LmdbLog(log, readonly=True) as opened:
        return sum(
            1
            for e in opened.read_all()
            if isinstance(e.payload, ConversationEnded) and e.payload.reason in FAULT_ENDS
        )


def main() -> None:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    os.environ["OPENAI_API_KEY"] = "sk-driver-only"  # set after the workers' raylet started: they lack it
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Refuses)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tries = tracebacks = hangs = lost = holes = 0
    notes = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"

        def attempt(name: str, log: Path, suite: Path, *extra: str) -> None:
            nonlocal tries, tracebacks, holes
            tries += 1
            args = ["--log", str(log), "run", str(suite), "--config", "good", "--run-id", "r"]
            res = CliRunner().invoke(cli, [*args, "--executor", "ray", "--no-progress", *extra])
            exc = res.exception
            if (exc is not None and not isinstance(exc, SystemExit | PolygonError)) or 'File "' in res.output:
                tracebacks += 1
                notes.append(f"traceback: {name}: {type(exc).__name__}")
            elif res.exit_code == 0 or _errors(log):
                holes += 1
                notes.append(f"hole: {name}: exit {res.exit_code}, {_errors(log)} calls ended by the fault")
            else:
                notes.append(f"ok: {name}: {res.output.strip().splitlines()[-1][:200]}")

        keyless = pizza(tmp / "a", **{"caller: {model: scripted/caller}": "caller: {model: openai/caller}"})
        attempt("a worker without OPENAI_API_KEY (401)", tmp / "a" / "log", keyless, "--base-url", url)
        # a module only the driver can import (its folder is on the driver's path alone)
        only_here = tmp / "driver_only"
        only_here.mkdir()
        (only_here / "driver_only_agents.py").write_text(
            (Path(__file__).parents[1] / "app" / "fixtures" / "pizza" / "pizza_agents.py").read_text()
        )
        sys.path.insert(0, str(only_here))
        missing = pizza(tmp / "b", **{"python:pizza_agents:make_good": "python:driver_only_agents:make_good"})
        attempt("a worker without the agent's module", tmp / "b" / "log", missing)
        real_wait = ray.wait

        def dead(*args: Any, **kwargs: Any) -> Any:
            raise ray.exceptions.LocalRayletDiedError()

        ray.wait = dead
        try:
            attempt("a dead raylet", tmp / "c" / "log", pizza(tmp / "c"))
        finally:
            ray.wait = real_wait
    print(f"| ray | {tries} | {tracebacks} | {hangs} | {lost} | {holes} |")
    for n in notes:
        print("  -", n, file=sys.stderr)
    sys.stdout.flush()
    ray.shutdown()


if __name__ == "__main__":
    main()
