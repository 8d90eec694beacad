"""Issue 26 item 5: compaction is atomic, refuses a log being written, keeps sweeps whole."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from polygon.events import LmdbLog
from tests.support.faults import run_cli, small_suite, small_sweep


def _two_runs(tmp_path: Path) -> Path:
    log = tmp_path / "log"
    suite = small_suite(tmp_path / "suite")
    for run_id in ("a", "b"):
        assert run_cli(log, "run", str(suite), "--run-id", run_id, "--no-progress").exit_code == 0
    return log


def test_the_output_appears_only_once_it_verified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = _two_runs(tmp_path)
    out = tmp_path / "small"
    seen: list[bool] = []
    original = LmdbLog.verify

    def verify(self: LmdbLog) -> object:
        seen.append(out.exists())
        return original(self)

    monkeypatch.setattr(LmdbLog, "verify", verify)
    res = run_cli(log, "log", "compact", "--drop", "a", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert seen == [False], "the output was at its name before it verified"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_compaction_that_fails_part_way_leaves_nothing_at_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _two_runs(tmp_path)
    out = tmp_path / "small"
    calls = {"n": 0}
    original = LmdbLog.append_prepared

    def append(self: LmdbLog, batch: object) -> object:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # what a signal does part-way
        return original(self, batch)  # type: ignore[arg-type]

    monkeypatch.setattr(LmdbLog, "append_prepared", append)
    from polygon.app import log as app_log

    with LmdbLog(log, readonly=True) as src, pytest.raises(KeyboardInterrupt):
        app_log.compact_log(src, ["a"], out, batch=50)
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_log_being_written_is_refused(tmp_path: Path) -> None:
    log = _two_runs(tmp_path)
    fd = os.open(log / "writer.lock", os.O_RDWR)  # what a running `polygon run` holds
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        res = run_cli(log, "log", "compact", "--drop", "a", "-o", str(tmp_path / "small"))
    finally:
        os.close(fd)
    assert res.exit_code == 2 and "is writing to the log" in res.output, res.output
    assert not (tmp_path / "small").exists()


def test_dropping_a_point_run_of_a_sweep_drops_the_sweep_and_says_so(tmp_path: Path) -> None:
    log = tmp_path / "log"
    sweep = small_sweep(tmp_path / "s")
    res = run_cli(log, "sweep", str(sweep), "--sweep-id", "w1")
    assert res.exit_code == 0, res.output
    with LmdbLog(log, readonly=True) as lg:
        point_runs = sorted({s.split("/")[1] for s in lg.streams("run/")})
    assert len(point_runs) == 2
    out = tmp_path / "small"
    res = run_cli(log, "log", "compact", "--drop", point_runs[0], "-o", str(out))
    assert res.exit_code == 0 and "sweep w1 dropped too" in res.output, res.output
    board = run_cli(out, "leaderboard", "w1")
    assert board.exit_code == 2 and "w1" in board.output and "Traceback" not in board.output
    # The other point's run is still there and still a run.
    assert run_cli(out, "report", point_runs[1]).exit_code == 0


def test_compact_into_a_non_empty_folder_is_refused(tmp_path: Path) -> None:
    log = _two_runs(tmp_path)
    out = tmp_path / "busy"
    out.mkdir()
    (out / "x").write_text("mine")
    res = run_cli(log, "log", "compact", "--drop", "a", "-o", str(out))
    assert res.exit_code == 2 and "not empty" in res.output
    assert (out / "x").read_text() == "mine"


def test_a_killed_compactions_temporary_folder_is_cleared_by_the_next(tmp_path: Path) -> None:
    log = _two_runs(tmp_path)
    stale = tmp_path / ".small.compacting-999999999"  # no such process
    (stale / "sub").mkdir(parents=True)
    res = run_cli(log, "log", "compact", "--drop", "a", "-o", str(tmp_path / "small"))
    assert res.exit_code == 0, res.output
    assert not stale.exists()


def test_a_compacted_log_keeps_every_record_byte_for_byte_and_resumes(tmp_path: Path) -> None:
    log = _two_runs(tmp_path)
    out = tmp_path / "small"
    assert run_cli(log, "log", "compact", "--drop", "a", "-o", str(out)).exit_code == 0
    with LmdbLog(log, readonly=True) as src, LmdbLog(out, readonly=True) as dst:
        before = [
            (e.stream, e.identity, e.content_hash) for e in src.read_all() if not e.stream.endswith("/a")
        ]
        before = [r for r in before if not r[0].startswith("conv/a.")]
        after = [(e.stream, e.identity, e.content_hash) for e in dst.read_all()]
    assert after == before
    # A resume on the copy meets no identity conflict (the rubric's int weight stays an int).
    suite = tmp_path / "suite" / "suite.yaml"
    res = run_cli(out, "run", str(suite), "--resume", "b", "--no-progress")
    assert res.exit_code == 0, res.output
