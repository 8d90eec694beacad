"""Issue 28's done-when: a suite in a new domain (library renewals), written from
docs/reference/ alone — rules stubs, a stateful store, an HTTP agent on the standard library,
an imported transcript file — runs and is judged as meant. The fixture is what was written
on the first try (see the closing note of issue 28)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import threading
from pathlib import Path

import jsonschema
import yaml
from click.testing import CliRunner

from polygon.app.schema_files import shipped
from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import CheckRecorded
from tests.support.text import replaced

FIXTURE = Path(__file__).parent / "fixtures" / "library"


def _cli(log: Path, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    return res.exit_code, res.output


def test_library_renewals_written_from_the_reference(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("library_agent", FIXTURE / "agent.py")
    assert spec is not None and spec.loader is not None
    agent = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(agent)
    server = agent.ThreadingHTTPServer(("127.0.0.1", 0), agent.Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    shutil.copy(FIXTURE / "calls.jsonl", tmp_path / "calls.jsonl")
    suite = replaced((FIXTURE / "suite.yaml").read_text(), "8799", str(server.server_port))
    (tmp_path / "suite.yaml").write_text(suite)
    jsonschema.validate(yaml.safe_load(suite), json.loads(shipped("suite")))
    log = tmp_path / "log"
    try:
        code, out = _cli(log, "run", str(tmp_path / "suite.yaml"), "--run-id", "lib", "--no-progress")
    finally:
        server.shutdown()
        server.server_close()
    assert code == 0, out
    with LmdbLog(log, readonly=True) as opened:
        goals = {
            e.payload.conversation_id: e.payload
            for e in opened.read_all()
            if isinstance(e.payload, CheckRecorded) and e.payload.check == "goal_reached"
        }
    assert goals["lib.http-v1.renew.0"].outcome == "pass", goals["lib.http-v1.renew.0"].detail
    assert goals["lib.http-v1.blocked-member.0"].outcome == "pass"
    code, out = _cli(log, "import", str(tmp_path / "calls.jsonl"), "--suite", str(tmp_path / "suite.yaml"))
    assert code == 0, out
    code, out = _cli(log, "runs")
    assert "imported" in out and "UNFINISHED" not in out
    code, out = _cli(log, "report", "latest", "--format", "json")
    rows = {r["record"]["conversation_id"].split(".", 1)[1]: r for r in json.loads(out)["conversations"]}
    assert rows["imported.prod-1.0"]["verdict"]["verdict"] == "pass"
    assert rows["imported.prod-2.0"]["verdict"]["verdict"] != "pass"  # an invalid tool call, then a false claim
