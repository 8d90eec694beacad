"""A log whose ``data.mdb`` or ``lock.mdb`` is a FIFO, a socket or a device is refused before
LMDB opens it (notes/attacker42.md 4): ``log verify`` once blocked for good in ``open()`` on a
FIFO and ignored SIGTERM. Each command runs in a subprocess so a regression fails on its
timeout instead of hanging the suite; a symlink to a regular file is still a log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from polygon.events import LmdbLog, StorageError
from polygon.events.snapshots import LmdbSnapshots
from tests.support.log import turn

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


def _polygon(log: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "polygon", "--log", str(log), *command],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "command", [["log", "verify"], ["log", "stats"], ["runs"], ["log", "export", "-o", "-"]]
)
def test_a_fifo_as_data_mdb_is_refused_in_one_line(tmp_path: Path, command: list[str]) -> None:
    log = tmp_path / "log"
    log.mkdir()
    os.mkfifo(log / "data.mdb")
    proc = _polygon(log, *command)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stderr.count("\n") == 1 and "its data.mdb is a FIFO, not a regular file" in proc.stderr, (
        proc.stderr
    )
    assert "Traceback" not in proc.stderr


def _seeded(tmp_path: Path) -> Path:
    log = tmp_path / "log"
    with LmdbLog(log) as opened:
        opened.append([turn("a", 1, "book me for Tuesday")])
    return log


def test_a_fifo_as_lock_mdb_is_refused(tmp_path: Path) -> None:
    log = _seeded(tmp_path)
    (log / "lock.mdb").unlink()
    os.mkfifo(log / "lock.mdb")
    proc = _polygon(log, "log", "verify")
    assert proc.returncode == 2 and "its lock.mdb is a FIFO" in proc.stderr, (proc.returncode, proc.stderr)


def test_a_symlink_to_a_regular_data_mdb_is_still_a_log(tmp_path: Path) -> None:
    log = _seeded(tmp_path)
    (log / "data.mdb").rename(tmp_path / "elsewhere.mdb")
    (log / "data.mdb").symlink_to(tmp_path / "elsewhere.mdb")
    proc = _polygon(log, "log", "verify")
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)


def test_a_device_and_a_folder_are_refused_in_process(tmp_path: Path) -> None:
    device, folder = tmp_path / "device", tmp_path / "folder"
    device.mkdir()
    (device / "data.mdb").symlink_to("/dev/null")
    (folder / "data.mdb").mkdir(parents=True)
    for log, kind in ((device, "a device"), (folder, "a folder")):
        for readonly in (True, False):
            with pytest.raises(StorageError, match=f"its data.mdb is {kind}, not a regular file"):
                LmdbLog(log, readonly=readonly)


def test_a_fifo_in_the_snapshots_is_refused(tmp_path: Path) -> None:
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    os.mkfifo(snapshots / "data.mdb")
    with pytest.raises(StorageError, match="the snapshots at .* its data.mdb is a FIFO"):
        LmdbSnapshots(snapshots, readonly=True)
