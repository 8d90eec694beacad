"""Digits Python calls digits but no number reads ("²", "①"): read as no number, never a crash.

``str.isdigit`` is true for a superscript or a circled digit, and ``Decimal``/``int`` refuse
them: "2²" in an agent's turn raised ``InvalidOperation`` in the number reader, and a caller
fact like "Wohnfläche 80 m ²" raised ``ValueError`` in the noise, which would end the call as a
fault of ours (found by the runspeed2 helper; a real-estate or maths line says such things).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from polygon.score.detectors import phone_numbers
from polygon.score.doses import doses
from polygon.score.spoken_values import spoken_numbers
from polygon.score.tool_facts import agent_contradicts_tools
from polygon.simulate.noise import apply_noise
from tests.support.calls import call, tool

TEXTS = ["²", "2²", "①②③④⑤⑥⑦⑧⑨", "call ²²²²²²²²²", "GET ?page=² take 2,5 MICROGRAMOS daily", "80 m ², 3³"]


@pytest.mark.parametrize("text", TEXTS)
def test_a_digit_no_number_reads_is_no_number_and_no_crash(text: str) -> None:
    assert all(isinstance(value, Decimal) for value, _, _ in spoken_numbers(text))
    assert not any("²" in hit.value or "①" in hit.value for hit in phone_numbers(text))
    doses(text)
    for intensity in (0.5, 1.0):
        heard, _, _ = apply_noise(text, intensity=intensity, language="de", run_seed=3, conversation="c", turn=1)
        assert isinstance(heard, str)
    view = call([("Wie groß ist die Wohnung?", f"Sie hat {text}.", [tool("lookup", {}, {"area_m2": 80})])])
    assert agent_contradicts_tools(view).outcome in ("pass", "fail", "n/a")


def test_the_decimal_digits_of_other_scripts_still_read() -> None:
    assert [v for v, _, _ in spoken_numbers("٣٣ days, 2² and 80 m²")] == [Decimal(33), Decimal(2), Decimal(80)]
