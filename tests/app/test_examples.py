"""Both bundled examples, end to end through the CLI: the careful version beats the
regressed one, and in the pizza example expect: is what catches the wrong orders."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli


@pytest.mark.parametrize("example", ["clinic", "pizza", "pizzeria"])
def test_demo_runs_each_example_and_v1_beats_v2(tmp_path: Path, example: str) -> None:
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "demo", "--example", example])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert "scripted/caller, a deterministic offline baseline" in res.output
    cards = {
        line.split()[0]: float(line.split()[2])
        for line in lines
        if line.startswith(("v1 ", "v2 ")) and "[" in line
    }
    assert cards["v1"] > cards["v2"], res.output
    title = {"clinic": "Smile Dental", "pizza": "Pizza Roma", "pizzeria": "Pizzeria Roma"}[example]
    assert title in lines[0]
    others = {"clinic", "pizza", "pizzeria"} - {example}
    assert {o for o in others if f"polygon demo --example {o} " in res.output} == others  # each one named


def test_the_pizza_example_judges_orders_by_their_end_state(tmp_path: Path) -> None:
    log = str(tmp_path / "log")
    from polygon.app.demo import example_suite_path

    suite = str(example_suite_path("pizza"))
    assert CliRunner().invoke(cli, ["--log", log, "run", suite, "--run-id", "p"]).exit_code in (0, 1)
    report = CliRunner().invoke(cli, ["--log", log, "report", "p"]).output
    # v2 sends every order out at 18:00: expect names the caller's time and what was made.
    assert "p.v2.coop-veggie.0" in report
    wrong = next(line for line in report.splitlines() if line.startswith("p.v2.coop-veggie.0"))
    assert "fail" in wrong and "time = '18:30' (fact delivery_time)" in wrong and "time='18:00'" in wrong
    right = next(line for line in report.splitlines() if line.startswith("p.v1.coop-veggie.0"))
    assert " pass " in right
    assert "have no expect:" not in report  # every pizza scenario declares one


def test_an_unknown_example_is_a_user_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "demo", "--example", "bakery"])
    assert res.exit_code == 2 and "bakery" in res.output
