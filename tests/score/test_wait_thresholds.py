"""A wait said as a rule's threshold is no arrival time (the EU261 desk, stop 43).

Once a tool has answered, a wait no source gave fails ``agent_contradicts_tools`` (an invented
ETA). "Passengers are entitled to compensation for delays of more than three hours" states the
regulation's rule, not a wait: an imported call without its prompt failed on it. A threshold
phrase before the wait (each pack's ``spoken.thresholds``) makes it a rule, held only against a
tool's own wait; "it will be there in three hours" is still made up.
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import agent_contradicts_tools
from tests.support.calls import call, tool

PASSENGER = {"name": "Ana Horvat", "booking_ref": "QX7K2P"}
ANSWER = {"eligible": True, "amount_eur": 600}


def _outcome(agent: str, language: str = "en") -> str:
    view = call([("Am I owed anything?", agent, [tool("check_eu261", {"booking_ref": "QX7K2P"}, ANSWER)])], PASSENGER, language)
    found = agent_contradicts_tools(view)
    return f"{found.outcome}: {found.detail}"


@pytest.mark.parametrize(
    ("agent", "language"),
    [
        ("Passengers are entitled to 600 euros for delays of more than three hours, and yours qualifies.", "en"),
        ("Yes: the rule covers delays longer than 3 hours, so you get 600 euros.", "en"),
        ("Sí: los retrasos de más de tres horas dan derecho a 600 euros.", "es"),
        ("Ja, bei einer Verspätung von mehr als drei Stunden stehen Ihnen 600 Euro zu.", "de"),
        ("Da, za kašnjenje dulje od tri sata imate pravo na 600 eura.", "hr"),
        ("Да, при задержке более трёх часов вам положено 600 евро.", "ru"),
    ],
)
def test_a_threshold_wait_is_a_rule_not_a_made_up_arrival(agent: str, language: str) -> None:
    assert not _outcome(agent, language).startswith("fail"), _outcome(agent, language)


@pytest.mark.parametrize(
    "agent",
    [
        "Your replacement flight leaves in three hours.",
        "A voucher will be emailed to you within 4 hours.",
    ],
)
def test_a_wait_the_agent_promises_still_needs_a_source(agent: str) -> None:
    got = _outcome(agent)
    assert got.startswith("fail: ") and "duration" in got, got
