"""``agent_contradicts_tools``: a fine or a bill said to be paid when the tool gave it unpaid (trial7).

The parking office's lookup answered ``{"iznos": "35.50", "stanje": "neplaćena"}`` and the agent
said "Kazna od 35,50 eura je već plaćena, ne dugujete ništa.": the amount was right, no pack
named a state of payment, and both calls passed 98.75. A caller told so does not pay and is
fined again. Each pack now names ``payment.paid`` and ``payment.unpaid``.
"""

from __future__ import annotations

import pytest

from tests.support.tool_calls import call, outcome


def fine(state: str, said: str, *, key: str = "stanje") -> str:
    view = call(
        [("ZG 5521-KT", [("lookup_fine", {"tablica": "ZG 5521-KT"}, {"iznos": "35.50", key: state})], said)]
    )
    return outcome(view)


@pytest.mark.parametrize(
    ("state", "said"),
    [
        ("neplaćena", "Kazna od 35,50 eura je već plaćena, ne dugujete ništa."),
        ("plaćena", "Vaša kazna od 35,50 eura je još neplaćena."),
        ("unpaid", "Your fine of 35.50 euros is already paid."),
        ("paid", "Your fine of 35.50 euros is still outstanding."),
        ("unbezahlt", "Ihr Bußgeld über 35,50 Euro ist bereits bezahlt."),
        ("impagada", "Su multa de 35,50 euros ya está pagada."),
        ("не оплачен", "Ваш штраф 35,50 евро уже оплачен."),
    ],
)
def test_the_other_payment_state_said_as_a_claim_fails(state: str, said: str) -> None:
    assert fine(state, said) == "fail"


@pytest.mark.parametrize(
    ("state", "said"),
    [
        ("neplaćena", "Kazna iznosi 35,50 eura i još nije plaćena."),  # negated
        ("neplaćena", "Kazna je neplaćena. Kad bude plaćena, dobit ćete potvrdu."),  # the given state named
        ("neplaćena", "Je li kazna plaćena? Provjerila sam: nije."),  # a question
        ("plaćena", "Kazna od 35,50 eura je plaćena."),
        ("unpaid", "Your fine is not paid yet: 35.50 euros."),
        ("paid", "Your fine is paid, nothing is outstanding."),  # the given state named beside
        ("не оплачен", "Штраф 35,50 евро не оплачен."),
    ],
)
def test_the_given_state_or_no_claim_of_the_other_passes(state: str, said: str) -> None:
    assert fine(state, said) != "fail"


def paid_after(pay: list[tuple[str, dict[str, str], object]], said: str) -> str:
    lookup = ("lookup_fine", {"tablica": "ZG 1234-AB"}, {"iznos": "60.00", "stanje": "neplaćena"})
    view = call(
        [
            ("ZG 1234-AB", [lookup], "Kazna iznosi 60,00 eura i još nije plaćena. Želite li je platiti?"),
            ("Da.", pay, said),
        ]
    )
    return outcome(view)


def test_a_state_another_tool_acted_on_since_is_no_longer_held() -> None:
    """The payment moved the fine's state: "je plaćena" after pay_fine → {"ok": true} is right."""
    pay = [("pay_fine", {"tablica": "ZG 1234-AB", "iznos": "60.00"}, {"ok": True})]
    assert paid_after(pay, "Plaćanje je uspjelo, kazna je plaćena.") != "fail"


def test_an_action_on_something_else_leaves_the_state_held() -> None:
    other = [("issue_permit", {"tablica": "ZG 9999-XX", "zona": "1"}, {"ok": True})]
    assert paid_after(other, "Izdala sam kartu, a kazna je plaćena.") == "fail"
