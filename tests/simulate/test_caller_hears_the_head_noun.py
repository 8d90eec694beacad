"""The caller gives the fact a question asks for, not one named in a complement (tester43 D9).

"y el pin de cuatro cifras de su línea" asks for the PIN; "de su línea" only says whose PIN.
The Spanish caller answered with its line number every time (both keys scored alike, the tie
went alphabetically to `linea`), so a correct agent looped. A complement is a qualifier with
a determiner after the named thing ("of your", "de su", "Ihrer"); compounds such as "date of
birth" or "número de teléfono" are no complement.
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.languages import caller_language
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.callers.understanding import asked, asks_by_form

ES = {"name": "Javier Morales", "dni": "48213576K", "pin": "4821", "linea": "612345678"}
EN = {"name": "Alice Brown", "pin": "4821", "line": "07700900123", "account_no": "40311872"}
DE = {"name": "Anna Müller", "pin": "4821", "leitung": "015112345678"}


@pytest.mark.parametrize(
    ("code", "facts", "question", "key"),
    [
        ("es", ES, "gracias. y el pin de cuatro cifras de su línea", "pin"),
        ("es", ES, "¿Y el pin de cuatro cifras de su línea?", "pin"),
        ("es", ES, "¿Me dice el pin de su línea, por favor?", "pin"),
        ("es", ES, "¿Cuál es el número de su línea?", "linea"),  # the number asked is the line's
        ("es", ES, "¿Y su línea?", "linea"),
        ("es", ES, "y su pin, por favor", "pin"),
        ("en", EN, "And the PIN of your line, please?", "pin"),
        ("en", EN, "What's the four digit PIN on the account?", "pin"),
        ("en", EN, "And the line, please?", "line"),
        ("de", DE, "Und die PIN Ihrer Leitung, bitte?", "pin"),
        ("de", DE, "Wie lautet die PIN zu Ihrer Leitung?", "pin"),
        ("de", DE, "Und Ihre Leitung?", "leitung"),
    ],
)
def test_the_head_noun_is_the_fact_asked_for(
    code: str, facts: dict[str, str], question: str, key: str
) -> None:
    assert asked(question, facts, "reclamar un cargo", caller_language(code)) == (key, True)


def test_a_compound_with_of_is_no_complement() -> None:
    en = caller_language("en")
    facts = {"dob": "1975-04-12", "appointment_date": "2026-12-09"}
    assert asked("What's your date of birth?", facts, "book a visit", en)[0] == "dob"
    es = caller_language("es")
    facts_es = {"telefono": "612345678", "numero_cliente": "C-501"}
    assert asked("¿Cuál es su número de teléfono?", facts_es, "reclamar", es)[0] == "telefono"


def test_a_key_named_in_both_parts_is_not_demoted() -> None:
    es = caller_language("es")
    facts = {"pin": "4821", "pin_linea": "9911"}
    assert asked("¿Y el pin de su línea?", facts, "reclamar", es)[0] == "pin_linea"


def test_the_spanish_caller_answers_the_pin_and_the_call_goes_on() -> None:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=2,
        goal="reclamar un cargo de roaming de Marruecos que no reconoce",
        facts=ES,
        language="es",
    )
    caller = ScriptedCaller(persona, 7)
    caller.next(None)
    assert "48213576K" in caller.next("¿Me dice su DNI, por favor?").text
    for _ in range(3):  # the agent asks again: each time the PIN, never the line number
        said = caller.next("gracias. y el pin de cuatro cifras de su línea").text
        assert "4821" in said and "612345678" not in said, said


@pytest.mark.parametrize(
    ("code", "sentence", "asks"),
    [
        ("es", "y el pin de cuatro cifras de su línea", True),
        ("en", "and the four digit security pin of your mobile line", True),
        ("de", "und die vierstellige geheime PIN zu Ihrer neuen Leitung", True),
        ("es", "y el cargo de roaming de marruecos de su factura ya está anulado", False),  # a statement
        ("en", "and the four digit security pin is on its way to you", False),
    ],
)
def test_a_complement_does_not_make_an_ellipsis_too_long_to_ask(code: str, sentence: str, asks: bool) -> None:
    assert asks_by_form(sentence, caller_language(code)) is asks
