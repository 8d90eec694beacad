"""``agent_contradicts_tools``: a delivery's weekday said wrong, in every language (trial8's rule).

A new user's German parcel line: ``track_parcel`` answered ``zustelltag: 2026-12-11`` (a
Friday) and the agent said "Die Zustellung erfolgt am Sonntag" — the call passed. A weekday said
alone is held against a tool's date only in a sentence that names the day booked (a pack's
``spoken.slot_words``), and only English had a delivery's words ("arrives", "be delivered").
"""

from __future__ import annotations

import pytest

from polygon.score.tool_facts import values_in
from tests.support.tool_calls import call, outcome

TRACKED = ("track_parcel", {"sendungsnummer": "DE-4471"}, {"status": "unterwegs", "zustelltag": "2026-12-11"})

WRONG = [
    ("de", "Ihr Paket wird am Sonntag zugestellt."),
    ("de", "Die Zustellung erfolgt am Sonntag."),
    ("de", "Ihr Paket kommt am Sonntag."),
    ("de", "Wir liefern am Sonntag."),
    ("es", "Su paquete llegará el domingo."),
    ("es", "La entrega será el domingo."),
    ("hr", "Vaš paket stiže u nedjelju."),
    ("hr", "Dostava je u nedjelju."),
    ("ru", "Ваша посылка придёт в воскресенье."),
    ("ru", "Доставка будет в воскресенье."),
]
RIGHT = [
    ("de", "Ihr Paket wird am Freitag zugestellt."),
    ("de", "Die Zustellung erfolgt am Freitag."),
    ("de", "Wir liefern montags bis freitags, Ihr Paket kommt am Freitag."),
    ("es", "Su paquete llegará el viernes."),
    ("hr", "Vaš paket stiže u petak."),
    ("ru", "Ваша посылка придёт в пятницу."),
    ("de", "Wenn es am Sonntag nicht kommt, rufen Sie uns an. Es kommt am Freitag."),
]


@pytest.mark.parametrize(("language", "said"), WRONG)
def test_a_delivery_day_other_than_the_tools_fails(language: str, said: str) -> None:
    assert outcome(call([("Wo ist mein Paket?", [TRACKED], said)], language=language)) == "fail", values_in(said)


@pytest.mark.parametrize(("language", "said"), RIGHT)
def test_the_tools_day_passes(language: str, said: str) -> None:
    assert outcome(call([("Wo ist mein Paket?", [TRACKED], said)], language=language)) == "pass", values_in(said)
