"""``agent_contradicts_tools``: an amount said as a bound ("less than 100 euros") is a claim about the amount.

trial3: for an early-termination fee of 120 € the agent said "manje od stotinu eura" ("less than a
hundred euros") and passed: "stotinu" was read as no number and a bound as no claim. A bound the
tool's amount lies within ("under 150 euros" for 120) failed as an amount no source gave.
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import agent_contradicts_tools
from tests.support.tool_calls import call, outcome

FEE = ("izracunaj_naknadu", {"broj_ugovora": "UG-62014"}, {"naknada_eur": 120.0, "ugovorna_obveza_do": "2027-06-30"})
"""A fee of 120 €."""


def _said(agent: str) -> str:
    return outcome(call([("UG-62014", [FEE], agent)]))


@pytest.mark.parametrize(
    "agent",
    [
        "Naknada za prijevremeni raskid ugovora iznosi manje od stotinu eura.",
        "Naknada je ispod 100 eura.",
        "The fee is less than 100 euros.",
        "It's under €100, don't worry.",
        "The fee is more than 200 euros.",
        "Die Gebühr liegt unter 100 Euro.",
        "Die Gebühr beträgt höchstens 100 Euro.",
        "La penalización es de menos de 100 euros.",
        "La penalización es de más de 200 euros.",
        "Плата за расторжение меньше ста евро.",
        "Плата не более 100 евро.",
    ],
)
def test_a_bound_the_tools_amount_breaks_fails(agent: str) -> None:
    assert _said(agent) == "fail"


@pytest.mark.parametrize(
    "agent",
    [
        "Naknada je manje od 150 eura.",
        "Naknada je više od stotinu eura.",
        "The fee is under 150 euros.",
        "It's no more than €120.",
        "The fee is more than 100 euros.",
        "Die Gebühr liegt unter 150 Euro.",
        "La penalización es de menos de 150 euros.",
        "Плата меньше 150 евро.",
        "Плата до 150 евро.",
        "Плата больше ста евро.",
    ],
)
def test_a_bound_the_tools_amount_keeps_passes(agent: str) -> None:
    assert _said(agent) == "pass"


def test_the_detail_says_the_amount_was_said_as_a_bound() -> None:
    found = agent_contradicts_tools(call([("UG-62014", [FEE], "Naknada iznosi manje od stotinu eura.")]))
    assert "said it is below 'stotinu eura', izracunaj_naknadu gave the amount '120.0'" in found.detail
