from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from tests.support.log import turn


def _log(tmp_path: Path, fmt: int = 2) -> Path:
    path = tmp_path / "log"
    with LmdbLog(path, format_version=fmt) as log:
        log.append([turn("a", 1), turn("a", 2), turn("b", 1)])
    return path


def _stored_bytes(path: Path) -> int:
    import lmdb

    env = lmdb.open(str(path), max_dbs=8, readonly=True, lock=False)
    with env.begin(db=env.open_db(b"events", create=False)) as txn:
        stored = sum(len(v) for v in txn.cursor().iternext(keys=False))
    env.close()
    return stored


@pytest.mark.parametrize("fmt", [1, 2])
def test_stats_verify_export(tmp_path: Path, fmt: int) -> None:
    path = _log(tmp_path, fmt)
    runner = CliRunner()
    res = runner.invoke(cli, ["--log", str(path), "log", "stats", "--json"])
    assert res.exit_code == 0, res.output
    stats = json.loads(res.output)
    assert stats["events"] == 3
    # Where the bytes go: the parts add up to the records exactly; every tree has pages.
    assert sum(stats["record_parts"].values()) == _stored_bytes(path)
    if fmt == 1:
        assert stats["record_parts"]["identity"] == 3 * 34  # 32 hex characters and a str header
    else:
        assert stats["record_parts"]["header"] == 3 * 45  # ids, versions, raw identity and hash
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


def _v1_run(tmp_path: Path) -> Path:
    """A clinic run written into a format-1 log (a log keeps the format it was created in)."""
    from tests.support.examples import clinic_suite_path

    path = tmp_path / "v1"
    LmdbLog(path, format_version=1).close()
    args = ["--log", str(path), "run", str(clinic_suite_path()), "--config", "v1", "--run-id", "r"]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    return path


def test_upgrade_writes_a_format_2_copy_that_reads_and_reports_identically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from polygon.events import log_v2

    src = _v1_run(tmp_path)
    dst = tmp_path / "v2"
    monkeypatch.setattr(log_v2, "TRAIN_AT", 20)  # so this small run's payloads are compressed too
    runner = CliRunner()
    res = runner.invoke(cli, ["log", "upgrade", str(src), "-o", str(dst)])
    assert res.exit_code == 0, res.output
    assert "read back equal" in res.output
    with LmdbLog(src, readonly=True) as old, LmdbLog(dst, readonly=True) as new:
        assert (old.format, new.format) == (1, 2)
        before = list(old.read_all())
        assert before and list(new.read_all()) == before
        assert any(e.recorded_at for e in before)  # times survive the sparse table
        for stream in old.streams():
            assert list(new.read_stream(stream)) == list(old.read_stream(stream))
        assert new.stats().bytes_used < old.stats().bytes_used
    for command in (["report", "r"], ["report", "r", "--format", "json"], ["replay", "r.v1.coop-booking.0"]):
        outputs = [runner.invoke(cli, ["--log", str(p), *command]) for p in (src, dst)]
        assert [o.exit_code for o in outputs] == [0, 0], outputs[1].output
        assert outputs[0].output == outputs[1].output, command
    assert runner.invoke(cli, ["--log", str(dst), "log", "verify"]).exit_code == 0
    stats = json.loads(runner.invoke(cli, ["--log", str(dst), "log", "stats", "--json"]).output)
    assert stats["record_parts"]["payload"] < 0.8 * _payload_bytes(src)  # few samples: a weak dictionary


def _payload_bytes(path: Path) -> int:
    with LmdbLog(path, readonly=True) as log:
        return log.stats().record_parts["payload"]


def test_upgrade_refuses_what_it_cannot_upgrade(tmp_path: Path) -> None:
    v2 = _log(tmp_path)
    v1 = _log(tmp_path / "one", fmt=1)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    (tmp_path / "file").write_text("x")
    cases = [
        ([str(tmp_path / "missing"), "-o", str(tmp_path / "a")], "no Polygon event log"),
        ([str(tmp_path / "other"), "-o", str(tmp_path / "a")], "no Polygon event log"),
        ([str(tmp_path / "file"), "-o", str(tmp_path / "a")], "no Polygon event log"),
        ([str(v2), "-o", str(tmp_path / "a")], "already format 2"),
        ([str(v1), "-o", str(v2)], "already exists"),
        ([str(v1), "-o", str(tmp_path / "file")], "already exists"),
    ]
    for args, message in cases:
        res = CliRunner().invoke(cli, ["log", "upgrade", *args])
        assert res.exit_code == 2, (args, res.output)
        assert message in res.output, (args, res.output)
    assert not (tmp_path / "a").exists()
    with LmdbLog(v2, readonly=True) as log:
        assert log.last_seq() == 3  # the existing target is untouched
