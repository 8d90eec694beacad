"""A Croatian payment reported done, a colleague's callback and a plate asked for in other words (trial7).

A correct parking-office agent said "Plaćanje je uspjelo, kazna od 60,00 eura je plaćena." and
"Kolega iz naplate nazvat će vas sutra." — the scripted caller heard neither an outcome nor a
callback, restated its goal, and the agent failed on a loop. It asked for the "registracijsku
oznaku vozila" and the caller, holding `tablica`, answered "Oprostite, to nemam."
"""

from __future__ import annotations

import pytest

from polygon.languages import caller_language, load_language, read_turn
from polygon.simulate.callers.understanding import asked

ROWS = [
    ("Plaćanje je uspjelo, kazna od 60,00 eura je plaćena.", "outcome"),
    ("Uspjelo je, kazna je plaćena.", "outcome"),
    ("Platila sam kaznu, iznos je skinut s kartice.", "outcome"),
    ("Kolega iz naplate nazvat će vas sutra na broj 0912345678.", "callback"),
    ("Kolega će vas nazvati sutra.", "callback"),
]
NOT = [
    ("Plaćanje nije uspjelo.", "outcome"),
    ("Nažalost, plaćanje nije uspjelo, sustav ne radi.", "outcome"),
    ("Nisam platila kaznu.", "outcome"),
    ("Je li plaćanje uspjelo?", "outcome"),
    # a participle negated by its prefix says nothing was done: the caller took "your fine is
    # unpaid, shall I charge it?" for done and said goodbye (trial7 good_c)
    ("Vaša kazna od 60 € je neplaćena. Želite li je platiti karticom?", "outcome"),
    ("Kazna je neplaćena.", "outcome"),
    ("Zahtjev je još neriješen.", "outcome"),
]


@pytest.mark.parametrize(("sentence", "act"), ROWS)
def test_read_as(sentence: str, act: str) -> None:
    assert act in read_turn(sentence, load_language("hr")).acts


@pytest.mark.parametrize(("sentence", "act"), NOT)
def test_not_read_as(sentence: str, act: str) -> None:
    assert act not in read_turn(sentence, load_language("hr")).acts


FACTS = {"ime": "Željka Babić", "tablica": "ZG 7788-CD", "oib": "30456789012", "zona": "1"}


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("Recite mi registracijsku oznaku vozila, molim.", "tablica"),
        ("Koja je vaša registracijska tablica?", "tablica"),
        ("Za koju zonu trebate kartu: 1, 2 ili 3?", "zona"),  # zonu, the key's zona
        ("I vaš OIB, molim.", "oib"),
    ],
)
def test_the_caller_hears_what_is_asked(question: str, key: str) -> None:
    assert asked(question, FACTS, "dobiti povlaštenu parkirnu kartu", caller_language("hr"))[0] == key


def test_a_small_number_fact_opens_its_sentence_with_a_capital() -> None:
    """ "zona: 1." read as a transcript line starting in lower case; German says "Zone: 1." already."""
    from polygon.events.families import PersonaSnapshot
    from polygon.simulate.callers.scripted import ScriptedCaller

    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=1,
        goal="dobiti kartu",
        facts=FACTS,
        language="hr",
    )
    assert ScriptedCaller(persona, 1).phrase("zona", "1") == "Zona: 1."
