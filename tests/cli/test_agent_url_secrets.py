"""Credentials in an HTTP agent's URL, end to end against a real server (notes/attacker41.md 1-2).

A URL's userinfo, the Basic credential the client builds of it and its query values are
masked in everything recorded when the endpoint says them back, as a header's ``${VAR}``
is: no byte of them in the log file or any output. A URL with userinfo and an
``Authorization`` header is refused when the suite loads (the userinfo would replace the header).
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from polygon.boundary import url_credentials
from polygon.cli.main import cli
from tests.support.echo_agent import EchoServer, echo_agent
from tests.support.runs import pizza

PASSWORD = "P%40ss-W0rd-99"  # as written in the URL; the endpoint's Basic credential decodes it
BASIC = base64.b64encode(b"agent-user:P@ss-W0rd-99").decode()
QUERY = "URL%2BSECRET%2B4711"


@pytest.fixture
def server() -> Iterator[EchoServer]:
    with echo_agent() as running:
        yield running


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def _suite(tmp_path: Path, url: str, headers: str = "") -> Path:
    return pizza(tmp_path, **{'"python:pizza_agents:make_good",': f'"{url}", {headers}'})


def _everything(log: Path, tmp_path: Path, run_id: str) -> dict[str, str]:
    """The log file's bytes and every output a user can read about ``run_id``."""
    outputs = {"log file": b"".join(p.read_bytes() for p in log.rglob("*.mdb")).decode("latin-1")}
    outputs["runs"] = polygon(log, "runs").output
    assert polygon(log, "log", "export", "-o", str(tmp_path / "export.jsonl")).exit_code == 0
    outputs["export"] = (tmp_path / "export.jsonl").read_text()
    for fmt in ("text", "json", "junit", "html", "markdown"):
        written = tmp_path / f"{run_id}.{fmt}"
        assert polygon(log, "report", run_id, "--format", fmt, "-o", str(written)).exit_code == 0
        outputs[fmt] = written.read_text()
    for command in ("replay", "explain"):
        outputs[command] = polygon(log, command, f"{run_id}.good.veggie.0").output
    return outputs


SECRETS = {
    "userinfo": (f"http://agent-user:{PASSWORD}@127.0.0.1:PORT/step", ["P@ss-W0rd-99", PASSWORD, BASIC.rstrip("=")]),
    "query": (f"http://127.0.0.1:PORT/step?api_key={QUERY}&lang=en", [QUERY, "URL+SECRET+4711"]),
    "none": ("http://127.0.0.1:PORT/step?lang=en", []),  # nothing to mask: the replies recorded as said
}
SAID = {"userinfo": "Basic *** at /step", "query": " at /step?api_key=***&lang=en with *** en", "none": " at /step?lang=en with en"}


@pytest.mark.parametrize("where", list(SECRETS))
def test_an_echoed_url_credential_leaves_no_byte_in_the_log_or_any_output(
    tmp_path: Path, server: EchoServer, where: str
) -> None:
    url, secrets = SECRETS[where]
    log = tmp_path / "log"
    suite = _suite(tmp_path, url.replace("PORT", str(server.server_address[1])))
    ran = polygon(log, "run", str(suite), "--config", "good", "--run-id", "u", "--no-progress")
    assert ran.exit_code == 0, ran.output
    sent = set(server.authorization)
    assert sent == ({f"Basic {BASIC}"} if where == "userinfo" else {""})  # the credential did reach the endpoint
    outputs = _everything(log, tmp_path, "u") | {"run": ran.output}
    assert [(name, s) for name, text in outputs.items() for s in secrets if s in text] == []
    assert "Your order is noted. I was sent " in outputs["log file"]  # the file's text is readable as bytes
    assert SAID[where] in outputs["replay"] and SAID[where] in outputs["export"]


@pytest.mark.parametrize("header", ["Authorization", "authorization"])
def test_userinfo_and_an_authorization_header_are_refused_at_load(
    tmp_path: Path, server: EchoServer, header: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POLYGON_TEST_AGENT_TOKEN", "a-token-never-sent")
    url = f"{server.url.replace('//', f'//agent-user:{PASSWORD}@')}/step"
    suite = _suite(tmp_path, url, f'headers: {{{header}: "Bearer ${{POLYGON_TEST_AGENT_TOKEN}}"}},')
    refused = polygon(tmp_path / "log", "run", str(suite), "--config", "good", "--no-progress")
    assert refused.exit_code == 2, refused.output
    assert refused.output.startswith(f"error: {suite}") and refused.output.count("\n") == 1, refused.output
    assert "configs.good" in refused.output and "userinfo" in refused.output
    assert "in place of headers.Authorization" in refused.output
    assert PASSWORD not in refused.output and "P@ss" not in refused.output
    assert server.authorization == []


def test_userinfo_alone_and_a_header_alone_are_each_sent(tmp_path: Path, server: EchoServer) -> None:
    url = f"{server.url.replace('//', f'//agent-user:{PASSWORD}@')}/step"
    suite = _suite(tmp_path, url, "headers: {X-Team: pizza},")
    ran = polygon(tmp_path / "log", "run", str(suite), "--config", "good", "--no-progress")
    assert ran.exit_code == 0, ran.output
    assert set(server.authorization) == {f"Basic {BASIC}"}


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8000/step", "http://127.0.0.1:8000/step?v=2&lang=en&mode=fast", "https://h/step#top"],
)
def test_a_url_without_credentials_masks_nothing(url: str) -> None:
    assert url_credentials(url) == []  # so a run of it records its replies exactly as said


def test_what_a_url_masks_in_an_echo() -> None:
    found = url_credentials("http://me:pa%2Bss@h/step?sig=abcd&lang=en&tenant=acme-pizza-1&k#fragment-99")
    basic = base64.b64encode(b"me:pa+ss").decode()
    userinfo = {"me:pa%2Bss", "me:pa+ss", "pa%2Bss", "pa+ss", basic, basic.rstrip("=")}
    assert set(found) == userinfo | {"abcd", "acme-pizza-1", "fragment-99"}  # not "en", not the user "me"
    assert found == sorted(found, key=len, reverse=True)  # a secret holding another is masked whole
