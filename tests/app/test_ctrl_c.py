"""Ctrl-C mid-run and mid-pass, as real SIGINTs at random moments: never a hang, a whole log.

Python's own Ctrl-C raised ``KeyboardInterrupt`` wherever it landed, and a stop inside a lock
of the writer's thread pool left the process waiting forever at exit (8 minutes once). Now
the work stops at its next safe point: exit 130, one line saying what the log kept and the
command that resumes, ``log verify`` clean, and the resume ends with the very events of a
run never interrupted. The 60 s bounds detect a hang; they are not speed assertions.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from tests.support.dying import TRIALS, dying_suite, log_contents, tag_counts

HANG = 60
"""Seconds after the signal by which the process must have ended (a hang detector)."""
CALLS = 12 * TRIALS


def _polygon(log: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "polygon", "--log", str(log), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(log: Path, tag: str, count: int) -> None:
    deadline = time.monotonic() + 120
    while tag_counts(log).get(tag, 0) < count:
        assert time.monotonic() < deadline, f"no {count} {tag} in the log after 120 s"
        time.sleep(0.01)


def _ctrl_c(proc: subprocess.Popen[str], *gaps: float) -> tuple[int, str]:
    """SIGINT now and after each gap; how the process ended (within :data:`HANG` seconds)."""
    proc.send_signal(signal.SIGINT)
    for gap in gaps:
        time.sleep(gap)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"still running {HANG} s after Ctrl-C: hung")
    return proc.returncode, err


def _invoke(log: Path, *args: str) -> str:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    assert res.exit_code == 0, res.output
    return res.output


def _run_args(suite: Path) -> list[str]:
    return ["run", str(suite), "--config", "v1", "--run-id", "c", "--concurrency", "4", "--no-progress"]


def _stopped_run(err: str, suite: Path, calls: int = CALLS) -> bool:
    """The one line a run stopped by a first Ctrl-C says (not a traceback)."""
    last = err.strip().splitlines()[-1]
    return (
        last.startswith("error: interrupted: at least ")
        and f"of {calls} calls of run c ended and are kept" in last
        and last.endswith(f"resume with `polygon run {suite} --resume c`")
        and "Traceback" not in err
    )


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[tuple[str, str, str]]]:
    """The suite, and the events of its run never interrupted."""
    tmp = tmp_path_factory.mktemp("whole")
    suite = dying_suite(tmp)
    _invoke(tmp / "log", *_run_args(suite))
    return suite, log_contents(tmp / "log")


SMALL = 3
"""Trials of the suite the random test stops 30 times (36 calls: each resume is short)."""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[tuple[str, str, str]], float]:
    """A smaller suite, the events of its run never interrupted, and how long that run took.

    The duration only spreads the random signals over a run on this machine (any load).
    """
    tmp = tmp_path_factory.mktemp("small")
    suite = dying_suite(tmp, SMALL)
    began = time.monotonic()
    _invoke(tmp / "log", *_run_args(suite))
    return suite, log_contents(tmp / "log"), time.monotonic() - began


def _resumed(log: Path, suite: Path) -> set[tuple[str, str, str]]:
    assert _invoke(log, "log", "verify").startswith("ok")
    _invoke(log, "run", str(suite), "--resume", "c", "--no-progress")
    return log_contents(log)


@pytest.mark.slow
def test_ctrl_c_at_random_moments_stops_the_run_whole_and_the_resume_completes_it(
    tmp_path: Path, small: tuple[Path, set[tuple[str, str, str]], float]
) -> None:
    suite, reference, seconds = small
    rng = random.Random(41)
    outcomes = []
    for i in range(12):  # each ~5 s on 2 busy cores: enough moments, not minutes of suite
        log = tmp_path / f"log{i}"
        proc = _polygon(log, *_run_args(suite))
        _wait_for(log, "run.started", 1)  # the command is in its work: the handler is its own
        time.sleep(rng.uniform(0, 0.8 * seconds))  # simulating, scoring, finishing, or finished
        code, err = _ctrl_c(proc)
        outcomes.append(code)
        if tag_counts(log).get("run.finished"):
            # After the work: the command finished it (0), or, while the process exits, Python's
            # own Ctrl-C ended it (-2, or click's "Aborted!"): after the last commit either way.
            assert code in (0, 1, -signal.SIGINT), err
        else:
            assert code == 130 and _stopped_run(err, suite, 12 * SMALL), err
        assert _resumed(log, suite) == reference, f"iteration {i}"
    print("OUTCOMES", seconds, outcomes)
    assert outcomes.count(130) >= 3, outcomes  # most land mid-work; a few may land after it


def test_ctrl_c_mid_simulation_keeps_what_ended_and_the_resume_completes_it(
    tmp_path: Path, whole: tuple[Path, set[tuple[str, str, str]]]
) -> None:
    suite, reference = whole
    log = tmp_path / "log"
    proc = _polygon(log, *_run_args(suite))
    _wait_for(log, "conversation.ended", 5)
    code, err = _ctrl_c(proc)
    assert code == 130 and _stopped_run(err, suite), err
    at_stop = tag_counts(log)
    assert 5 <= at_stop["conversation.ended"] < CALLS, at_stop
    assert "run.finished" not in at_stop
    assert _resumed(log, suite) == reference


def test_a_second_ctrl_c_ends_the_run_at_once_and_the_log_stays_whole(
    tmp_path: Path, whole: tuple[Path, set[tuple[str, str, str]]]
) -> None:
    suite, reference = whole
    again = (
        "error: interrupted again (Ctrl-C): ended at once; every commit in the log is whole; "
        f"resume with `polygon run {suite} --resume c`"
    )
    lines = []
    for i, gap in enumerate((0.005, 0.02, 0.1)):
        log = tmp_path / f"log{i}"
        proc = _polygon(log, *_run_args(suite))
        _wait_for(log, "conversation.ended", 3)
        code, err = _ctrl_c(proc, gap)
        last = err.strip().splitlines()[-1]
        lines.append(last)
        assert "Traceback" not in err, err
        if last == again:  # during the wind-down: ended there and then
            assert code == 130, err
        else:  # after it: the first's line, and the process exiting (Python itself, at the very
            # end, leaves Ctrl-C its default action: killed by SIGINT, which a shell shows as 130)
            assert _stopped_run(err, suite) and code in (130, -signal.SIGINT), err
        assert _resumed(log, suite) == reference
    # The plodding agent never awaits: the calls in flight end before the run stops (>20 ms).
    assert again in lines, lines


def test_ctrl_c_mid_judge_keeps_the_scores_committed_and_the_same_command_finishes_the_pass(
    tmp_path: Path, whole: tuple[Path, set[tuple[str, str, str]]]
) -> None:
    suite, _ = whole
    log = tmp_path / "log"
    _invoke(log, *_run_args(suite))
    scored = tag_counts(log)["check.recorded"]
    judge = ["judge", "c", "--rubric", "v2", "--new-pass", "1", "--concurrency", "4"]
    proc = _polygon(log, *judge)
    _wait_for(log, "check.recorded", scored + 5)
    code, err = _ctrl_c(proc)
    assert "Traceback" not in err, err
    if code == -signal.SIGINT:  # the pass had ended: the signal landed as Python exited (its own
        # default action then, every commit made; a shell shows 130), so nothing was said
        assert not err.strip(), err
    elif code != 0:  # 0: the pass ended and printed first (a fast machine)
        assert code == 130, err
        assert err.strip().splitlines()[-1].startswith("error: interrupted: the scores committed so far are kept")
    assert _invoke(log, "log", "verify").startswith("ok")
    _invoke(log, *judge)
    once = tmp_path / "once"
    _invoke(once, *_run_args(suite))
    _invoke(once, *judge)
    assert log_contents(log) == log_contents(once)


def test_ctrl_c_mid_sweep_stops_the_point_under_way_and_the_sweep_resumes_to_the_same_log(
    tmp_path: Path,
) -> None:
    suite = dying_suite(tmp_path, 2)
    sweep = suite.parent / "sweep.yaml"
    sweep.write_text(
        "name: tiny\nsuite: suite.yaml\nbase: v1\nmode: grid\ntrials: 2\nparameters:\n  patience: [1, 2, 3]\n"
    )
    log = tmp_path / "log"
    proc = _polygon(log, "sweep", str(sweep), "--sweep-id", "s")
    _wait_for(log, "run.started", 2)  # the second point's run is under way
    code, err = _ctrl_c(proc)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == (
        "error: interrupted: sweep s stopped; every commit in the log is whole (the points run so far, "
        f"the calls of the one under way); resume with `polygon sweep {sweep} --resume s`"
    ), err
    assert "run.finished" in tag_counts(log) and "sweep.finished" not in tag_counts(log)
    assert _invoke(log, "log", "verify").startswith("ok")
    _invoke(log, "sweep", str(sweep), "--resume", "s")
    once = tmp_path / "once"
    _invoke(once, "sweep", str(sweep), "--sweep-id", "s")
    assert log_contents(log) == log_contents(once)
