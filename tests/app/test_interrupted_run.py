"""SIGTERM mid-run: one line saying the log holds what was committed and how to resume, exit 143.

A SIGTERM once ended a run with no word at all (exit 143): only `polygon runs` told the user the
run was UNFINISHED and which id to resume.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli, terminated_line
from tests.support.dying import dying_suite, tag_counts


def test_sigterm_mid_simulation_says_what_was_kept_and_how_to_resume(tmp_path: Path) -> None:
    suite = dying_suite(tmp_path)
    log = tmp_path / "log"
    args = ["run", str(suite), "--config", "v1", "--run-id", "t", "--concurrency", "4", "--no-progress"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "polygon", "--log", str(log), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and tag_counts(log).get("conversation.ended", 0) < 5:
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    said = terminated_line(f"`polygon run {suite} --resume t` finishes run t")
    assert err.strip().splitlines()[-1] == said.strip(), err
    assert tag_counts(log)["conversation.ended"] >= 5

    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(suite), "--resume", "t", "--no-progress"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["--log", str(log), "log", "verify"])
    assert res.exit_code == 0 and res.output.startswith("ok"), res.output
