"""Sweeps end to end: the example's leaderboard, reuse, early stop, the token refusal, resume
after a kill, user errors; and the leaderboard's sorting and ties as a table."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import (
    PointRan,
    PointRefused,
    RunStarted,
    SweepFinished,
    SweepStopped,
)
from tests.support.runs import wait_for_conversations
from tests.support.text import replaced

EXAMPLES = Path(__file__).parents[2] / "examples" / "clinic"
FIXTURES = Path(__file__).parent / "fixtures"


def _cli(log: Path, *args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), *args])
    return res.exit_code, res.stdout, res.output


def _payloads(log: Path) -> list[object]:
    with LmdbLog(log, readonly=True) as opened:
        return [env.payload for env in opened.read_all()]


def _board(log: Path, sweep_id: str) -> dict:
    code, out, all_ = _cli(log, "leaderboard", sweep_id, "--format", "json")
    assert code == 0, all_
    return json.loads(out)


def _clinic(tmp_path: Path, sweep: str) -> Path:
    for name in ("suite.yaml", "agents.py", "prompt_v1.md", "prompt_v2.md"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    path = tmp_path / "sweep.yaml"
    path.write_text(sweep)
    return path


def test_the_example_sweep_ranks_its_points_and_a_second_sweep_reuses_them(tmp_path: Path) -> None:
    log = tmp_path / "log"
    code, sweep_id, out = _cli(log, "sweep", str(EXAMPLES / "sweep.yaml"))
    assert code == 0, out
    sweep_id = sweep_id.strip()
    assert "Leaderboard · sweep" in out and "Centre: " in out and "leader" in out
    board = _board(log, sweep_id)
    ranked = [r for r in board["rows"] if r["rank"]]
    assert len(ranked) == 5 and [r["rank"] for r in ranked] == [1, 2, 3, 4, 5]
    keys = [(-r["mean"], r["stability"], r["speed_ms"] or 0) for r in ranked]
    assert keys == sorted(keys)
    # v1 as it is leads, or ties the leader within noise (issue 32's caller moved a 0.5-point tie)
    centre = next(
        r for r in ranked if r["values"] == {"patience": 2, "check_calendar": True, "reassure": "policy"}
    )
    assert centre is ranked[0] or centre["tie"], ranked
    assert any(r["tie"] for r in ranked) and any(not r["tie"] for r in ranked[1:])
    # the same sweep again: every point's profile and settings met again → the same runs, no call re-run
    runs_before = sum(isinstance(e, RunStarted) for e in _payloads(log))
    code, again, out = _cli(log, "sweep", str(EXAMPLES / "sweep.yaml"))
    assert code == 0 and "reusing run" in out, out
    assert sum(isinstance(e, RunStarted) for e in _payloads(log)) == runs_before
    second = _board(log, again.strip())
    assert [r["mean"] for r in second["rows"]] == [r["mean"] for r in board["rows"]]
    assert all(r["reused"] for r in second["rows"])


def test_two_sweeps_started_in_one_second_get_two_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock stands still (a fast machine starts both in one second): each start has its own id."""
    import polygon.cli.sweep_cmd as sweep_cmd

    monkeypatch.setattr(sweep_cmd, "system_now", lambda: "2026-01-01T00:00:00Z")
    sweep = _clinic(
        tmp_path, "name: s\nsuite: suite.yaml\nbase: v2\nmode: oat\nparameters: {patience: [2]}\n"
    )
    code, first, out = _cli(tmp_path / "log", "sweep", str(sweep))
    assert code == 0, out
    code, second, out = _cli(tmp_path / "log", "sweep", str(sweep))
    assert code == 0 and "reusing run" in out, out
    assert first.strip() != second.strip()
    assert {e.sweep_id for e in _payloads(tmp_path / "log") if isinstance(e, SweepFinished)} == {
        first.strip(),
        second.strip(),
    }


