"""A day before its month with the pack's date word ("el 12 de diciembre"), held against the tools (trial47 D13).

``estado_siniestro`` gave ``pago_previsto: 2026-12-10`` and the agent said "el pago está previsto
para el 12 de diciembre": "12 de diciembre" was read as no date (only English "of" could stand
between a day in digits and its month), so the wrong date passed. Every pack's shape of a
day-and-month is checked here, in digits and in words.
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.score.tool_facts import DAY, agent_contradicts_tools, values_in
from tests.support.calls import call, tool

PAY = {"estado": "aprobado", "importe": "1850.00", "pago_previsto": "2026-12-10"}


def _check(result: dict[str, Any], said: str) -> tuple[str, str]:
    found = agent_contradicts_tools(
        call([("¿Cómo va mi siniestro?", said, [tool("estado_siniestro", {}, result)])], {})
    )
    return found.outcome, found.detail


@pytest.mark.parametrize(
    "said",
    [
        "su siniestro está aprobado, y el pago está previsto para el 12 de diciembre en su cuenta.",
        "el pago está previsto para el doce de diciembre.",
        "isplata je predviđena za 12. prosinca.",
        "выплата запланирована на 12 декабря.",
        "die Zahlung ist für den 12. Dezember geplant.",
        "The payment is due on December 12.",
        "The payment is due on the 12th of December.",
    ],
)
def test_a_wrong_day_and_month_contradicts_the_tool(said: str) -> None:
    outcome, detail = _check(PAY, said)
    assert outcome == "fail", detail
    assert "gave the date" in detail


@pytest.mark.parametrize(
    "said",
    [
        "el pago está previsto para el 10 de diciembre en su cuenta.",
        "el pago está previsto para el diez de diciembre.",
        "The payment is due on the 10th of December.",
    ],
)
def test_the_right_day_and_month_is_grounded(said: str) -> None:
    outcome, detail = _check(PAY, said)
    assert outcome == "pass", detail


def test_a_digit_day_before_de_and_its_month_is_one_day() -> None:
    assert [(v.kind, v.value) for v in values_in("para el 12 de diciembre")] == [(DAY, "12-12")]
