"""A negated callback is no callback, in every pack (new-user trial).

"We will not call you back", "Wir rufen Sie nicht zurück", "No le devolveremos la llamada",
"Мы не перезвоним" held a callback phrase and were read as the agent promising a callback:
the callback caller said "Perfect, I'll wait for the call" and hung up content with an agent
that had refused it. The plain promises must still read as callbacks, and so must a negation
that is not about the callback (its own clause, or "in no time" after it).
"""

from __future__ import annotations

import pytest

from polygon.languages import load_language, read_turn

NEGATED = [
    ("en", "We will not call you back."),
    ("en", "We won't call you back."),
    ("en", "Sorry, we can't call you back."),
    ("en", "We will never contact you about this."),
    ("en", "A callback is not possible today."),
    ("hr", "Nažalost, nećemo vas nazvati."),
    ("hr", "Kolega neće vas nazvati."),
    ("hr", "Kolega vas neće nazvati."),
    ("hr", "Povratni poziv nažalost nije moguć."),
    ("de", "Wir rufen Sie nicht zurück."),
    ("de", "Wir rufen Sie leider nicht an."),
    ("de", "Wir können Sie nicht zurückrufen."),
    ("de", "Ein Rückruf ist leider nicht möglich."),
    ("de", "Ein Kollege ruft Sie heute nicht mehr an."),
    ("es", "No le devolveremos la llamada."),
    ("es", "Lo siento, no le llamaremos."),
    ("ru", "Мы не перезвоним."),
    ("ru", "Мы вам не перезвоним."),
    ("ru", "Обратный звонок, к сожалению, невозможен."),
]

PROMISED = [
    ("en", "I'll have someone call you back."),
    ("en", "Don't worry, we will call you back."),
    ("en", "I can't book it now, but a colleague will call you back."),
    ("en", "Someone will call you back in no time."),
    # a negation about something else, earlier in the same clause
    ("en", "I can't book that online so someone from the clinic will call you back."),
    ("en", "There is no slot today so we will call you back tomorrow."),
    ("de", "Das kann ich leider nicht online buchen und ein Kollege ruft Sie zurück."),
    ("hr", "Kolega će vas nazvati."),
    ("hr", "Nažalost, termin nije slobodan, ali kolega će vas nazvati."),
    ("de", "Wir rufen Sie zurück."),
    ("de", "Wir rufen Sie morgen an."),
    ("de", "Keine Sorge, wir rufen Sie zurück."),
    ("de", "Wir rufen Sie zurück und Sie müssen nicht warten."),
    ("es", "Le devolveremos la llamada."),
    ("es", "No se preocupe, le llamaremos mañana."),
    ("ru", "Мы вам перезвоним."),
    ("ru", "Не волнуйтесь, мы вам перезвоним."),
]


@pytest.mark.parametrize(("language", "sentence"), NEGATED)
def test_negated_callback_is_no_callback(language: str, sentence: str) -> None:
    assert "callback" not in read_turn(sentence, load_language(language)).acts


@pytest.mark.parametrize(("language", "sentence"), PROMISED)
def test_promised_callback_still_reads(language: str, sentence: str) -> None:
    assert "callback" in read_turn(sentence, load_language(language)).acts
