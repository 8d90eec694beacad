"""Issue 26 item 10: calibrate says when labels are one class, refuses an unknown judge pass
and options out of range; lint refuses a FIFO instead of blocking on it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.support.faults import run_cli, small_suite


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("cal")
    log = tmp / "log"
    suite = small_suite(tmp / "suite")
    assert run_cli(log, "run", str(suite), "--run-id", "c", "--no-progress").exit_code == 0
    rows = ["conversation,verdict,by"] + [
        f"v1.{p}.0,pass,r" for p in ("coop-booking", "coop-callback", "busy-booking")
    ]
    (tmp / "labels.csv").write_text("\n".join(rows) + "\n")
    res = run_cli(log, "labels", "import", str(tmp / "labels.csv"), "--run", "c")
    assert res.exit_code == 0, res.output
    return log


def test_one_class_labels_say_so_and_give_no_kappa_or_threshold(labelled: Path) -> None:
    res = run_cli(labelled, "calibrate", "c")
    assert res.exit_code == 0, res.output
    assert "Every compared label is pass" in res.output
    assert "pass threshold agreeing best" not in res.output
    as_json = run_cli(labelled, "calibrate", "c", "--json")
    import json

    data = json.loads(as_json.output)
    assert data["one_class"] == "pass" and data["kappa"]["value"] is None and data["best_threshold"] is None
    # --min-kappa on an undefined κ still fails the gate (as before), with one line.
    gate = run_cli(labelled, "calibrate", "c", "--min-kappa", "0.2")
    assert gate.exit_code == 1 and "undefined" in gate.output


@pytest.mark.parametrize(
    "args",
    [
        ["--judge", "nosuch"],
        ["--min-kappa", "2"],
        ["--min-kappa", "-1.5"],
        ["--min-kappa", "nan"],
        ["--reward-pass-at", "nan"],
        ["--reward-pass-at", "1.5"],
    ],
)
def test_an_unknown_judge_pass_or_an_option_out_of_range_is_exit_2(labelled: Path, args: list[str]) -> None:
    res = run_cli(labelled, "calibrate", "c", *args)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_lint_refuses_a_fifo_instead_of_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "prompt.md"
    os.mkfifo(fifo)
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-m", "polygon", "--log", str(tmp_path / "log"), "lint", str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,  # a blocked read would hang; the refusal comes before any read
    )
    assert proc.returncode == 2 and "not a regular file" in proc.stderr, proc.stderr
