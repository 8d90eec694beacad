"""The note's table: hostile tries at the web endpoints and label imports, counted.

``python -m tests.fuzz.hostile_table`` prints, per area, how many tries were made, how many
ended in a traceback (a 5xx or an exception that is not a Polygon error), hung (past the
budget), lost or corrupted something, or were a hole (a hostile request or file accepted).
It runs against whatever code is checked out, so the same script measures before and after.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from starlette.testclient import TestClient

from polygon.cli.main import cli
from polygon.errors import PolygonError
from polygon.web import make_app

ROOT = Path(__file__).parents[2]
SUITE = ROOT / "examples" / "clinic" / "suite.yaml"
PORT = 8765
BUDGET = 15.0


class Tally:
    def __init__(self) -> None:
        self.tries = self.tracebacks = self.hangs = self.lost = self.holes = 0
        self.notes: list[str] = []

    def row(self, area: str) -> str:
        return f"| {area} | {self.tries} | {self.tracebacks} | {self.hangs} | {self.lost} | {self.holes} |"


def _timed(call: Callable[[], Any]) -> tuple[str, Any]:
    box: dict[str, Any] = {}

    def go() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - a try's outcome
            box["error"] = exc

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(BUDGET)
    if t.is_alive():
        return "hang", None
    if "error" in box:
        return "error", box["error"]
    return "ok", box["value"]


def web(log: Path, suite_dir: Path) -> Tally:
    kwargs: dict[str, Any] = {}
    if "port" in inspect.signature(make_app).parameters:
        kwargs["port"] = PORT
    app = make_app(log, [suite_dir / "suite.yaml"], **kwargs)
    base = f"http://127.0.0.1:{PORT}"
    client = TestClient(app, base_url=base, raise_server_exceptions=False)
    page = client.get("/prompt").text
    token = page.split('name="token" value="', 1)[1].split('"', 1)[0] if 'name="token"' in page else ""
    suite = str((suite_dir / "suite.yaml").resolve())
    own = {"origin": base, "content-type": "application/json"}
    t = Tally()

    def attempt(name: str, call: Callable[[], Any], refused: bool = True) -> None:
        """One hostile request: a traceback is a 5xx; a hole is a 2xx/3xx where refusal was due."""
        t.tries += 1
        state, value = _timed(call)
        if state == "hang":
            t.hangs += 1
            t.notes.append(f"hang: {name}")
            return
        if state == "error":
            t.tracebacks += 1
            t.notes.append(f"exception: {name}: {type(value).__name__}")
            return
        if value.status_code >= 500 or "Traceback" in value.text:
            t.tracebacks += 1
            t.notes.append(f"{value.status_code}: {name}")
        elif refused and value.status_code < 400:
            t.holes += 1
            t.notes.append(f"accepted ({value.status_code}): {name}")
        if "content-security-policy" not in value.headers:
            t.holes += 1
            t.notes.append(f"no CSP ({value.status_code}): {name}")

    evil = {"host": f"attacker.test:{PORT}"}
    for path in ("/", "/prompt", "/api/runs", "/runs/rone", "/static/app.js"):
        attempt(f"GET {path} Host attacker.test", lambda p=path: client.get(p, headers=evil))
    attempt("GET / Host 127.0.0.1:1", lambda: client.get("/", headers={"host": "127.0.0.1:1"}))
    lint = {"text": "Always be kind.", "tiers": "rules"}
    attempt("lint no token", lambda: client.post("/api/lint", json=lint, headers={"origin": base}))
    attempt(
        "lint text/plain",
        lambda: client.post(
            "/api/lint",
            content=json.dumps({**lint, "token": token}),
            headers={"origin": base, "content-type": "text/plain", "x-polygon-token": token},
        ),
    )
    attempt(
        "lint foreign Origin",
        lambda: client.post(
            "/api/lint", json=lint, headers={"origin": "http://evil.example", "x-polygon-token": token}
        ),
    )
    tok = {**own, "x-polygon-token": token}
    for name, body in (
        ("a list", "[1,2]"),
        ("a string", '"x"'),
        ("not JSON", "{no"),
        ("tiers list", '{"text":"a","tiers":[1]}'),
    ):
        attempt(f"lint {name}", lambda b=body: client.post("/api/lint", content=b, headers=tok))
    attempt("lint 2 MB", lambda: client.post("/api/lint", json={"text": "x " * 1_000_000}, headers=tok))
    form = {"token": token, "suite": suite, "text": "pwned"}
    attempt(
        "save Origin https",
        lambda: client.post(
            "/prompt/save",
            data={**form, "filename": "a1.md"},
            headers={"origin": f"https://127.0.0.1:{PORT}"},
        ),
    )
    attempt(
        "save Origin and Host attacker",
        lambda: client.post(
            "/prompt/save",
            data={**form, "filename": "a2.md"},
            headers={"origin": f"http://attacker.test:{PORT}", "host": f"attacker.test:{PORT}"},
        ),
    )
    attempt(
        "save into a missing folder",
        lambda: client.post("/prompt/save", data={**form, "filename": "nope/x.md"}, headers={"origin": base}),
    )
    attempt(
        "save 300-character name",
        lambda: client.post(
            "/prompt/save", data={**form, "filename": "a" * 300 + ".md"}, headers={"origin": base}
        ),
    )
    attempt(
        "save 20 MB body",
        lambda: client.post(
            "/prompt/save",
            data={**form, "filename": "big.md", "text": "x" * 20_000_000},
            headers={"origin": base},
        ),
    )
    attempt("GET ?page=²", lambda: client.get("/runs/rone?page=²"), refused=False)
    attempt("GET /prompt?suite=%00", lambda: client.get("/prompt?suite=%00"))
    attempt("GET 404", lambda: client.get("/nothing-here"), refused=False)
    # the log appears after the server started: the list must show it
    late = log.parent / "late"
    lclient = TestClient(make_app(late, **kwargs), base_url=base, raise_server_exceptions=False)
    lclient.get("/")
    CliRunner().invoke(cli, ["--log", str(late), "run", str(SUITE), "--run-id", "rlate", "--no-progress"])
    t.tries += 1
    if "rlate" not in lclient.get("/").text:
        t.lost += 1
        t.notes.append("a log made after the server started never shows")
    return t


def labels(log: Path, tmp: Path) -> Tally:
    t = Tally()

    def attempt(name: str, content: str | bytes, *extra: str, should_refuse: bool = True) -> None:
        t.tries += 1
        path = tmp / f"labels{t.tries}.{'jsonl' if name.startswith('jsonl') else 'csv'}"
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        state, res = _timed(
            lambda: CliRunner().invoke(cli, ["--log", str(log), "labels", "import", str(path), *extra])
        )
        if state == "hang":
            t.hangs += 1
            t.notes.append(f"hang: {name}")
            return
        exc = res.exception
        if exc is not None and not isinstance(exc, SystemExit | PolygonError):
            t.tracebacks += 1
            t.notes.append(f"traceback: {name}: {type(exc).__name__}")
        elif should_refuse and res.exit_code == 0:
            t.holes += 1
            t.notes.append(f"accepted: {name}")
        elif not should_refuse and res.exit_code != 0:
            t.holes += 1
            t.notes.append(f"refused a good file: {name}: {res.output.strip()[:120]}")

    attempt(
        "--run rone, a call of rtwo", "conversation,verdict\nrtwo.v1.busy-booking.0,pass\n", "--run", "rone"
    )
    attempt(
        "Excel BOM header",
        "\ufeffconversation,verdict\nv1.busy-booking.0,pass\n".encode(),
        "--run",
        "rone",
        should_refuse=False,
    )
    attempt("jsonl deep", '{"conversation":' + "[" * 100_000 + "]" * 100_000 + "}\n")
    attempt(
        "csv field 200 KB", "conversation,verdict,note\nrone.v1.busy-booking.0,pass," + "x" * 200_000 + "\n"
    )
    attempt("reward -5", "conversation,reward\nrone.v1.busy-booking.0,-5\n")
    attempt("reward 99", "conversation,reward\nrone.v1.busy-booking.0,99\n")
    attempt("jsonl by a list", '{"conversation":"rone.v1.busy-booking.0","verdict":"pass","by":["x"]}\n')
    attempt(
        "jsonl note a dict", '{"conversation":"rone.v1.busy-booking.0","verdict":"pass","note":{"a":1}}\n'
    )
    attempt("jsonl verdict a list", '{"conversation":"rone.v1.busy-booking.0","verdict":["pass"]}\n')
    attempt("jsonl conversation a dict", '{"conversation":{"a":1},"verdict":"pass"}\n')
    attempt("jsonl criterion a list", '{"conversation":"rone.v1.busy-booking.0","safety":[1]}\n')
    attempt("binary", b"\x00\xff\xfe" * 100)
    attempt("csv NUL", "conversation,verdict\nrone.v1.busy-booking.0\x00,pass\n")
    return t


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        log = tmp / "log"
        for run_id in ("rone", "rtwo"):
            res = CliRunner().invoke(
                cli, ["--log", str(log), "run", str(SUITE), "--run-id", run_id, "--no-progress"]
            )
            assert res.exit_code == 0, res.output
        suite_dir = tmp / "suite"
        suite_dir.mkdir()
        for name in ("suite.yaml", "agents.py", "prompt_v1.md", "prompt_v2.md"):
            (suite_dir / name).write_bytes((SUITE.parent / name).read_bytes())
        print("| area | tries | tracebacks | hangs | lost or corrupted | holes |")
        print("|---|---|---|---|---|---|")
        lab = labels(log, tmp)
        print(lab.row("labels"))
        w = web(log, suite_dir)
        print(w.row("web"))
        for n in (*lab.notes, *w.notes):
            print("  -", n, file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # a hung try's thread must not keep the process


if __name__ == "__main__":
    main()
