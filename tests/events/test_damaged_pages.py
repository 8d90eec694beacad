"""A damaged page gets one line naming the log, never a traceback or a process LMDB aborted.

`log verify` died with a raw `lmdb.CorruptedError` traceback on one damaged page and was killed
by LMDB itself (SIGABRT, `Assertion 'IS_LEAF(mp)' failed in mdb_cursor_next`) on another;
`log stats` too. The commands run in a subprocess here: an abort would kill the test runner.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog, StorageError
from tests.support.damage import TURNS, retype_leaf, small_log


def _polygon(log: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "polygon", "--log", str(log), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _one_line(out: str) -> str:
    assert "Traceback" not in out, out
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    return lines[0]


def test_a_page_lmdb_refuses_is_named_by_verify_stats_and_readers(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log")
    retype_leaf(log, 1)  # the first leaf of the events tree: a search finds the wrong type

    verify = _polygon(log, "log", "verify")
    line = _one_line(verify.stdout + verify.stderr)
    assert verify.returncode == 1, line
    assert line.startswith("problem: the event log") and "is damaged" in line and "MDB_CORRUPTED" in line

    stats = _polygon(log, "log", "stats")
    line = _one_line(stats.stdout + stats.stderr)
    assert stats.returncode == 2 and line.startswith("error: the event log") and "is damaged" in line, line

    export = _polygon(log, "log", "export")
    line = _one_line(export.stderr)
    assert export.returncode == 2 and str(log) in line and "is damaged" in line and "MDB_CORRUPTED" in line


def test_reads_in_process_name_a_refused_page_as_damage(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log")
    retype_leaf(log, 1)
    with LmdbLog(log, readonly=True) as opened:
        report = opened.verify()  # the in-process walk, as compaction's check of its copy runs it
        with pytest.raises(StorageError, match=r"is damaged: .*MDB_CORRUPTED.*restore it from a copy"):
            list(opened.read_all())  # as report, replay and runs read
    assert not report.ok and "is damaged" in report.problem and "MDB_CORRUPTED" in report.problem


def test_a_page_that_makes_lmdb_abort_is_named_not_a_killed_process(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log")
    retype_leaf(log, TURNS)  # a later leaf: reached from its sibling, LMDB's assertion aborts
    with LmdbLog(log, readonly=True) as opened:
        assert "SIGABRT" in opened.pages_problem()  # the child died, this process did not

    for args, code, prefix in ((["log", "verify"], 1, "problem: "), (["log", "stats"], 2, "error: ")):
        done = _polygon(log, *args)
        line = _one_line(done.stdout + done.stderr)
        assert done.returncode == code, (done.returncode, done.stderr)
        assert line.startswith(f"{prefix}the event log {log} is damaged: LMDB aborted reading it (SIGABRT")
        assert "restore it from a copy" in line


def test_a_healthy_log_walks_clean(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log")
    with LmdbLog(log, readonly=True) as opened:
        assert opened.pages_problem() == ""
        assert opened.verify().ok
    done = _polygon(log, "log", "verify")
    assert done.returncode == 0 and done.stdout.startswith(f"ok: {TURNS} events"), done.stdout + done.stderr


def test_storage_error_from_a_read_names_damage_only_for_damage(tmp_path: Path) -> None:
    import lmdb

    from polygon.events.lmdb_log import read_failed

    damaged = read_failed(tmp_path, lmdb.CorruptedError("mdb_get: MDB_CORRUPTED"))
    other = read_failed(tmp_path, lmdb.ReadersFullError("mdb_txn_begin: MDB_READERS_FULL"))
    assert isinstance(damaged, StorageError) and "is damaged" in str(damaged)
    assert "is damaged" not in str(other) and "MDB_READERS_FULL" in str(other)


def test_a_record_that_does_not_decode_names_the_log_it_is_in(tmp_path: Path) -> None:
    log = small_log(tmp_path / "log")
    data = log / "data.mdb"
    data.write_bytes(data.read_bytes().replace(b"conversation.turn_spoken", b"conversataon.turn_spoken", 1))
    res = CliRunner().invoke(cli, ["--log", str(log), "log", "export"])
    assert res.exit_code == 2, res.output
    line = _one_line(res.output)
    assert "unknown event tag 'conversataon.turn_spoken'" in line, line
    assert f"(in the event log {log}; `polygon log verify` checks it)" in line, line
