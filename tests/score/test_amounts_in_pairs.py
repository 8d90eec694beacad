"""Amounts said in pairs and with their pence after the currency (tester45 D15).

get_balance answered 1240.50 and the agent said "you've got twelve forty pounds fifty left on
the loan", as people say £1,240.50: ``agent_contradicts_tools`` failed it ("said 'forty
pounds', get_balance gave the amount '1240.50'"). A pair before the currency ("twelve forty",
"nineteen ninety-nine") and a number after it ("pounds fifty") are read as the amount they say
when a source gives that reading; a wrong pair ("twelve fourteen pounds fifty") still fails.
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.score.tool_facts import AMOUNT, agent_contradicts_tools, values_in
from tests.support.calls import call, tool


def judged(result: Any, agent: str, facts: dict[str, str] | None = None) -> tuple[str, str]:
    """The check's outcome and detail for one turn: the caller asks, get_balance answers, the agent says."""
    view = call([("What's left on my loan?", agent, [tool("get_balance", {}, result)])], facts=facts or {})
    recorded = agent_contradicts_tools(view)
    return recorded.outcome, recorded.detail


BALANCE = {"balance": 1240.50, "currency": "GBP"}


@pytest.mark.parametrize(
    ("result", "agent"),
    [
        (BALANCE, "Okay so you've got twelve forty pounds fifty left on the loan."),
        (BALANCE, "That's twelve forty pounds and fifty pence, give or take nothing."),
        ({"balance": "1,240.50"}, "You owe twelve forty pounds fifty."),
        ({"balance": 1240}, "You owe twelve forty pounds."),
        ({"price": 19.99}, "It's nineteen ninety-nine pounds a month."),
        ({"price": 1999}, "It's nineteen ninety-nine pounds in total."),
        ({"price": 4.12}, "That comes to four twelve pounds."),
        ({"price": 40}, "I have two accounts here, the second is forty pounds."),
        (BALANCE, "That's twelve hundred and forty pounds fifty."),
        ({"saldo": 1240.50}, "Ihr Saldo beträgt zwölfhundertvierzig Euro fünfzig."),
        ({"saldo": 1240.50}, "Ihr Saldo beträgt tausendzweihundertvierzig Euro und fünfzig Cent."),
        ({"saldo": 1240.50}, "Vaše stanje je tisuću dvjesta četrdeset eura pedeset."),
        ({"saldo": 1240.50}, "Vaše stanje je dvanaest stotina četrdeset eura i pedeset centi."),
        ({"saldo": 1240.50}, "Su saldo es de mil doscientos cuarenta euros con cincuenta."),
        ({"saldo": 1240.50}, "Ваш остаток тысяча двести сорок рублей пятьдесят копеек."),
    ],
)
def test_an_amount_said_as_people_say_it_agrees(result: Any, agent: str) -> None:
    assert judged(result, agent)[0] == "pass"


@pytest.mark.parametrize(
    ("result", "agent", "words"),
    [
        (
            BALANCE,
            "Okay so you've got twelve fourteen pounds fifty left on the loan.",
            "twelve fourteen pounds fifty",
        ),
        (BALANCE, "You've got twelve forty pounds twenty left.", "twelve forty pounds twenty"),
        (BALANCE, "You've got thirteen forty pounds fifty left.", "thirteen forty pounds fifty"),
        ({"price": 19.99}, "It's eighteen ninety-nine pounds a month.", "eighteen ninety-nine pounds"),
        (
            BALANCE,
            "That's twelve hundred and fourteen pounds fifty.",
            "twelve hundred and fourteen pounds fifty",
        ),
        (
            BALANCE,
            "Ihr Saldo beträgt zwölfhundertvierzehn Euro fünfzig.",
            "zwölfhundertvierzehn Euro fünfzig",
        ),
        (
            BALANCE,
            "Vaše stanje je tisuću dvjesta četrnaest eura pedeset.",
            "tisuću dvjesta četrnaest eura pedeset",
        ),
    ],
)
def test_a_wrong_pair_still_contradicts(result: Any, agent: str, words: str) -> None:
    outcome, detail = judged(result, agent)
    assert outcome == "fail"
    assert f"said {words!r}, get_balance gave the amount" in detail


def test_a_wrong_pair_with_pence_is_no_amount_a_birth_date_grounds() -> None:
    """The tester's bt1: the caller's birth date 1984-03-14 held "fourteen pounds" on main."""
    said = "you've got twelve fourteen pounds fifty left on the loan, next payment's due on the fifteenth of december."
    given = {"balance": "1240.50", "currency": "GBP", "next_due": "2026-12-15"}
    outcome, detail = judged(given, said, facts={"account_no": "DL-40318", "date_of_birth": "1984-03-14"})
    assert outcome == "fail"
    assert "said 'twelve fourteen pounds fifty', get_balance gave the amount '1240.50'" in detail


def test_the_pair_reading_comes_first() -> None:
    (v,) = values_in("you've got twelve forty pounds fifty left")
    assert (v.kind, v.value, v.words, v.alts) == (AMOUNT, "1240.5", "twelve forty pounds fifty", ())
    (v,) = values_in("it's nineteen ninety-nine pounds")
    assert (v.value, v.alts) == ("1999", ("99", "19.99"))
    (v,) = values_in("it's forty pounds fifty")
    assert (v.value, v.alts) == ("40.5", ("40",))


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("forty pounds fifty minutes later", {"40"}),  # a wait, not pence
        ("forty pounds fifty pounds", {"40", "50"}),  # two amounts
        ("room four, twelve pounds", {"12"}),  # a comma parts them
    ],
)
def test_no_pair_or_pence_where_none_is_said(text: str, amounts: set[str]) -> None:
    assert {v.value for v in values_in(text) if v.kind == AMOUNT} == amounts


@pytest.mark.parametrize(
    ("result", "agent"),
    [
        ({"slot": "2026-12-04T08:40:00"}, "You're booked for Friday at eight forty."),
        ({"time": "08:40", "fee": 12.40}, "Your slot is at eight forty, and the fee is twelve pounds forty."),
        ({"time": "20:40"}, "See you at eight forty pm, the fee is twelve forty."),
    ],
)
def test_a_time_said_in_pairs_is_no_amount(result: Any, agent: str) -> None:
    assert judged(result, agent)[0] == "pass"
