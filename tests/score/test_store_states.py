"""``agent_contradicts_tools``: a state of a stateful stub's store that the tool gave otherwise.

The starter suite's own agent, flipped to report "shipped" for the order its lookup gave as
"open", passed every call (the store's states are the suite's words, in no language pack).
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.transcript import ConversationView
from tests.support.tool_calls import call, outcome, with_stores

ORDERS = {"A-100": "open", "A-200": "shipped", "A-300": "IN_TRANSIT"}


def lookup(
    order: str, said: str, *, final: dict[str, Any] | None = None, store: dict[str, str] = ORDERS
) -> ConversationView:
    """A call that looks one order up in the ``orders`` store, then says ``said``."""
    view = call(
        [("My order is " + order, [("order_status", {"order_id": order}, {order: store[order]})], said)]
    )
    return with_stores(view, {"orders": dict(store)}, {"orders": dict(store) if final is None else final})


@pytest.mark.parametrize(
    ("order", "said"),
    [
        ("A-100", "Your order is shipped. Anything else?"),
        ("A-200", "Good news, your order is open and can still be changed."),
        ("A-100", "It's in transit now."),
        ("A-300", "Your order has shipped."),
    ],
)
def test_another_state_of_the_store_said_as_a_claim_fails(order: str, said: str) -> None:
    assert outcome(lookup(order, said)) == "fail"


def test_the_failure_names_the_state_said_and_what_the_tool_gave() -> None:
    from polygon.score.tool_facts import agent_contradicts_tools

    got = agent_contradicts_tools(lookup("A-100", "Your order is shipped."))
    assert "said it is shipped, order_status gave A-100: 'open'" in got.detail


@pytest.mark.parametrize(
    ("order", "said"),
    [
        ("A-100", "Your order is open. Anything else?"),
        ("A-100", "Your order is open; it hasn't shipped yet."),  # the other named, negated
        ("A-100", "It's still open and will be shipped tomorrow."),
        ("A-100", "It will be shipped on Monday."),  # ahead in time: a plan, not the state
        ("A-100", "Has it shipped? No, not yet."),  # a question, then a negation
        ("A-300", "Your parcel is in transit, so it has left us."),
        ("A-100", "Your order was opened yesterday."),  # "opened" names "open"
        ("A-200", "If it were open I could change it, but it has shipped."),
        ("A-200", "It can't be changed now, but feel free to open a new one."),  # no verb of being
    ],
)
def test_the_given_state_or_no_claim_of_another_passes(order: str, said: str) -> None:
    assert outcome(lookup(order, said)) != "fail"


def test_a_store_the_call_wrote_to_is_left_alone() -> None:
    """Its values moved during the call: "shipped" may be what the agent just made it."""
    moved = {**ORDERS, "A-100": "shipped"}
    assert outcome(lookup("A-100", "Your order is shipped.", final=moved)) != "fail"


def test_values_that_name_no_state_make_no_store_states() -> None:
    from polygon.score.tool_states import _state_words

    assert [_state_words(v) for v in ("open", "IN_TRANSIT", "on-hold")] == ["open", "in transit", "on hold"]
    assert [_state_words(v) for v in ("Friday 09:00", "12.50", "yes", "no", "a", "the", "x" * 50)] == [""] * 7


@pytest.mark.parametrize(
    ("store", "said", "verdict"),
    [
        ({"N-1": "otvorena", "N-2": "poslana"}, "Vaša narudžba je poslana.", "fail"),
        ({"N-1": "otvorena", "N-2": "poslana"}, "Narudžba će biti poslana sutra.", "pass"),
        ({"N-1": "offen", "N-2": "versandt"}, "Ihre Bestellung wurde bereits versandt.", "fail"),
        ({"N-1": "offen", "N-2": "versandt"}, "Sie wird morgen versandt.", "pass"),
        ({"N-1": "abierto", "N-2": "enviado"}, "Su pedido ya está enviado.", "fail"),
    ],
)
def test_a_store_in_another_language_is_read_in_its_words(
    store: dict[str, str], said: str, verdict: str
) -> None:
    assert (outcome(lookup("N-1", said, store=store)) == "fail") == (verdict == "fail")
