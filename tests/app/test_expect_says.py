"""``expect.says`` through a real run: the suite loads it, the log carries it, goal_reached reads it."""

from __future__ import annotations

from pathlib import Path

from tests.support.pizza import PIZZA_FIXTURE as FIXTURE
from tests.support.pizza import goal_check, run_pizza
from tests.support.text import replaced

ORDER = "      no_calls: []\n  - id: veggie-unchecked"


def _with(tmp_path: Path, lines: str) -> str:
    text = (FIXTURE / "orders.yaml").read_text()
    return replaced(text, ORDER, lines + ORDER)


def test_a_scenario_the_agent_says_passes_and_one_it_does_not_fails(tmp_path: Path) -> None:
    said = "      says: [[pizza roma]]\n      says_before: {phrase: [what time], tool: place_order}\n"
    log, res = run_pizza(tmp_path / "said", _with(tmp_path, said))
    assert res.exit_code == 0, res.output
    right = goal_check(log, "o.right.veggie-order.0")
    assert right.outcome == "pass", right.detail

    unsaid = (
        "      says: [[999, emergency services]]\n      says_before: {phrase: confirmed, tool: place_order}\n"
    )
    log, res = run_pizza(tmp_path / "unsaid", _with(tmp_path, unsaid))
    assert res.exit_code == 0, res.output
    right = goal_check(log, "o.right.veggie-order.0")
    assert right.outcome == "fail"
    assert "the agent never said '999' or 'emergency services'" in right.detail, right.detail
    # "confirmed" comes in the reply to place_order's result: after the call, not before it
    assert "place_order was called at turn 2 before the agent said 'confirmed'" in right.detail


def test_says_before_a_tool_the_suite_lacks_is_refused_at_load(tmp_path: Path) -> None:
    _, res = run_pizza(tmp_path, _with(tmp_path, "      says_before: {phrase: '999', tool: dispatch_tow}\n"))
    assert res.exit_code == 2, res.output
    # written as one mapping: the path names no list index the file does not have
    assert "says_before.tool: no tool 'dispatch_tow'" in res.output, res.output

    two = "      says_before: [{phrase: '999', tool: place_order}, {phrase: tow, tool: dispatch_tow}]\n"
    _, res = run_pizza(tmp_path / "two", _with(tmp_path, two))
    assert res.exit_code == 2, res.output
    assert "says_before.1.tool: no tool 'dispatch_tow'" in res.output, res.output