def test_the_first_point_below_the_floor_stops_the_sweep(tmp_path: Path) -> None:
    base = "name: s\nsuite: suite.yaml\nbase: v2\nmode: oat\nparameters: {patience: [2, 4]}\ntrials: 1\n"
    stopping = _clinic(tmp_path, base + "floor: 80\n")
    code, sweep_id, out = _cli(tmp_path / "log", "sweep", str(stopping))
    assert code == 0, out
    assert "stopped early: the first point's mean composite" in out and "below the floor 80" in out
    events = _payloads(tmp_path / "log")
    assert sum(isinstance(e, PointRan) for e in events) == 1
    [stopped] = [e for e in events if isinstance(e, SweepStopped)]
    assert stopped.mean_composite < 80
    [finished] = [e for e in events if isinstance(e, SweepFinished)]
    assert finished.not_run == 1
    board = _board(tmp_path / "log", sweep_id.strip())
    assert board["stopped"] and board["rows"][-1]["status"] == "not run"
    # without a floor the same sweep runs both points
    (tmp_path / "sweep.yaml").write_text(base)
    _cli(tmp_path / "log2", "sweep", str(tmp_path / "sweep.yaml"))
    assert sum(isinstance(e, PointRan) for e in _payloads(tmp_path / "log2")) == 2


def test_a_point_estimated_over_the_token_limit_is_refused_and_recorded(tmp_path: Path) -> None:
    long_prompt = (EXAMPLES / "prompt_v1.md").read_text() * 20
    sweep = (
        "name: t\nsuite: suite.yaml\nbase: v1\nmode: grid\n"
        "parameters: {prompt_file: [prompt_v1.md, long.md]}\nscenarios: [coop-booking]\ntrials: 1\n"
    )
    path = _clinic(tmp_path, sweep + "token_limit: 6000\n")
    (tmp_path / "long.md").write_text(long_prompt)
    code, sweep_id, out = _cli(tmp_path / "log", "sweep", str(path))
    assert code == 0, out
    events = _payloads(tmp_path / "log")
    [ran] = [e for e in events if isinstance(e, PointRan)]
    [refused] = [e for e in events if isinstance(e, PointRefused)]
    assert ran.index == 0 and 0 < ran.tokens < 6000  # the first point fit, and its usage was counted
    assert refused.index == 1 and refused.estimated_tokens > refused.limit == 6000
    assert "1 earlier point(s)" in refused.basis  # estimated from the recorded usage, not guessed
    assert "refused: estimated" in out
    assert not any(isinstance(e, RunStarted) and "long" in str(e.prompts) for e in events)
    # without a limit the long prompt runs
    path.write_text(sweep)
    _cli(tmp_path / "log2", "sweep", str(path))
    assert sum(isinstance(e, PointRan) for e in _payloads(tmp_path / "log2")) == 2


def test_a_first_point_too_big_for_the_limit_is_refused_before_any_call(tmp_path: Path) -> None:
    sweep = "name: t\nsuite: suite.yaml\nbase: v1\nparameters: {patience: [2]}\ntoken_limit: 100\n"
    code, _, out = _cli(tmp_path / "log", "sweep", str(_clinic(tmp_path, sweep)))
    assert code == 0, out
    events = _payloads(tmp_path / "log")
    [refused] = [e for e in events if isinstance(e, PointRefused)]
    assert refused.basis.startswith("first point:") and not any(isinstance(e, RunStarted) for e in events)


