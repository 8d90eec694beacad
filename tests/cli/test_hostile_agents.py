"""Hostile agents and URLs, end to end on the pizza suite (notes/trial39.md defects 9-13).

A URL's credentials are never recorded or printed; a reply asking for thousands of tool calls
is refused at once; control characters in a reply are shown, never acted on by a terminal.
"""

from __future__ import annotations

import json
import xml.dom.minidom
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from polygon.cli.main import cli
from polygon.events import LmdbLog, to_builtins
from tests.support.runs import pizza

AGENTS = '''
from polygon import AgentReply, ToolCall


class Spam:
    def step(self, req):
        calls = [ToolCall(id=f"c{i}", name="find_slots", arguments={}) for i in range(5000)]
        return AgentReply(reply="", tool_calls=calls)


def make_spam(prompt="", params=None):
    return Spam()


class Escapes:
    def step(self, req):
        return AgentReply(reply="How can I help?\\x1b]0;pwned-title\\x07\\rPASS  100.00 \\u202eeverything fine")


def make_escapes(prompt="", params=None):
    return Escapes()
'''
RAW = "How can I help?\x1b]0;pwned-title\x07\rPASS  100.00 \u202eeverything fine"
SHOWN = r"How can I help?\x1b]0;pwned-title\x07\rPASS  100.00 \u202eeverything fine"


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def _suite(tmp_path: Path, agent: str) -> Path:
    suite = pizza(tmp_path, **{"python:pizza_agents:make_good": agent})
    (suite.parent / "hostile_agents.py").write_text(AGENTS)
    return suite


def _recorded(log: Path) -> str:
    """Every event's tag and every text it holds, raw."""
    with LmdbLog(log, readonly=True) as opened:
        return "\n".join(f"{e.tag}\n" + "\n".join(_texts(to_builtins(e.payload))) for e in opened.read_all())


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in (*_texts(k), *_texts(v))]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def _exported(log: Path, out: Path) -> str:
    assert polygon(log, "log", "export", "-o", str(out)).exit_code == 0
    return out.read_text()


@pytest.mark.parametrize("secret_at", ["userinfo", "query"])
def test_credentials_in_an_agent_url_are_never_recorded_or_printed(tmp_path: Path, secret_at: str) -> None:
    url = "http://admin:hunter2pass@127.0.0.1:9/step?token=URLSECRET777&v=2"
    log = tmp_path / "log"
    ran = polygon(log, "run", str(_suite(tmp_path, url)), "--config", "good", "--run-id", "h", "--no-progress")
    assert ran.exit_code == 0, ran.output
    shown = [
        _recorded(log),
        ran.output,
        _exported(log, tmp_path / "export.jsonl"),
        polygon(log, "replay", "h.good.veggie.0").output,
        polygon(log, "report", "h").output,
    ]
    assert "conversation.started" in shown[2]
    secret = "hunter2pass" if secret_at == "userinfo" else "URLSECRET777"
    assert not [text for text in shown if secret in text or "admin:" in text]
    assert "agent http://***@127.0.0.1:9/step?token=***&v=***" in shown[3]
    assert "ConnectError" in shown[4]  # the fault is still said, with the URL masked


def test_a_reply_with_too_many_tool_calls_is_a_protocol_violation_at_once(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = _suite(tmp_path, "python:hostile_agents:make_spam")
    ran = polygon(log, "run", str(suite), "--config", "good", "--run-id", "s", "--no-progress")
    assert ran.exit_code == 0, ran.output
    assert "conversation.ended" in _recorded(log) and "tool.called" not in _recorded(log)
    assert "protocol violation: 5000 tool calls in one reply (at most 32)" in polygon(log, "report", "s").output


def test_control_characters_from_an_agent_and_a_suite_are_shown_never_acted_on(tmp_path: Path) -> None:
    log = tmp_path / "log"
    suite = _suite(tmp_path, "python:hostile_agents:make_escapes")
    suite.write_text(suite.read_text().replace("name: pizza", 'name: "pizza\\e]0;pwned\\a\\rX"'))
    ran = polygon(log, "run", str(suite), "--config", "good", "--run-id", "e", "--no-progress")
    assert ran.exit_code == 0, ran.output
    assert RAW in _recorded(log)  # the log is the truth: it keeps what the agent said
    junit = tmp_path / "e.xml"
    assert polygon(log, "report", "e", "--format", "junit", "-o", str(junit)).exit_code == 0
    xml.dom.minidom.parse(str(junit))  # was: not well-formed (invalid token), raw ESC and BEL
    outputs = {
        "junit": junit.read_text(),
        "text": polygon(log, "report", "e").output,
        "markdown": polygon(log, "report", "e", "--format", "markdown").output,
        "replay": polygon(log, "replay", "e.good.veggie.0").output,
        "runs": polygon(log, "runs").output,
    }
    for name, text in outputs.items():
        assert not {"\x1b", "\x07", "\r", "\u202e"} & set(text), name
    for name in ("junit", "text", "markdown", "replay"):
        assert SHOWN in outputs[name], name
    assert r"pizza\x1b]0;pwned\x07\rX" in outputs["runs"]
    as_json = json.loads(polygon(log, "report", "e", "--json").output)
    assert RAW in "\n".join(_texts(as_json))  # JSON keeps the values, escaped by JSON itself


def test_an_error_quoting_a_suite_shows_its_control_characters(tmp_path: Path) -> None:
    suite = pizza(tmp_path, **{"  raises:": '  "raises\\e]0;pwned\\a\\r\\u202eX":'})
    ran = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(suite), "--config", "nope"])
    assert ran.exit_code == 2
    assert r"raises\x1b]0;pwned\x07\r\u202eX" in ran.output, ran.output
    assert not {"\x1b", "\x07", "\r", "\u202e"} & set(ran.output)


def test_resuming_a_run_that_recorded_a_url_secret_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import polygon.simulate.engine as engine

    url = "http://admin:hunter2pass@127.0.0.1:9/step?token=URLSECRET777"
    suite = _suite(tmp_path, url)
    log = tmp_path / "log"
    with monkeypatch.context() as old_polygon:  # one that recorded the URL whole
        old_polygon.setattr(engine, "shown_url", lambda agent: agent)
        ran = polygon(log, "run", str(suite), "--config", "good", "--run-id", "o", "--no-progress")
        assert ran.exit_code == 0, ran.output
    assert "hunter2pass" in _recorded(log)
    resumed = polygon(log, "run", str(suite), "--resume", "o", "--no-progress")
    assert resumed.exit_code == 0, resumed.output
    assert (
        "warning: run o: its earlier calls of configuration good recorded the agent URL with its "
        "credentials (an older Polygon wrote them; calls run now record http://***@127.0.0.1:9/step?token=***)"
    ) in resumed.output
    assert "polygon log compact --drop o -o NEW_LOG" in resumed.output
    replayed = polygon(log, "replay", "o.good.veggie.0").output
    assert not [t for t in (resumed.output, replayed) if "hunter2pass" in t or "URLSECRET777" in t]
    assert "agent http://***@127.0.0.1:9/step?token=***" in replayed
