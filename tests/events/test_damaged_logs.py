"""Damaged logs: a truncated file is named as such (no SIGBUS), a changed byte is found, and
``verify`` beside a live writer never reports damage that is not there."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog, StorageError
from tests.support.examples import clinic_suite_path
from tests.support.log import turn


def _clinic_log(tmp_path: Path) -> Path:
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(clinic_suite_path()), "--config", "v1", "--run-id", "r"])
    assert res.exit_code == 0, res.output
    return log


@pytest.mark.parametrize("command", [["log", "verify"], ["report", "r"], ["replay", "r.v1.coop-booking.0"]])
def test_a_truncated_log_is_named_not_a_crash(tmp_path: Path, command: list[str]) -> None:
    log = _clinic_log(tmp_path)
    data = log / "data.mdb"
    with data.open("r+b") as handle:
        handle.truncate(data.stat().st_size // 2)
    # in a subprocess: a SIGBUS would kill the interpreter, which CliRunner cannot survive
    proc = subprocess.run(
        [sys.executable, "-m", "polygon", "--log", str(log), *command], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "is damaged" in proc.stderr and "truncated" in proc.stderr


def test_a_changed_byte_in_a_turn_is_found(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with LmdbLog(log) as opened:
        opened.append([turn("a", 1, "book me for Tuesday")])
    data = log / "data.mdb"
    raw = data.read_bytes()
    where = raw.find(b"Tuesday")
    assert where > 0
    data.write_bytes(raw[:where] + b"Thursda" + raw[where + 7 :])
    res = CliRunner().invoke(cli, ["--log", str(log), "log", "verify"])
    assert res.exit_code == 1 and "no longer matches its content hash" in res.output


def test_verify_beside_a_live_writer_finds_nothing_wrong(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with LmdbLog(log) as opened:
        opened.append([turn("seed", 1)])
    code = (
        "import sys, time\nfrom polygon.events import LmdbLog\nfrom tests.support.log import turn\n"
        f"with LmdbLog({str(log)!r}) as log:\n"
        "    for i in range(300):\n"
        "        log.append([turn(f'c{i % 7}', i // 7 + 1 + (i % 7) * 1000) for _ in range(1)])\n"
    )
    writer = subprocess.Popen([sys.executable, "-c", code], cwd=Path(__file__).parents[2])
    reports = []
    try:
        deadline = time.monotonic() + 60
        while writer.poll() is None and time.monotonic() < deadline:
            with LmdbLog(log, readonly=True) as reader:
                reports.append(reader.verify())
    finally:
        writer.wait(timeout=60)
    assert writer.returncode == 0
    assert reports and all(r.ok for r in reports), [r.problem for r in reports if not r.ok]


def test_opening_a_truncated_log_raises_a_storage_error(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with LmdbLog(log) as opened:
        opened.append([turn(f"s{i}", 1) for i in range(2000)])
    data = log / "data.mdb"
    with data.open("r+b") as handle:
        handle.truncate(data.stat().st_size // 3)
    with pytest.raises(StorageError, match="truncated"):
        LmdbLog(log, readonly=True)
