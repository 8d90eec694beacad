"""``agent_contradicts_tools``: a number of the caller's sent to a tool that nobody gave.

The starter suite's agent changed to look up order A-200 whatever its caller said passed 3 of
4 calls of a suite without ``expect.calls`` (it told the caller another customer's status).
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.score.tool_facts import agent_contradicts_tools
from tests.support.tool_calls import call, outcome

FACTS = {"name": "Alex Doe", "order": "A-100", "phone": "555 0100", "delivery_address": "Ilica 12"}


def lookup(heard: str, args: dict[str, Any], result: Any = None, facts: dict[str, str] = FACTS) -> str:
    said = "Your order is open."
    return outcome(call([(heard, [("order_status", args, result or {"status": "open"})], said)], facts=facts))


@pytest.mark.parametrize(
    ("heard", "args"),
    [
        ("My order is A-100.", {"order_id": "A-200"}),
        ("My order is A-100.", {"order_number": "A-1000"}),  # a longer number is another one
        ("Call me on 555 0100.", {"phone_number": "555 0199"}),
        ("My order is one hundred.", {"order_id": 200}),
    ],
)
def test_a_fact_carrying_number_nobody_gave_fails(heard: str, args: dict[str, Any]) -> None:
    assert lookup(heard, args) == "fail"


def test_the_failure_names_the_tool_the_argument_and_the_callers_fact() -> None:
    view = call(
        [("My order is A-100.", [("order_status", {"order_id": "A-200"}, {"A-200": "shipped"})], "Shipped.")],
        FACTS,
    )
    detail = agent_contradicts_tools(view).detail
    assert 'sent order_status order_id="A-200"' in detail
    assert "the caller's order: 'A-100'" in detail


@pytest.mark.parametrize(
    ("heard", "args"),
    [
        ("My order is A-100.", {"order_id": "A-100"}),
        ("My order is A 100.", {"order_id": "A100"}),
        ("My order is A-104 — no, 100.", {"order_id": "A-104"}),  # the caller said it: expect.calls judges
        ("My order is one hundred.", {"order_id": "A-100"}),  # number words
        ("It's 555 0100.", {"phone": "5550100"}),
        ("Hi.", {"order_id": "A-100"}),  # the persona's fact grounds it (noise may have dropped it)
        ("My order is A-100.", {"slot": "Friday 09:00", "party": 2}),  # no fact's key
        ("My order is A-100.", {"order_id": "A-12"}),  # two digits identify nothing
        ("Two margheritas, please.", {"order_total": 1700}),  # an amount is summed, not given
        ("I live at Ilica 12.", {"delivery_address": "Ilica 12, 10000 Zagreb"}),  # completed, not invented
        ("Two margheritas, please.", {"order_price": "17.00"}),
    ],
)
def test_a_number_some_source_gave_or_no_fact_carried_passes(heard: str, args: dict[str, Any]) -> None:
    assert lookup(heard, args) != "fail"


def test_a_number_an_earlier_tool_gave_grounds_a_later_argument() -> None:
    turns = [
        (
            "I'm Alex Doe.",
            [("find_orders", {"name": "Alex Doe"}, [{"order_id": "A-377"}])],
            "I found one order.",
        ),
        ("Yes, that one.", [("order_status", {"order_id": "A-377"}, {"A-377": "open"})], "It is open."),
    ]
    assert outcome(call(turns, facts=FACTS)) != "fail"


def test_a_number_the_prompt_gives_grounds_it() -> None:
    view = call([("Hi.", [("order_status", {"order_id": "A-900"}, {"A-900": "open"})], "Open.")], FACTS)
    assert agent_contradicts_tools(view, "Test order for demos: A-900.").outcome != "fail"
    assert agent_contradicts_tools(view).outcome == "fail"


def test_an_imported_call_without_facts_is_left_alone() -> None:
    view = call(
        [("My order is A-100.", [("order_status", {"order_id": "A-200"}, {"A-200": "open"})], "Open.")]
    )
    assert agent_contradicts_tools(view).outcome != "fail"
