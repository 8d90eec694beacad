"""``goal_reached`` without ``expect``: a store entry keyed by the caller that the call wrote is a booking.

adversary: the pizza example's store is keyed by the customer (``orders: {"Ana Horvat": none}``,
``place_order`` a ``put`` with ``key_arg: name``) and holds the pizza. With ``expect:`` removed, its
correct agent placed every order and failed 12 of 12 ordering calls: "nothing was booked for the
caller", because only a value naming the caller counted.
"""

from __future__ import annotations

from polygon.score.checks import goal_reached
from polygon.transcript import ConversationView
from tests.support.tool_calls import call, with_stores

BEFORE = {"Ana Horvat": "none", "Marko Babic": "none"}
ORDER = ("place_order", {"name": "Ana Horvat", "pizza": "medium veggie"}, {"ok": True})


def _ordered(final: dict[str, str]) -> ConversationView:
    view = call(
        [("Ana Horvat, a medium veggie, please.", [ORDER], "You're all set. Anything else?")],
        {"name": "Ana Horvat"},
    )
    return with_stores(view, {"orders": dict(BEFORE)}, {"orders": final})


def test_an_order_written_under_the_callers_name_reaches_the_goal() -> None:
    got = goal_reached(_ordered({**BEFORE, "Ana Horvat": "medium veggie"}))
    assert got.outcome == "pass"
    assert "orders[Ana Horvat] = medium veggie" in got.detail


def test_an_order_written_for_someone_else_does_not() -> None:
    got = goal_reached(_ordered({**BEFORE, "Marko Babic": "medium veggie"}))
    assert got.outcome == "fail"


def test_nothing_written_does_not() -> None:
    assert goal_reached(_ordered(dict(BEFORE))).outcome == "fail"


def _twice(
    tools: list[tuple[str, dict[str, str], dict[str, object]]],
    before: dict[str, str],
    final: dict[str, str],
    name: str,
) -> ConversationView:
    view = call([("Yes, please.", tools, "You're all set. Anything else?")], {"name": name})
    return with_stores(view, {"s": dict(before)}, {"s": final})


def test_the_same_order_placed_twice_does_not_reach_the_goal() -> None:
    got = goal_reached(
        _twice([ORDER, ORDER], BEFORE, {**BEFORE, "Ana Horvat": "medium veggie"}, "Ana Horvat")
    )
    assert got.outcome == "fail"
    assert "place_order was called twice with the same arguments" in got.detail


SLOTS = {"Wednesday 09:00": "free", "Wednesday 14:00": "free"}


def _slot(slot: str) -> tuple[str, dict[str, str], dict[str, object]]:
    return ("book_slot", {"slot": slot, "name": "Kovac"}, {"ok": True, "slot": slot})


def test_two_slots_held_for_one_caller_do_not_reach_the_goal() -> None:
    final = {"Wednesday 09:00": "Kovac", "Wednesday 14:00": "Kovac"}
    got = goal_reached(
        _twice([_slot("Wednesday 09:00"), _slot("Wednesday 14:00")], SLOTS, final, "Ana Kovac")
    )
    assert got.outcome == "fail"
    assert "s holds 2 entries written to 'Kovac'" in got.detail


def test_one_slot_held_or_two_people_booked_reach_the_goal() -> None:
    one = {**SLOTS, "Wednesday 09:00": "Kovac"}
    assert goal_reached(_twice([_slot("Wednesday 09:00")], SLOTS, one, "Ana Kovac")).outcome == "pass"
    family = {"Wednesday 09:00": "Ana Kovac", "Wednesday 14:00": "Luka Kovac"}
    two = [
        _slot("Wednesday 09:00"),
        ("book_slot", {"slot": "Wednesday 14:00", "name": "Luka Kovac"}, {"ok": True}),
    ]
    assert goal_reached(_twice(two, SLOTS, family, "Ana Kovac")).outcome == "pass"


def test_a_lookup_made_twice_is_no_double_write() -> None:
    look = ("order_status", {"name": "Marko"}, {"status": "open"})
    final = {**BEFORE, "Ana Horvat": "medium veggie"}
    assert goal_reached(_twice([look, ORDER, look], BEFORE, final, "Ana Horvat")).outcome == "pass"
