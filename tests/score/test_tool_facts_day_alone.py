"""``agent_contradicts_tools``: a day of the month said alone ("on the 12th") against a tool's date (trial3).

A parcel line's agent rescheduled to 2026-12-11 (the tool's date) and said "All sorted, we'll
deliver it on the 12th": 4 such calls passed. A date was read only with its month.
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import values_in
from tests.support.tool_calls import call, outcome

FACTS = {"name": "Tom Reid", "tracking_number": "PX-77120", "date": "2026-12-11"}
MOVED = (
    "reschedule",
    {"tracking_number": "PX-77120", "date": "2026-12-11"},
    {"ok": True, "delivery_date": "2026-12-11", "window": "08:00-12:00"},
)
ASKED = "No — 2026-12-11."


@pytest.mark.parametrize(
    "said",
    [
        "All sorted, we'll deliver it on the 12th. Anything else?",
        "All sorted, we'll deliver it on the twelfth between 8 and 12.",
        "Gotovo, dostavit ćemo je dvanaestog ujutro.",
        "Erledigt, wir liefern am 12. zwischen acht und zwölf.",
        "Listo, se lo entregamos el día 12.",
        "Готово, доставим двенадцатого.",
    ],
)
def test_a_day_alone_other_than_the_tools_fails(said: str) -> None:
    assert outcome(call([(ASKED, [MOVED], said)], FACTS)) == "fail", values_in(said)


@pytest.mark.parametrize(
    "said",
    [
        "All sorted, we'll deliver it on the 11th. Anything else?",
        "All sorted, we'll deliver it on the eleventh.",
        "Gotovo, dostavit ćemo je jedanaestog.",
        "We'll leave it on the 2nd floor landing.",  # a floor, not a day
        "It's on the 12th of the list.",  # "of": not a day said alone
        "It was your 12th parcel this year.",
    ],
)
def test_the_tools_day_or_no_day_passes(said: str) -> None:
    assert outcome(call([(ASKED, [MOVED], said)], FACTS)) == "pass", values_in(said)


def test_a_day_alone_with_no_tool_date_is_not_its_business() -> None:
    hours = ("opening_hours", {}, {"open": "08:00", "close": "18:00"})
    assert outcome(call([("when are you open", [hours], "We're open 08:00 to 18:00, also on the 24th.")])) == "pass"
