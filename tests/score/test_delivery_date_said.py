"""``agent_contradicts_tools``: a card's delivery date said wrong beside a weekday, or as a weekday (trial8).

A bank line's order_replacement answered ``delivery_date: 2026-12-09`` (a Wednesday) and the
agent said "arrives Wednesday the 16th" or "expect it on Tuesday": both passed. "the 16th" was a
day only after "on", and "expect it" / "arrives" named no slot for a weekday said alone.
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import values_in
from tests.support.tool_calls import call, outcome

ORDERED = ("order_replacement", {"card_last4": "4011"}, {"ok": True, "delivery_date": "2026-12-09"})
ASKED = "I'd like a replacement card, please."


@pytest.mark.parametrize(
    "said",
    [
        "Done — your replacement card is ordered and arrives Wednesday the 16th.",
        "Done — your replacement card is ordered and arrives on Wednesday, the 16th.",
        "Done — your card is ordered; expect it on Tuesday.",
        "Your new card is ordered. It arrives on Tuesday.",
        "Your new card is ordered and will be delivered on Friday.",
    ],
)
def test_a_delivery_day_other_than_the_tools_fails(said: str) -> None:
    assert outcome(call([(ASKED, [ORDERED], said)])) == "fail", values_in(said)


@pytest.mark.parametrize(
    "said",
    [
        "Done — your replacement card is ordered and arrives Wednesday the 9th.",
        "Done — your card is ordered; expect it on Wednesday.",
        "Your new card is ordered. It arrives on Wednesday.",
        "Done, your card is ordered. Our branch on Friday Street is open 9 to 5.",
        "Done, it arrives on the 9th, and we deliver Monday to Friday.",
    ],
)
def test_the_tools_day_passes(said: str) -> None:
    assert outcome(call([(ASKED, [ORDERED], said)])) == "pass", values_in(said)


@pytest.mark.parametrize(
    ("said", "verdict"),
    [
        # A day and month in digits without a year, where only one reading is a date (trial8).
        ("Done — your new card will be with you on 16/12.", "fail"),
        ("Done — your new card will be with you by 12/16.", "fail"),
        ("Done — your new card will be with you on 09/12.", "pass"),  # either reading: left alone
        ("Done — your new card is ordered. Our helpline is open 24/7.", "pass"),
    ],
)
def test_a_yearless_day_and_month_in_digits(said: str, verdict: str) -> None:
    assert outcome(call([(ASKED, [ORDERED], said)])) == verdict, values_in(said)
