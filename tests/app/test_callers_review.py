"""``polygon callers sample`` / ``report``: people mark caller turns; realism per type and language."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from polygon.app.callers import realism, sample_turns
from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import CallerTurnLabelled
from polygon.events.streams import labels_stream


def _demo(tmp_path: Path) -> tuple[Path, str]:
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "demo", "--example", "pizzeria"])
    assert res.exit_code == 0, res.output
    with LmdbLog(log, readonly=True) as opened:
        run_id = next(line.split()[1].rstrip(":") for line in res.output.splitlines() if line.startswith("Run "))
        assert sample_turns(opened, run_id, 3)
    return log, run_id


def test_the_same_seed_draws_the_same_turns_with_their_context(tmp_path: Path) -> None:
    log, run_id = _demo(tmp_path)
    with LmdbLog(log, readonly=True) as opened:
        a = sample_turns(opened, run_id, 6, seed=1)
        b = sample_turns(opened, run_id, 6, seed=1)
        c = sample_turns(opened, run_id, 6, seed=2)
    assert a == b and a != c
    assert all(t.language == "hr" and t.said and t.caller_type for t in a)
    assert any(t.before for t in a)  # the agent's line before the caller's, as context


def test_marks_are_label_events_and_the_report_gives_wilson_rates(tmp_path: Path) -> None:
    log, run_id = _demo(tmp_path)
    runner = CliRunner()
    res = runner.invoke(
        cli, ["--log", str(log), "callers", "sample", run_id, "-n", "4", "--by", "ana"], input="y\nn\ntoo stiff\ns\ny\n"
    )
    assert res.exit_code == 0, res.output
    assert "3 marks recorded" in res.output and "AGENT:" in res.output and "CALLER:" in res.output
    with LmdbLog(log, readonly=True) as opened:
        marks = [e.payload for e in opened.read_stream(labels_stream(run_id))]
        assert [m.realistic for m in marks if isinstance(m, CallerTurnLabelled)] == [True, False, True]
        assert [m.note for m in marks if isinstance(m, CallerTurnLabelled)][1] == "too stiff"
        rows = realism(opened, run_id)
    assert sum(r.rate.applicable for r in rows) == 3
    assert all(r.language == "hr" and r.rate.low is not None and r.rate.high is not None for r in rows)
    report = runner.invoke(cli, ["--log", str(log), "callers", "report", run_id])
    assert report.exit_code == 0 and "Wilson" in report.output and " hr " in report.output


def test_an_unknown_run_is_one_clear_line(tmp_path: Path) -> None:
    log, _ = _demo(tmp_path)
    res = CliRunner().invoke(cli, ["--log", str(log), "callers", "sample", "nosuchrun", "--show"])
    assert res.exit_code == 2 and "Traceback" not in res.output
