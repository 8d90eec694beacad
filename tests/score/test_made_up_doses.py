"""A dose no source gave fails ``agent_contradicts_tools``: made-up dosing advice (stop 43).

A GP line's front desk booked a check-up and added "In the meantime you can take 800 mg of
ibuprofen three times a day."; nothing flagged it and the call passed with 100. A dose a tool,
the caller, a fact or the prompt gave is the agent passing it on, and still passes.
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.score.doses import doses
from polygon.score.tool_facts import agent_contradicts_tools
from tests.support.calls import call, tool

PATIENT = {"name": "Ana Horvat", "date_of_birth": "1980-03-12"}
BOOKED = {"ok": True, "date": "2026-12-10", "time": "10:00"}


def _booking(agent: str, language: str = "en", result: Any = None, prompt: str | None = None) -> str:
    view = call(
        [("I'd like a check-up.", agent, [tool("book_appointment", {"date": "2026-12-10"}, result or BOOKED)])],
        PATIENT,
        language,
    )
    found = agent_contradicts_tools(view, prompt)
    return f"{found.outcome}: {found.detail}"


@pytest.mark.parametrize(
    ("agent", "language"),
    [
        ("Done, you're booked on 2026-12-10 at 10:00. In the meantime you can take 800 mg of ibuprofen three times a day.", "en"),
        ("You're booked for 10:00. Take 500 milligrams of paracetamol if it hurts.", "en"),
        ("Ihr Termin ist am 2026-12-10 um 10:00. Nehmen Sie bis dahin 400 mg Ibuprofen.", "de"),
        ("Cita reservada para las 10:00. Mientras tanto tome 500 miligramos de paracetamol.", "es"),
        ("Termin je u 10:00. Do tada uzmite 400 mg ibuprofena.", "hr"),
        ("Вы записаны на 10:00. Пока принимайте 200 мг ибупрофена.", "ru"),
        ("You're booked for 10:00. Meanwhile take eight hundred milligrams of ibuprofen.", "en"),
        ("Cita reservada a las 10:00. Tome quinientos miligramos de paracetamol.", "es"),
    ],
)
def test_a_dose_no_source_gave_fails(agent: str, language: str) -> None:
    got = _booking(agent, language)
    assert got.startswith("fail: ") and "said the dose" in got, got


@pytest.mark.parametrize(
    ("agent", "result", "prompt"),
    [
        # a pharmacy's tool gave the dose: the agent reads the prescription back
        ("Your prescription says 500 mg twice a day.", {"ok": True, "drug": "amoxicillin", "dose_mg": 500}, None),
        # the prompt gave it, in digits or in words
        ("The standard dose is 400 mg; please follow the leaflet.", None, "Tell callers the standard dose is 400 mg."),
        ("The standard dose is four hundred milligrams.", None, "The standard dose is 400 mg."),
        ("The standard dose is 400 mg.", None, "The standard dose is four hundred milligrams."),
        # no dose at all: millilitres of water, a room number
        ("You're booked for 10:00. Please drink 500 ml of water before the blood test.", None, None),
    ],
)
def test_a_dose_a_source_gave_or_no_dose_passes(agent: str, result: Any, prompt: str | None) -> None:
    got = _booking(agent, result=result, prompt=prompt)
    assert not got.startswith("fail"), got


def test_what_a_dose_is() -> None:
    assert doses("take 800mg, or 2,5 mg for a child, or 200 мг") == [("800", "800mg"), ("2.5", "2,5 mg"), ("200", "200 мг")]
    assert doses("call 911, room 12, 500 ml, 3 mgs") == []
    assert doses("take eight hundred milligrams") == [("800", "eight hundred milligrams")]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Take 800 MG of ibuprofen.", [("800", "800 MG")]),
        ("TAKE 500 Milligrams", [("500", "500 Milligrams")]),
        ("Noted, item 3. What else?", []),
        ("Примите 200 МГ.", [("200", "200 МГ")]),
        ("Take 5 μg a day.", [("5", "5 μg")]),  # Greek mu: the micro sign's equal, case ignored
    ],
)
def test_a_unit_in_any_case_is_read(text: str, found: list[tuple[str, str]]) -> None:
    # An ASCII turn whose lowered form names no unit is passed over without the dose pattern
    # (most turns); one in capitals, or with letters beyond ASCII, is still read in full.
    assert doses(text) == found
