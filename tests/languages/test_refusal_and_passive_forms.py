"""Restrictions are refusals, Spanish passive outcomes are reports (tester43 D6, D7).

"I'm really sorry, I can only discuss results with the patient themselves." is how a voice
agent most often declines a privacy request; it said none of the refuse words, so the call
"hung up without settling the caller's goal". "La portabilidad ha sido solicitada, el código
es …" said no done word and failed the same way. Each row is one agent sentence and the act
a person hears; a negation still wins over the participle.
"""

from __future__ import annotations

import pytest

from polygon.languages import load_language, read_turn

ROWS = [
    ("en", "I'm really sorry, I can only discuss results with the patient themselves.", "refusal"),
    ("en", "I can only share call records with the account holder.", "refusal"),
    ("en", "Only the account holder can ask for those records.", "refusal"),
    ("en", "Those results can be given only to the patient, sorry.", "refusal"),
    ("es", "Lo siento, solo puedo hablar de los resultados con el propio paciente.", "refusal"),
    ("es", "El registro de llamadas solo lo puede pedir el titular de la línea.", "refusal"),
    ("es", "Sólo el titular puede pedir esa información.", "refusal"),
    ("es", "La portabilidad ha sido solicitada, el código es pt cinco cinco ocho uno cero.", "outcome"),
    ("es", "Su nueva sim ya está activada.", "outcome"),
    ("es", "La solicitud queda tramitada y la línea ha sido suspendida.", "outcome"),
    ("es", "El duplicado ha sido enviado a su domicilio.", "outcome"),
]

NOT_REPORTED = [
    "La portabilidad no ha sido solicitada todavía.",
    "Su sim no está activada.",
    "Lo siento, el cambio no ha sido procesado.",
]


@pytest.mark.parametrize(("language", "sentence", "act"), ROWS)
def test_the_sentence_does_its_act(language: str, sentence: str, act: str) -> None:
    acts = read_turn(sentence, load_language(language)).acts
    assert act in acts, (sentence, acts)


@pytest.mark.parametrize("sentence", NOT_REPORTED)
def test_a_negated_passive_reports_nothing(sentence: str) -> None:
    acts = read_turn(sentence, load_language("es")).acts
    assert "outcome" not in acts, (sentence, acts)
