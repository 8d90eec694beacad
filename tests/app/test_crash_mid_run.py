"""A SIGKILL in the middle of simulating, with an agent that never awaits: the log holds
every call committed before the kill, and ``--resume`` ends with the same log as a run that
was never killed."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from tests.support.dying import TRIALS, dying_suite, tag_counts


def _contents(path: Path) -> set[tuple[str, str, str]]:
    with LmdbLog(path, readonly=True) as log:
        return {(e.stream, e.identity, e.content_hash) for e in log.read_all()}


def _checked_only_after_the_end(path: Path) -> bool:
    """Whether every call the log holds checks of holds its end before them."""
    ended: set[str] = set()
    with LmdbLog(path, readonly=True) as log:
        for e in log.read_all():
            if e.tag == "conversation.ended":
                ended.add(e.stream)
            elif e.tag == "check.recorded" and e.stream not in ended:
                return False
    return True


def test_a_kill_mid_simulation_loses_only_calls_in_flight_and_resume_completes_it(tmp_path: Path) -> None:
    suite = dying_suite(tmp_path)
    killed = tmp_path / "killed"
    args = ["run", str(suite), "--config", "v1", "--run-id", "k", "--concurrency", "4", "--no-progress"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "polygon", "--log", str(killed), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    seen: dict[str, int] = {}
    while time.monotonic() < deadline and seen.get("conversation.ended", 0) < 10:
        time.sleep(0.02)
        seen = tag_counts(killed)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert seen.get("conversation.ended", 0) >= 10, "the run committed no ended call while it ran"

    at_kill = tag_counts(killed)
    calls = 12 * TRIALS
    # Killed while simulating: calls were committed as they ended; a call's checks (a run
    # whose pass goes beside its simulation scores calls as they end) only after its end.
    assert 10 <= at_kill["conversation.ended"] < calls, at_kill
    assert _checked_only_after_the_end(killed)
    # At most the calls in flight (4) were started and not ended.
    assert at_kill["conversation.started"] - at_kill["conversation.ended"] <= 4, at_kill

    partial = _contents(killed)
    res = CliRunner().invoke(cli, ["--log", str(killed), "run", str(suite), "--resume", "k", "--no-progress"])
    assert res.exit_code == 0, res.output
    with LmdbLog(killed, readonly=True) as log:
        assert log.verify().ok

    whole = tmp_path / "whole"
    res = CliRunner().invoke(cli, ["--log", str(whole), *args])
    assert res.exit_code == 0, res.output
    assert partial < _contents(killed)
    assert _contents(killed) == _contents(whole)
