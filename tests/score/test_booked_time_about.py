"""``agent_contradicts_tools``: a time said as the slot booked is held against the slot it is about.

adversary: a clinic agent booked "Wednesday 14:00" after the caller took "Wednesday 09:00" and
said "You're booked for Wednesday 09:00" (12 of 12 such calls passed), and an order line sent
place_order 19:30 for a caller's 18:30 and read back 18:30: any time of the call (the slot list
read before, the caller's own words) grounded the time said.
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import agent_contradicts_tools
from tests.support.tool_calls import call, outcome

SLOTS = ["Friday 09:00", "Monday 09:00", "Tuesday 10:30", "Wednesday 09:00", "Wednesday 14:00"]
FIND = ("find_slots", {"day": "wednesday"}, SLOTS)
OFFER = "I have Wednesday 09:00 free. Would you like me to book it?"
ASKED = "Ana Horvat, a medium veggie to 12 Elm Street at 18:30, please."


def _book(slot: str) -> tuple[str, dict[str, str], dict[str, object]]:
    return (
        "book_slot",
        {"name": "Ana Kovac", "phone": "0915550134", "slot": slot},
        {"ok": True, "slot": slot},
    )


def _order(time: str) -> tuple[str, dict[str, str], dict[str, object]]:
    args = {"name": "Ana Horvat", "pizza": "medium veggie", "address": "12 Elm Street", "time": time}
    return ("place_order", args, {"ok": True})


def _booked(slot: str, said: str) -> str:
    return outcome(call([("Wednesday, please.", [FIND], OFFER), ("Yes, that works.", [_book(slot)], said)]))


@pytest.mark.parametrize(
    "said",
    [
        "You're booked for Wednesday 09:00, Ana. Anything else?",
        "Done, see you on Wednesday at 9am.",
        "All set for 09:00 on Wednesday.",
    ],
)
def test_a_time_the_slot_list_held_does_not_ground_another_slot_booked(said: str) -> None:
    assert _booked("Wednesday 14:00", said) == "fail"


def test_the_detail_names_the_time_sent() -> None:
    view = call(
        [
            ("Wednesday, please.", [FIND], OFFER),
            ("Yes.", [_book("Wednesday 14:00")], "You're booked for Wednesday 09:00."),
        ]
    )
    assert "said '09:00', the call to book_slot gave the time '14:00'" in agent_contradicts_tools(view).detail


def test_the_callers_time_does_not_ground_a_read_back_of_another_time_sent() -> None:
    view = call(
        [
            (
                ASKED,
                [_order("19:30")],
                "You're all set: a medium veggie to 12 Elm Street at 18:30. Anything else?",
            )
        ]
    )
    assert outcome(view) == "fail"


@pytest.mark.parametrize(
    "said",
    [
        "You're booked for Wednesday 14:00, Ana. Anything else?",
        "Done, see you on Wednesday at 2pm.",
        "You're booked for Wednesday 14:00. I also have Friday 09:00 free if you need a second visit.",
    ],
)
def test_the_time_booked_passes(said: str) -> None:
    assert _booked("Wednesday 14:00", said) == "pass"


def test_a_read_back_of_the_time_sent_passes() -> None:
    view = call(
        [
            (
                ASKED,
                [_order("18:30")],
                "You're all set: a medium veggie to 12 Elm Street at 18:30. Anything else?",
            )
        ]
    )
    assert outcome(view) != "fail"


def test_reading_back_the_callers_time_before_any_booking_passes() -> None:
    view = call(
        [
            ("Wednesday, please.", [FIND], OFFER),
            ("Actually 14:00 would be better.", [], "Confirmed: 14:00 it is. Shall I book it?"),
        ]
    )
    assert outcome(view) == "pass"


def test_a_correction_after_the_booking_names_the_slot_booked() -> None:
    view = call(
        [
            ("Wednesday, please.", [FIND], OFFER),
            ("Yes.", [_book("Wednesday 09:00")], "You're booked for Wednesday 09:00."),
            ("Sorry, which day?", [], "You're all set for Wednesday 09:00."),
        ]
    )
    assert outcome(view) == "pass"
