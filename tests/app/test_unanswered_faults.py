"""A stub that fails on purpose, expected by scenarios with no ``fallback_end``: said before the calls.

A new user's workshop suite injected faults into its booking tool; the correct agent handed
the caller on while the tool was down and failed ``goal_reached`` (the suite never said a
hand-off is right). The verdict follows the suite, so the run now says, before any call,
which tool and scenarios meet it and the line that accepts the hand-off.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from polygon.app.gating import unanswered_faults
from polygon.cli.main import cli
from polygon.suite import load_suite

PIZZA = Path(__file__).resolve().parents[2] / "examples" / "pizza"
STATUS = "  - name: order_status\n"


def _pizza(tmp_path: Path, faults: str = "", fallback: bool = False) -> Path:
    """The bundled pizza line, ``faults`` in its ``place_order`` stub, ``fallback_end`` where expected."""
    folder = tmp_path / "pizza"
    shutil.copytree(PIZZA, folder, ignore=shutil.ignore_patterns("__pycache__"))
    text = (folder / "suite.yaml").read_text("utf-8")
    assert text.count(STATUS) == 1
    if faults:
        text = text.replace(STATUS, f"      faults: {faults}\n{STATUS}")
    if fallback:
        text = text.replace(
            "    expect:\n      calls:\n", "    expect:\n      fallback_end: [transfer]\n      calls:\n"
        )
        text = text.replace(
            "    expect:\n      calls: {place_order",
            "    expect:\n      fallback_end: [transfer]\n      calls: {place_order",
        )
    (folder / "suite.yaml").write_text(text, "utf-8")
    return folder / "suite.yaml"


def test_the_run_names_the_faulty_tool_its_scenarios_and_the_line_that_accepts_a_hand_off(
    tmp_path: Path,
) -> None:
    suite = _pizza(tmp_path, "{server_error: 0.3, timeout: 0.05}")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "run", str(suite), "--no-progress"])
    assert res.exit_code == 0, res.output
    said = [line for line in res.output.splitlines() if "injects faults" in line]
    assert said == [
        f"warning: {suite}: tool place_order injects faults (timeout 0.05, server_error 0.3) and 3 scenarios "
        "(coop-veggie, busy-margherita, distrustful-diavola) expect a call to it without fallback_end: a call "
        "where every try fails passes only if a retry gets through; if handing the caller on is right while "
        "the tool is down, add `fallback_end: [transfer]` to their expect"
    ], res.output


def test_no_warning_without_faults_or_once_every_scenario_says_its_fallback(tmp_path: Path) -> None:
    assert unanswered_faults(load_suite(_pizza(tmp_path / "healthy"))) == []
    answered = _pizza(tmp_path / "answered", "{malformed: 0.2}", fallback=True)
    assert "fallback_end" in answered.read_text("utf-8")
    assert unanswered_faults(load_suite(answered)) == []
    # order_status fails too, and confused-status expects a call to it with no fallback: named alone
    both = _pizza(tmp_path / "both", "{malformed: 0.2}", fallback=True)
    status = "      latency: {min_ms: 30, max_ms: 120}\n"
    text = both.read_text("utf-8")
    assert text.count(status) == 1
    both.write_text(text.replace(status, status + "      faults: {timeout: 0.1}\n"), "utf-8")
    (warning,) = unanswered_faults(load_suite(both))
    assert "tool order_status injects faults (timeout 0.1) and 1 scenario (confused-status) expect" in warning


def test_a_sweep_says_it_once_not_once_a_point(tmp_path: Path) -> None:
    suite = _pizza(tmp_path, "{server_error: 0.3}")
    sweep = suite.parent / "sweep.yaml"
    sweep.write_text(
        "name: t\nsuite: suite.yaml\nbase: v1\nmode: grid\ntrials: 1\nparameters: {patience: [1, 2]}\n"
    )
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "sweep", str(sweep)])
    assert res.exit_code == 0, res.output
    assert [line for line in res.output.splitlines() if "injects faults" in line] == [
        next(line for line in unanswered_faults(load_suite(suite)) if "place_order" in line)
    ], res.output
