"""A SIGKILL in the middle of simulating, with an agent that never awaits: the log holds
every call committed before the kill, and ``--resume`` ends with the same log as a run that
was never killed."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.errors import StorageError
from tests.support.examples import clinic_suite_path
from tests.support.text import replaced

FIXTURES = Path(__file__).parent / "fixtures"
TRIALS = 8  # 12 personas × 8 trials = 96 calls of one configuration


def _suite(tmp: Path) -> Path:
    folder = tmp / "suite"
    shutil.copytree(FIXTURES / "dying", folder)
    text = clinic_suite_path().read_text()
    text = replaced(text, "python:polygon.examples.clinic.agents:make_v1", "python:agents:make_plodding")
    text = replaced(text, "prompt_file: prompt_v1.md", "prompt: v1")
    text = replaced(text, "prompt_file: prompt_v2.md", "prompt: v2")
    text = replaced(text, "trials: 1", f"trials: {TRIALS}")
    (folder / "suite.yaml").write_text(text)
    return folder / "suite.yaml"


def _tags(path: Path) -> dict[str, int]:
    try:
        with LmdbLog(path, readonly=True) as log:
            return dict(log.stats().by_tag)
    except StorageError:  # not created yet
        return {}


def _contents(path: Path) -> set[tuple[str, str, str]]:
    with LmdbLog(path, readonly=True) as log:
        return {(e.stream, e.identity, e.content_hash) for e in log.read_all()}


def test_a_kill_mid_simulation_loses_only_calls_in_flight_and_resume_completes_it(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
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
        seen = _tags(killed)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert seen.get("conversation.ended", 0) >= 10, "the run committed no ended call while it ran"

    at_kill = _tags(killed)
    calls = 12 * TRIALS
    # Killed while simulating: calls were committed as they ended, none had been scored.
    assert 10 <= at_kill["conversation.ended"] < calls, at_kill
    assert at_kill.get("check.recorded", 0) == 0, at_kill
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
