"""The callback caller does not thank an agent that refuses to call back (new-user trial).

Before, "We will not call you back" held "call you back": the caller said "Perfect, I'll wait
for the call" and ended the call content, as with an agent that promised one.
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.languages import caller_language
from polygon.simulate.callers.scripted import ScriptedCaller

ROWS = [
    ("en", "We will not call you back.", "I'll have someone call you back."),
    ("hr", "Nažalost, nećemo vas nazvati.", "Kolega će vas nazvati."),
    ("de", "Wir rufen Sie nicht zurück.", "Wir rufen Sie zurück."),
    ("es", "No le devolveremos la llamada.", "Le devolveremos la llamada."),
    ("ru", "Мы не перезвоним.", "Мы вам перезвоним."),
]


def _caller(language: str) -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="callback",
        difficulty=2,
        goal="ask about my bill",
        facts={"name": "Ana Kovač"},
        language=language,
    )
    caller = ScriptedCaller(persona, 7)
    caller.next(None)
    return caller


@pytest.mark.parametrize(("language", "negated", "promised"), ROWS)
def test_caller_waits_only_for_a_promised_callback(language: str, negated: str, promised: str) -> None:
    done = caller_language(language).say.callback_done
    refused = _caller(language).next(negated)
    assert refused.text != done and refused.ends_call != "done", refused
    kept = _caller(language).next(promised)
    assert kept.text == done and kept.ends_call == "done", kept
