"""Control characters from an agent or a suite are shown in the web UI, never acted on.

HTML escaping makes them harmless to the page, but a U+202E still reorders the text a reader
sees and a CR or ESC is invisible: the pages write them as the terminal outputs do
(polygon/visible.py). Form values keep them as written, so a request names the same thing.
"""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from starlette.testclient import TestClient

from polygon import web
from polygon.cli.main import cli
from tests.support.runs import pizza

AGENT = """
from polygon import AgentReply


class Escapes:
    def step(self, req):
        return AgentReply(reply="How can I help?\\x1b]0;pwned\\x07\\rPASS \\u202eeverything fine")


def make_escapes(prompt="", params=None):
    return Escapes()
"""
SHOWN = r"How can I help?\x1b]0;pwned\x07\rPASS \u202eeverything fine"
RAW = {"\x1b", "\x07", "\r", "\u202e"}


def test_pages_show_control_characters_as_escapes(tmp_path: Path) -> None:
    suite = pizza(tmp_path, **{"python:pizza_agents:make_good": "python:escaping_agent:make_escapes"})
    (suite.parent / "escaping_agent.py").write_text(AGENT)
    suite.write_text(suite.read_text().replace("name: pizza", 'name: "pizza\\e]0;pwned\\a\\rX\\u202e"'))
    log = tmp_path / "log"
    args = ["--log", str(log), "run", str(suite), "--config", "good", "--run-id", "e", "--no-progress"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    client = TestClient(web.make_app(log), base_url=f"http://127.0.0.1:{web.DEFAULT_PORT}")
    pages = {path: client.get(path) for path in ("/", "/runs/e", "/replay/e.good.veggie.0")}
    for path, page in pages.items():
        assert page.status_code == 200, path
        # a form's value is the name as written: it goes back to the server to pick the runs
        assert not RAW & set(re.sub(r' value="[^"]*"', "", page.text)), path
    assert SHOWN in pages["/replay/e.good.veggie.0"].text
    assert r"<td>pizza\x1b]0;pwned\x07\rX\u202e</td>" in pages["/"].text
    assert 'value="pizza\x1b]0;pwned\x07\rX\u202e"' in pages["/"].text
    picked = client.get("/", params={"suite": "pizza\x1b]0;pwned\x07\rX\u202e"})
    assert 'href="/runs/e"' in picked.text