def test_a_sweep_killed_mid_point_resumes_to_the_same_leaderboard(tmp_path: Path) -> None:
    sweep = str(FIXTURES / "slow_sweep.yaml")
    killed = tmp_path / "killed"
    cmd = [
        sys.executable,
        "-m",
        "polygon",
        "--log",
        str(killed),
        "sweep",
        sweep,
        "--sweep-id",
        "wk",
        "--concurrency",
        "2",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_conversations(killed, 3, timeout=60)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert not any(isinstance(e, SweepFinished) for e in _payloads(killed))
    code, _, out = _cli(killed, "sweep", sweep, "--resume", "wk")
    assert code == 0, out
    with LmdbLog(killed, readonly=True) as opened:
        assert opened.verify().ok
    whole = tmp_path / "whole"
    code, _, out = _cli(whole, "sweep", sweep, "--sweep-id", "wk")
    assert code == 0, out
    assert _board(killed, "wk") == _board(whole, "wk")


def test_sweep_user_errors_name_the_file_and_field(tmp_path: Path) -> None:
    cases = [
        (
            "name: s\nsuite: suite.yaml\nbase: v9\nparameters: {patience: [1]}\n",
            "base: no configuration 'v9'",
        ),
        ("name: s\nsuite: suite.yaml\nbase: v1\nparameters: {}\n", "parameters: at least one parameter"),
        (
            "name: s\nsuite: suite.yaml\nbase: v1\nparameters: {patience: {min: 1, max: 3}}\n",
            "a range needs mode: random",
        ),
        (
            "name: s\nsuite: suite.yaml\nbase: v1\nparameters: {patience: [1]}\nscenarios: [nobody]\n",
            "no scenario 'nobody'",
        ),
        (
            "name: s\nsuite: ../../etc/passwd\nbase: v1\nparameters: {patience: [1]}\n",
            "outside the suite's folder",
        ),
        (
            "name: s\nsuite: suite.yaml\nbase: v1\nmode: grid\nmax_points: 3\nparameters: {a: [1, 2], b: [1, 2]}\n",
            "a grid of 4 points",
        ),
        (
            "name: s\nsuite: suite.yaml\nbase: v1\nparameters: {prompt_file: [missing.md]}\n",
            "parameters.prompt_file.0: cannot read",
        ),
        ("name: s\nsuite: suite.yaml\nbase: v1\nmode: sideways\nparameters: {a: [1]}\n", "mode"),
    ]
    for text, said in cases:
        code, _, out = _cli(tmp_path / "log", "sweep", str(_clinic(tmp_path, text)))
        assert code == 2, (text, out)
        assert "sweep.yaml" in out and said in out and "Traceback" not in out, out
    code, _, out = _cli(tmp_path / "log", "leaderboard", "wnope")
    assert code == 2 and "no sweep 'wnope'" in out
    code, _, out = _cli(tmp_path / "log", "sweep", str(EXAMPLES / "sweep.yaml"), "--resume", "wnope")
    assert code == 2 and "no sweep 'wnope'" in out


def test_random_points_are_drawn_from_the_seed(tmp_path: Path) -> None:
    from polygon.suite.sweep import load_sweep
    from polygon.sweep.points import make_points

    text = "name: r\nsuite: suite.yaml\nbase: v1\nmode: random\npoints: 6\nseed: 3\nparameters: {patience: {min: 1, max: 5}, temperature: {min: 0, max: 1.5}}\n"
    path = _clinic(tmp_path, text)
    first = [p.values for p in make_points(load_sweep(path))]
    assert first == [p.values for p in make_points(load_sweep(path))]
    assert all(isinstance(v["patience"], int) and 1 <= v["patience"] <= 5 for v in first)
    assert all(0 <= v["temperature"] <= 1.5 for v in first)
    path.write_text(replaced(text, "seed: 3", "seed: 4"))
    assert [p.values for p in make_points(load_sweep(path))] != first


def test_a_model_parameter_swept_on_a_python_agent_is_warned_about(tmp_path: Path) -> None:
    sweep = (
        "name: t\nsuite: suite.yaml\nbase: v1\nmode: grid\n"
        "parameters: {temperature: [0.0, 0.5]}\nscenarios: [coop-booking]\n"
    )
    code, _, out = _cli(tmp_path / "log", "sweep", str(_clinic(tmp_path, sweep)))
    assert code == 0 and "parameters.temperature: the base configuration v1 is not a model agent" in out
    code, _, out = _cli(tmp_path / "log", "sweep", str(EXAMPLES / "sweep.yaml"))
    # the sweep file draws no warning, nor does its suite (rubric v5 gates on every policy)
    warned = [line for line in out.splitlines() if line.startswith("warning:")]
    assert code == 0 and warned == [], out
    weak = tmp_path / "weak"
    weak.mkdir()
    for f in (EXAMPLES / "sweep.yaml", EXAMPLES / "prompt_v1.md", EXAMPLES / "prompt_v2.md"):
        (weak / f.name).write_text(f.read_text())
    (weak / "suite.yaml").write_text(replaced((EXAMPLES / "suite.yaml").read_text(), "rubric: v5", "rubric: v1"))
    code, _, out = _cli(tmp_path / "log", "sweep", str(weak / "sweep.yaml"))
    # a suite under a rubric that gates no policy: said once, as run says it
    warned = [line for line in out.splitlines() if line.startswith("warning:")]
    assert code == 0 and len(warned) == 1 and "rubric v1 does not gate on check:policy" in warned[0], out
