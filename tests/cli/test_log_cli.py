from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from tests.support.log import turn


def _log(tmp_path: Path) -> Path:
    path = tmp_path / "log"
    with LmdbLog(path) as log:
        log.append([turn("a", 1), turn("a", 2), turn("b", 1)])
    return path


def test_stats_verify_export(tmp_path: Path) -> None:
    path = _log(tmp_path)
    runner = CliRunner()
    res = runner.invoke(cli, ["--log", str(path), "log", "stats", "--json"])
    assert res.exit_code == 0, res.output
    stats = json.loads(res.output)
    assert stats["events"] == 3
    # Where the bytes go: the parts add up to the records exactly; every tree has pages.
    with LmdbLog(path, readonly=True) as log:
        stored = sum(len(r) for page in log.raw_pages() for r in page)
    assert sum(stats["record_parts"].values()) == stored
    assert stats["record_parts"]["identity"] == 3 * 34  # 32 hex characters and a str header
    assert set(stats["trees"]) >= {"events", "streams", "identities", "heads"}
    text = runner.invoke(cli, ["--log", str(path), "log", "stats"]).output
    assert "bytes per event" in text and "payload" in text
    res = runner.invoke(cli, ["--log", str(path), "log", "verify"])
    assert res.exit_code == 0 and res.output.startswith("ok: 3 events")
    res = runner.invoke(cli, ["--log", str(path), "log", "export", "--stream-prefix", "conv/a"])
    lines = [json.loads(x) for x in res.output.splitlines()]
    assert [x["seq"] for x in lines] == [1, 2]
    assert lines[0]["payload"]["text"] == "hello" and lines[0]["tag"] == "conversation.turn_spoken"


def test_verify_exits_1_on_damage(tmp_path: Path) -> None:
    import lmdb

    from polygon.events.keys import pack_u64

    path = _log(tmp_path)
    env = lmdb.open(str(path), max_dbs=8)
    with env.begin(write=True, db=env.open_db(b"events")) as txn:
        txn.delete(pack_u64(2))
    env.close()
    res = CliRunner().invoke(cli, ["--log", str(path), "log", "verify"])
    assert res.exit_code == 1
    assert "sequence gap" in res.output


def test_missing_log_is_a_user_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "polygon", "--log", str(tmp_path / "none"), "log", "stats"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("error: no event log at")
    assert "Traceback" not in proc.stderr
