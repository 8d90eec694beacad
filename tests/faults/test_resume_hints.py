"""What a stopped or refused run says about going on, when the usual "resume" is wrong.

- A commit that fails before ``run.started`` is in the log (a disk full at once) said only
  ``No space left on device``, and ``--resume`` then answered "no run": say run it again.
- SIGTERM before the run started advised ``--resume RUN`` for a run that does not exist.
- ``run --resume`` wrote onto a run whose events no longer matched their content hashes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import polygon.app
from polygon.cli import main
from polygon.errors import UserInputError
from polygon.events import LmdbLog, TurnSpoken
from polygon.events.streams import run_stream
from tests.support.faults import failing_append, run_cli, small_suite
from tests.support.text import without_rubric_warning

ARGS = ("--run-id", "fx", "--no-progress")


def test_a_commit_failing_before_the_run_started_says_run_it_again(tmp_path: Path) -> None:
    suite = small_suite(tmp_path / "suite")
    log = tmp_path / "log"
    with failing_append(1) as fault:
        res = run_cli(log, "run", str(suite), *ARGS)
    assert fault.failed and res.exit_code == 2, res.output
    line = without_rubric_warning(res.output)
    assert "Input/output error" in line and "The run did not start" in line, line
    assert f"`polygon run {suite}` again" in line and "--resume" not in line, line
    with LmdbLog(log, readonly=True) as opened:
        assert opened.stream_length(run_stream("fx")) == 0
    again = run_cli(log, "run", str(suite), *ARGS)  # what the line says works
    assert again.exit_code == 0, again.output


def test_a_commit_failing_after_the_run_started_still_names_the_resume(tmp_path: Path) -> None:
    suite = small_suite(tmp_path / "suite")
    with failing_append(3):
        res = run_cli(tmp_path / "log", "run", str(suite), *ARGS)
    assert res.exit_code == 2 and "--resume fx" in res.output, res.output


def test_sigterm_says_run_again_before_the_start_and_resume_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard: list[str] = []

    def run_suite(*args: object, on_started: object, **kwargs: object) -> object:
        heard.append(main._SAYS[-1])
        assert callable(on_started)
        on_started("r9")
        heard.append(main._SAYS[-1])
        raise UserInputError("stop here")

    monkeypatch.setattr(polygon.app, "run_suite", run_suite, raising=False)
    suite = small_suite(tmp_path / "suite")
    res = run_cli(tmp_path / "log", "run", str(suite), "--no-progress")
    assert res.exit_code == 2 and "stop here" in res.output, res.output
    before, after = heard
    assert "no run had started: run the suite again" in before and "--resume" not in before, before
    assert f"`polygon run {suite} --resume r9` finishes run r9" in after, after
    assert main._SAYS == [main.TERMINATED]  # the command's lines are gone with it


def test_resume_refuses_a_run_whose_events_changed_on_disk(tmp_path: Path) -> None:
    suite = small_suite(tmp_path / "suite", personas=1)
    log = tmp_path / "log"
    LmdbLog(log, format_version=1).close()  # format 1 keeps the turns' text in clear
    assert run_cli(log, "run", str(suite), *ARGS).exit_code == 0
    with LmdbLog(log, readonly=True) as opened:
        stream = next(iter(opened.streams("conv/fx.")))
        text = next(e.payload.text for e in opened.read_stream(stream) if isinstance(e.payload, TurnSpoken))
        last = opened.last_seq()
    data = log / "data.mdb"
    raw = data.read_bytes()
    assert text.encode() in raw
    changed = text.encode()[:-1] + (b"X" if not text.endswith("X") else b"Y")
    data.write_bytes(raw.replace(text.encode(), changed))

    res = run_cli(log, "run", str(suite), "--resume", "fx", "--no-progress")
    assert res.exit_code == 2, res.output
    line = without_rubric_warning(res.output)
    assert line.startswith("error: cannot resume run fx: the event log") and "is damaged" in line, line
    assert "no longer matches its content hash" in line and "nothing was written" in line, line
    with LmdbLog(log, readonly=True) as opened:
        assert opened.last_seq() == last
