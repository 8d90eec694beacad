"""Issue 26 item 4: Polygon writes only into its own log; read-only logs stay readable."""

from __future__ import annotations

import os
from pathlib import Path

import lmdb
import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events import lmdb_log as lmdb_module
from polygon.events.errors import StorageError
from tests.support.faults import small_suite


def _run(log: Path | str, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    assert not (res.exception and not isinstance(res.exception, SystemExit)), repr(res.exception)
    return res.exit_code, res.output


def _foreign(path: Path, named: bool) -> None:
    env = lmdb.open(str(path), max_dbs=4)
    db = env.open_db(b"events") if named else None
    with env.begin(write=True, db=db) as txn:
        txn.put(b"theirs", b"value")
    env.close()


def _keys(path: Path) -> list[bytes]:
    env = lmdb.open(str(path), max_dbs=8, readonly=True, lock=False)
    with env.begin() as txn:
        keys = [bytes(k) for k, _ in txn.cursor()]
    env.close()
    return keys


@pytest.mark.parametrize("named", [True, False], ids=["named-events-db", "main-db"])
def test_another_programs_lmdb_is_refused_in_one_line_and_left_as_it_was(tmp_path: Path, named: bool) -> None:
    foreign = tmp_path / "foreign"
    _foreign(foreign, named)
    before = _keys(foreign)
    code, out = _run(foreign, "run", str(small_suite(tmp_path / "suite")), "--no-progress")
    assert code == 2 and "not a Polygon event log" in out and len(out.strip().splitlines()) == 1, out
    assert _keys(foreign) == before
    assert not (foreign / "writer.lock").exists()


@pytest.mark.parametrize("target", ["file", "/dev/null", "folder-of-other-files"])
def test_a_file_a_device_or_a_folder_of_other_files_is_refused_in_one_line(
    tmp_path: Path, target: str
) -> None:
    if target == "file":
        path = tmp_path / "plain"
        path.write_text("mine")
    elif target == "folder-of-other-files":
        path = tmp_path / "home"
        path.mkdir()
        (path / "notes.txt").write_text("mine")
    else:
        path = Path(target)
    code, out = _run(path, "run", str(small_suite(tmp_path / "suite")), "--no-progress")
    assert code == 2 and "Polygon writes only into" in out, out
    with pytest.raises(StorageError):
        LmdbLog(path)


def test_compact_into_a_file_is_one_line(tmp_path: Path) -> None:
    log = tmp_path / "log"
    assert _run(log, "run", str(small_suite(tmp_path / "suite")), "--run-id", "a", "--no-progress")[0] == 0
    assert _run(log, "run", str(small_suite(tmp_path / "suite")), "--run-id", "b", "--no-progress")[0] == 0
    (tmp_path / "file").write_text("x")
    code, out = _run(log, "log", "compact", "--drop", "a", "-o", str(tmp_path / "file"))
    assert code == 2 and "Traceback" not in out, out


def test_a_log_we_may_not_write_is_read_without_its_lock_file_and_writers_get_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "log"
    assert _run(log, "run", str(small_suite(tmp_path / "suite")), "--run-id", "a", "--no-progress")[0] == 0
    (log / "lock.mdb").unlink()  # a copy without its lock file, in a folder we may not write
    real_access = os.access
    monkeypatch.setattr(
        lmdb_module.os, "access", lambda p, mode: False if mode == os.W_OK else real_access(p, mode)
    )
    code, out = _run(log, "log", "verify")
    assert code == 0 and out.startswith("ok:"), out
    assert not (log / "lock.mdb").exists()

    def refused(path: Path) -> int:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(lmdb_module, "_acquire_writer_lock", refused)
    code, out = _run(log, "run", str(small_suite(tmp_path / "suite2")), "--no-progress")
    assert code == 2 and "read-only to you" in out and len(out.strip().splitlines()) == 1, out
