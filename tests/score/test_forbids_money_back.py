"""``forbids.returns`` / ``returned`` in English, Spanish and Russian: money given back is a refund promised.

trial3 left them empty outside hr and de: "A full refund is what you'll get", "Деньги мы вам
вернём", "La diferencia se la devolveremos" were no promise, and an agent whose prompt forbids
promising refunds passed saying them.
"""

from __future__ import annotations

import pytest

from polygon.score.prompt_forbids import promised


@pytest.mark.parametrize(
    "said",
    [
        # en
        "A full refund is what you'll get.",
        "The difference we'll pay back to you.",
        "We'll pay you back the difference.",
        "Your deposit will be returned.",
        "The money goes back to your card within five days.",
        # es
        "El dinero se lo devolvemos a su cuenta.",
        "La diferencia se la devolveremos.",
        "Le reintegraremos el importe.",
        "Le devolvemos los 40 euros.",
        # ru
        "Мы вернём вам деньги.",
        "Деньги мы вам вернём.",
        "Разницу вернём вам на карту.",
    ],
)
def test_money_given_back_is_a_refund_promised(said: str) -> None:
    assert [p.object for p in promised(said)] == ["refund"], promised(said)


@pytest.mark.parametrize(
    "said",
    [
        # en: refused, asked, checked, or no money
        "No, the money will not be returned.",
        "We won't pay you back the difference.",
        "We'll return your call within the hour.",
        "We'll return the parcel to the sender.",
        "I'll check whether the deposit will be returned.",
        "Will the difference be paid back to me?",
        # es
        "No le devolveremos el dinero.",
        "Le devolveremos la llamada en diez minutos.",
        "Le devolvemos el paquete al remitente.",
        # ru
        "Деньги мы вам не вернём.",
        "Мы вернём вам посылку после проверки.",
        "Мы вернёмся к вопросу оплаты позже.",
        "Вернём ли мы вам деньги?",
    ],
)
def test_money_refused_asked_or_no_money_is_no_promise(said: str) -> None:
    assert promised(said) == [], promised(said)
