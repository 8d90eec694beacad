"""Expected outcomes: ``goal_reached`` judged by the call's end state, on a pizza suite."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from tests.support.pizza import PIZZA_FIXTURE, goal_check, run_pizza
from tests.support.text import replaced

FIXTURE = PIZZA_FIXTURE


def test_the_wrong_order_fails_goal_reached_through_expect(tmp_path: Path) -> None:
    log, res = run_pizza(tmp_path)
    assert res.exit_code == 0, res.output
    right, wrong = goal_check(log, "o.right.veggie-order.0"), goal_check(log, "o.wrong.veggie-order.0")
    assert right.outcome == "pass", right.detail
    assert wrong.outcome == "fail"
    # It says what was expected and what the agent did, in the caller's own facts.
    assert "orders[Ana Horvat] is 'pepperoni', expected = 'Medium Veggie' (fact request)" in wrong.detail
    # a finding, worded as what happened (issue 28 item 12), not as a rule
    assert "no place_order call was made with pizza = 'Medium Veggie'" in wrong.detail, wrong.detail
    assert "the last one made had name='Ana Horvat', pizza='pepperoni', time='18:00'" in wrong.detail
    # Without expect, the same wrong order is not caught by end state: the fallback says so.
    unchecked = goal_check(log, "o.wrong.veggie-unchecked.0")
    assert "inferred without expect (weaker)" in unchecked.detail
    report = CliRunner().invoke(cli, ["--log", str(log), "report", "o"]).output
    assert "goal_reached: 2 of 6 calls have no expect:" in report


def test_end_reasons_and_calls_that_must_not_happen(tmp_path: Path) -> None:
    log, res = run_pizza(tmp_path)
    assert res.exit_code == 0, res.output
    strict = goal_check(log, "o.right.veggie-no-order.0")
    assert strict.outcome == "fail"
    assert "ended hangup, expected transfer" in strict.detail and "place_order was called" in strict.detail


def test_an_expectation_naming_what_the_suite_lacks_is_refused_at_load(tmp_path: Path) -> None:
    text = (FIXTURE / "orders.yaml").read_text()
    for i, (old, new, said) in enumerate(
        (
            (
                "place_order.time: {fact: preferred_time}",
                "place_order.time: {fact: flavour}",
                "no fact 'flavour'",
            ),
            (
                '  orders: {"Ana Horvat": none}',
                '  order: {"Ana Horvat": none}',
                "no store 'orders' (have: order)",
            ),
            ("no_calls: [place_order]", "no_calls: [refund]", "no tool 'refund'"),
            (
                "place_order.pizza: {fact: request}",
                "place_order.pizza: {like: veggie}",
                "must be a value or one of",
            ),
        )
    ):
        _, res = run_pizza(tmp_path / str(i), replaced(text, old, new))
        assert res.exit_code == 2, res.output
        assert said in res.output and "scenarios[veggie-" in res.output and "].expect" in res.output, (
            res.output
        )


def test_the_careful_agent_scores_above_the_looping_one_on_reask_after_garble(tmp_path: Path) -> None:
    """Re-asking everything is not re-asking after a garble: the looper must not win."""
    from polygon.events.families import ProbeAnswered

    folder = tmp_path / "pizza"
    shutil.copytree(FIXTURE, folder)
    log = tmp_path / "log"
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(folder / "garble.yaml"), "--run-id", "g"])
    assert res.exit_code == 0, res.output
    answers: dict[str, list[str]] = {"careful": [], "loops": []}
    with LmdbLog(log, readonly=True) as opened:
        for e in opened.read_all():
            p = e.payload
            if isinstance(p, ProbeAnswered) and p.probe_id == "reask_after_garble" and p.answer != "n/a":
                answers[p.conversation_id.split(".")[1]].append(p.answer)
    assert answers["careful"] and answers["loops"]  # the noise garbled calls on both sides

    def rate(side: str) -> float:
        return answers[side].count("yes") / len(answers[side])

    assert rate("careful") > rate("loops"), answers
