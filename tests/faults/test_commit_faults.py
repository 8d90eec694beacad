"""Issue 26 item 1: a failed commit never leaves holes.

Every commit position of a real (small, offline, fixed run id) run is failed once; the run
stops with one line; ``log verify`` finds every call whole; and resuming (or, when the run's
own start was the commit that failed, running again) ends with the conversations a clean run
writes, payload for payload.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from polygon.app import alongside
from polygon.app.log import call_damage, verify_log
from polygon.app.passes import DamagedCallError
from polygon.app.probe import probe_with
from polygon.events import LmdbLog, MemoryLog, Pending
from polygon.events.envelope import decode_header, prepare_stored
from polygon.events.errors import StorageError
from polygon.events.streams import run_stream
from polygon.models import ModelHub
from polygon.probe import DETECTOR
from polygon.recording import GroupWriter
from tests.support.faults import failing_append, holes, log_contents, run_cli, small_suite

ARGS = ("--run-id", "fx", "--no-progress", "--concurrency", "3")


def _conversations(path: Path) -> dict[str, list[object]]:
    return {s: e for s, e in log_contents(path).items() if s.startswith("conv/")}


def _recover(log: Path, suite: Path) -> None:
    with LmdbLog(log, readonly=True) as lg:
        started = bool(lg.stream_length(run_stream("fx")))
    again = run_cli(log, "run", str(suite), *(("--resume", "fx") if started else ()), *ARGS)
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize("beside", [False, True], ids=["pass-after", "scored-beside"])
@pytest.mark.parametrize("interval", [0.02, 0.0], ids=["cadence", "every-flush"])
def test_failing_each_commit_of_a_run_leaves_no_hole_and_resume_equals_a_clean_run(
    tmp_path: Path, interval: float, beside: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every-flush: a commit is due at every flush (back to back on the writer's thread, each
    # taking what was flushed while the one before was in flight: many positions, the submit
    # path); cadence: the default 20 ms group commit (the pump path, where the holes came from).
    # scored-beside: the small run scores in a forked process beside its simulation too.
    if beside and len(os.sched_getaffinity(0)) < 2:
        pytest.skip("a run scores beside its simulation only with a second core")
    monkeypatch.setattr(alongside, "MIN_CALLS", 1 if beside else 10**9)
    forked: list[int] = []
    fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: forked.append(1) or fork())
    defaults = GroupWriter.__init__.__defaults__
    assert defaults is not None
    monkeypatch.setattr(GroupWriter.__init__, "__defaults__", (interval, *defaults[1:]))
    suite = small_suite(tmp_path / "suite")
    with failing_append(0) as counted:
        clean = run_cli(tmp_path / "clean", "run", str(suite), *ARGS)
    assert clean.exit_code == 0, clean.output
    expected = _conversations(tmp_path / "clean")
    failed = 0
    for n in range(1, counted.calls + 3):
        log = tmp_path / f"fail{n}"
        with failing_append(n) as fault:
            res = run_cli(log, "run", str(suite), *ARGS)
        if not fault.failed:
            continue
        failed += 1
        assert res.exit_code == 2, (n, res.output)
        assert not isinstance(res.exception, AssertionError), n
        assert "Input/output error" in res.output and "Traceback" not in res.output, (n, res.output)
        assert fault.calls == n, f"commit {n} failed, yet {fault.calls - n} more were made"
        if (log / "data.mdb").exists():
            assert holes(log) == [], n
            with LmdbLog(log, readonly=True) as lg:
                assert verify_log(lg).ok, n
        _recover(log, suite)
        assert _conversations(log) == expected, f"commit {n} failed: resumed calls differ from a clean run"
    assert failed >= min(5, counted.calls), failed
    assert bool(forked) == beside


def test_a_failed_commit_poisons_the_writer() -> None:
    log = MemoryLog()
    writer = GroupWriter(log, interval_s=3600)
    calls = {"n": 0}
    original = log.append

    def append(batch: list[Pending]) -> object:
        calls["n"] += 1
        if calls["n"] == 1:
            raise StorageError("append failed: disk full")
        return original(batch)

    log.append = append  # type: ignore[method-assign]
    writer.submit([_pending("a", 1)])
    with pytest.raises(StorageError):
        writer.commit()
    with pytest.raises(StorageError, match="disk full"):
        writer.submit([_pending("a", 2)])
    with pytest.raises(StorageError, match="disk full"):
        writer.commit()
    assert calls["n"] == 1 and log.last_seq() == 0


def _pending(stream: str, n: int) -> Pending:
    from polygon.events.families import RunFinished

    return Pending(
        stream=stream,
        identity=f"{n:032x}",
        event=RunFinished(run_id="x", conversations=n, end_reasons={}),
        recorded_at="t",
    )


def test_a_call_with_a_hole_is_found_by_verify_and_refused_by_resume_in_one_line(tmp_path: Path) -> None:
    suite = small_suite(tmp_path / "suite")
    clean = tmp_path / "clean"
    assert run_cli(clean, "run", str(suite), *ARGS).exit_code == 0
    # What an older Polygon left: a call whose first batch was lost but later ones written.
    holed = tmp_path / "holed"
    with LmdbLog(clean, readonly=True) as src, LmdbLog(holed) as dst:
        victim = next(iter(src.streams("conv/")))
        for page in src.raw_pages():
            for raw in page:
                header = decode_header(raw)
                if header.stream == run_stream("fx") and header.tag == "run.finished":
                    continue
                if header.stream == victim and header.stream_version <= 2:
                    continue
                dst.append_prepared([prepare_stored(raw)])  # each its own commit, bytes kept
        assert "not conversation.started" in call_damage(list(dst.read_stream(victim)))
    res = run_cli(holed, "log", "verify")
    assert res.exit_code == 1 and "not whole" in res.output and victim in res.output, res.output
    resumed = run_cli(holed, "run", str(suite), "--resume", "fx", "--no-progress")
    assert resumed.exit_code == 2, resumed.output
    assert not isinstance(resumed.exception, AssertionError)
    assert "not whole" in resumed.output and "log compact --drop-damaged" in resumed.output
    # A pass over the run (judge, probe) says the same, where it asserted before.
    with LmdbLog(holed) as lg, pytest.raises(DamagedCallError, match="not whole"):
        probe_with(lg, "fx", extra=(), answerer_model=DETECTOR, hub=ModelHub(), now=lambda: "t")
    # The repair: a copy without the damaged call, where resume runs it again from its start.
    repaired = tmp_path / "repaired"
    res = run_cli(holed, "log", "compact", "--drop-damaged", "-o", str(repaired))
    assert res.exit_code == 0 and f"{victim} left out" in res.output, res.output
    resumed = run_cli(repaired, "run", str(suite), "--resume", "fx", "--no-progress")
    assert resumed.exit_code == 0, resumed.output
    assert run_cli(repaired, "log", "verify").exit_code == 0
    assert _conversations(repaired) == _conversations(clean)


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE as Linux applies it")
@pytest.mark.parametrize("kib", [96, 160, 256])
def test_a_file_size_limit_stops_the_run_cleanly_and_resume_completes_it(tmp_path: Path, kib: int) -> None:
    suite = small_suite(tmp_path / "suite")
    clean = tmp_path / "clean"
    assert run_cli(clean, "run", str(suite), *ARGS).exit_code == 0
    log = tmp_path / "limited"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (kib * 1024, kib * 1024))

    proc = subprocess.run(
        [sys.executable, "-m", "polygon", "--log", str(log), "run", str(suite), *ARGS],
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode in (0, 2), proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    if not (log / "data.mdb").exists():
        return  # refused before the log could hold anything: nothing to check
    with LmdbLog(log, readonly=True) as lg:
        assert verify_log(lg).ok
    if proc.returncode == 2:
        assert "--resume fx" in proc.stderr or "no run" not in proc.stderr
        _recover(log, suite)
    assert _conversations(log) == _conversations(clean)
