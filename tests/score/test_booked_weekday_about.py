"""``agent_contradicts_tools``: a weekday said as the day booked is held against the date it is about.

trial3: an agent said "Done — your delivery is moved to Tuesday" for a delivery rescheduled to
2026-12-14 (a Monday) and passed, because the lookup before had given the current delivery date,
2026-12-08, a Tuesday: any date the call had seen grounded its weekday.
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import agent_contradicts_tools
from tests.support.tool_calls import call, outcome

LOOKUP = ("lookup_parcel", {"tracking_number": "PX-48213"}, {"delivery_date": "2026-12-08", "status": "at depot"})
"""The current delivery date: a Tuesday."""
MOVED = ("reschedule", {"tracking_number": "PX-48213", "date": "2026-12-14"}, {"ok": True, "delivery_date": "2026-12-14"})
"""The new date: a Monday."""
ASKED = "My tracking number is PX-48213."


def _moved(said: str, caller: str = "Move it to 2026-12-14, please.") -> str:
    return outcome(call([(ASKED, [LOOKUP], "It is due on 2026-12-08. Which date?"), (caller, [MOVED], said)]))


@pytest.mark.parametrize(
    "said",
    [
        "Done — your delivery is moved to Tuesday. Anything else?",
        "Gotovo, vidimo se u utorak.",
        "Erledigt, wir sehen uns am Dienstag.",
        "Готово, ждём вас во вторник.",
    ],
)
def test_the_weekday_of_an_earlier_date_does_not_ground_the_day_booked(said: str) -> None:
    assert _moved(said) == "fail"


def test_the_detail_names_the_date_booked_and_its_weekday() -> None:
    view = call(
        [
            (ASKED, [LOOKUP], "It is due on 2026-12-08. Which date?"),
            ("2026-12-14.", [MOVED], "Done — your delivery is moved to Tuesday."),
        ]
    )
    assert "the call to reschedule gave the date '2026-12-14' (a monday)" in agent_contradicts_tools(view).detail


def test_the_caller_asked_tuesday_but_the_tool_booked_monday_fails() -> None:
    assert _moved("Done, moved to Tuesday.", caller="Tuesday the 15th, please.") == "fail"


@pytest.mark.parametrize(
    "said",
    [
        "Done — your delivery is moved to Monday. Anything else?",
        "Gotovo, vidimo se u ponedjeljak.",
        "Готово, ждём вас в понедельник.",
    ],
)
def test_the_weekday_of_the_date_booked_passes(said: str) -> None:
    assert _moved(said) == "pass"


def test_the_current_date_read_back_before_a_new_one_is_booked_passes() -> None:
    view = call([(ASKED, [LOOKUP], "Done, I've confirmed it: see you on Tuesday.")])
    assert outcome(view) == "pass"


def test_reading_back_the_callers_request_after_the_lookup_passes() -> None:
    view = call(
        [
            (ASKED, [LOOKUP], "It is due on 2026-12-08. Which date?"),
            ("2026-12-14, please.", [], "Done, moved to Monday: I'm booking it now."),
        ]
    )
    assert outcome(view) == "pass"
