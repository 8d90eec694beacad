"""Secrets an HTTP endpoint says back transformed are masked too (notes/attacker42.md 1).

A real server on 127.0.0.1 is sent a ``${VAR}`` header, URL userinfo and a credential query
value, and answers each of them percent-encoded (``quote`` and ``quote_plus``), upper and
lower case, and base64 (standard and URL-safe, with and without padding): in its reply, in a
tool call's name and arguments, and in a field name of a misshapen answer. No byte of any
form reaches the log file, the export, replay or a report. Hex, reversed or split secrets are
not masked (docs/hostile-input.md says why).
"""

from __future__ import annotations

import base64
import json
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from polygon.boundary import mask, mask_value
from polygon.cli.main import cli
from tests.support.runs import pizza

HEADER = "HdrSecret/+=Val99"
PASSWORD = "UiPass+Sec/99"
QUERY = "QTok/Sec+r3t"
URL = "http://alice:UiPass%2BSec%2F99@127.0.0.1:{port}/step?token=QTok%2FSec%2Br3t&lang=en"


def forms(secret: str) -> set[str]:
    """Every transformed form the endpoint says back (and the secret as is)."""
    b64 = {base64.b64encode(secret.encode()).decode(), base64.urlsafe_b64encode(secret.encode()).decode()}
    quoted = {
        urllib.parse.quote(secret, safe=""),
        urllib.parse.quote(secret),
        urllib.parse.quote_plus(secret),
    }
    cased = {secret.upper(), secret.lower(), urllib.parse.quote(secret, safe="").lower()}
    return {secret, *quoted, *cased, *b64, *(b.rstrip("=") for b in b64)}


class _Sayer(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        step = json.loads(self.rfile.read(int(self.headers["content-length"])))
        basic = base64.b64decode(self.headers["authorization"].removeprefix("Basic ")).decode()
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)["token"][0]
        sent = [self.headers["x-api-key"], basic.partition(":")[2], query]
        said = " | ".join(sorted(f for s in sent for f in forms(s)))
        answer: dict[str, Any] = {"reply": f"Your order is noted. {said}.", "end": ""}
        if not step["tool_results"]:
            answer["tool_calls"] = [
                {"id": "c1", "name": sent[0].upper(), "arguments": {sent[1].lower(): said}}
            ]
        else:  # a misshapen answer: its unknown field's name is in the recorded fault
            answer = {sent[0].upper(): 1, "role": "x"}
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def _server() -> Iterator[ThreadingHTTPServer]:
    running = ThreadingHTTPServer(("127.0.0.1", 0), _Sayer)
    running.daemon_threads = True
    threading.Thread(target=running.serve_forever, daemon=True).start()
    try:
        yield running
    finally:
        running.shutdown()
        running.server_close()


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def test_every_echo_form_of_every_secret_is_masked_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POLYGON_TEST_FORMS_KEY", HEADER)
    log = tmp_path / "log"
    with _server() as server:
        url = URL.format(port=server.server_address[1])
        headers = 'headers: {X-Api-Key: "${POLYGON_TEST_FORMS_KEY}"},'
        suite = pizza(tmp_path, **{'"python:pizza_agents:make_good",': f'"{url}", {headers}'})
        ran = polygon(log, "run", str(suite), "--config", "good", "--run-id", "u", "--no-progress")
    assert ran.exit_code in (0, 1), ran.output
    outputs = {
        "log file": b"".join(p.read_bytes() for p in log.rglob("*.mdb")).decode("latin-1"),
        "run": ran.output,
    }
    assert polygon(log, "log", "export", "-o", str(tmp_path / "export.jsonl")).exit_code == 0
    outputs["export"] = (tmp_path / "export.jsonl").read_text()
    outputs["replay"] = polygon(log, "replay", "u.good.veggie.0").output
    outputs["report"] = polygon(log, "report", "u", "--format", "json").output
    every = {f for s in (HEADER, PASSWORD, QUERY) for f in forms(s)}
    assert len(every) >= 20  # some forms coincide (no byte that URL-safe base64 changes)
    assert [(name, f) for name, text in outputs.items() for f in sorted(every) if f in text] == []
    assert "Your order is noted. *** | *** | ***" in outputs["log file"]  # the reply is still recorded
    assert '{"***", "role"}: no `reply` field' in outputs["replay"], outputs["replay"]


def test_a_short_secret_is_masked_as_written_not_in_every_case() -> None:
    # under 8 characters case-insensitive masking would hit ordinary words ("Test", "TEST")
    assert mask("code test Test TEST dGVzdA", ["test"]) == "code *** Test TEST ***"
    assert mask("key Abcd/Efgh-9 ABCD%2FEFGH-9 abcd%2fefgh-9", ["abcd/efgh-9"]) == "key *** *** ***"


def test_without_secrets_nothing_changes() -> None:
    reply = {"reply": "Any Text %2F", "tool_calls": [{"name": "X", "arguments": {"a": "b"}}]}
    assert mask_value(reply, []) is reply and mask("Any Text", []) == "Any Text"


def test_a_secret_holding_another_is_masked_whole() -> None:
    assert mask("say LONG-SECRET-VALUE now", ["SECRET", "long-secret-value"]) == "say *** now"
