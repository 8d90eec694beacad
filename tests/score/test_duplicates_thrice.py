"""A write made three times with the same arguments, with no store to show it, is no goal reached.

A new-user trial on a bank card line: an agent called ``order_replacement`` three times for
one caller (a ``template`` stub, no store), and the call passed at 100, since the double-write
rule reads only writes a store shows. Three identical answered calls of a tool whose name
says no read ("order_replacement", not "order_status") are read as the same write made again;
two are not (a retry the agent could not tell went through).
"""

from __future__ import annotations

import msgspec

from polygon.events import PersonaSnapshot
from polygon.score.checks import goal_reached
from polygon.score.duplicates import duplicated
from polygon.transcript import ConversationView
from tests.support.tool_calls import call, with_stores

VERIFY = ("verify_caller", {"name": "Ana Smith", "last4": "4242"}, {"verified": True})
ORDER = ("order_replacement", {"card_last4": "4242"}, {"ok": True, "replacement_for": "4242"})
REFUSED = "I'm sorry, I can't refund disputed transactions, but I can send you the dispute form."


def _view(tools: list[tuple[str, dict[str, str], dict[str, object]]]) -> ConversationView:
    view = call([("Refund the disputed payments.", tools, REFUSED)], {"name": "Ana Smith"})
    assert view.started is not None
    persona = msgspec.structs.replace(view.started.persona, outcome="refusal", language="en")
    view = msgspec.structs.replace(view, started=msgspec.structs.replace(view.started, persona=persona))
    return with_stores(view, {}, {})


def _persona(view: ConversationView) -> PersonaSnapshot:
    assert view.started is not None and view.started.persona is not None
    return view.started.persona


def test_a_write_made_three_times_for_one_caller_fails_the_goal() -> None:
    view = _view([VERIFY, ORDER, ORDER, ORDER])
    said = duplicated(view, _persona(view))
    assert said.startswith("order_replacement was called 3 times with the same arguments")
    got = goal_reached(view)
    assert got.outcome == "fail"
    assert "order_replacement was called 3 times" in got.detail


def test_a_write_made_twice_or_three_times_differently_is_no_duplicate() -> None:
    for tools in (
        [VERIFY, ORDER, ORDER],
        [ORDER, ("order_replacement", {"card_last4": "1111"}, {"ok": True}), ORDER],
    ):
        view = _view(tools)
        assert duplicated(view, _persona(view)) == ""


def test_a_lookup_made_three_times_is_no_duplicate() -> None:
    status = ("order_status", {"card_last4": "4242"}, {"status": "shipped"})
    view = _view([VERIFY, VERIFY, VERIFY, status, status, status])
    assert duplicated(view, _persona(view)) == ""


def test_writes_that_answered_a_failure_are_retries_not_duplicates() -> None:
    failed = ("order_replacement", {"card_last4": "4242"}, {"ok": False, "error": "card system down"})
    view = _view([failed, failed, ORDER])
    assert duplicated(view, _persona(view)) == ""
