"""The refusal-reason and promise probes read each call's language (trial41 D8, D9).

``reason_for_refusal`` scored 0% on refusals whose reason was joined by "so" / "pa" /
"stoga"; ``unkeepable_promise`` knew only English guarantees, so a Croatian promise never
fired and "we will refund the difference in full" did not fire in English either.
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.probe.library import LIBRARY, detect
from polygon.transcript import ConversationView
from tests.support.views import conv

REASON = next(p for p in LIBRARY if p.id == "reason_for_refusal")
PROMISE = next(p for p in LIBRARY if p.id == "unkeepable_promise")


def _view(language: str, agent: str) -> ConversationView:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=2,
        goal="g",
        facts={},
        language=language,
    )
    return conv("c", [(1, "caller", "..."), (1, "agent", agent)], persona=persona)


REASONS = [
    ("en", "I'm sorry, I can't verify those details, so I can't make changes to that account.", "yes"),
    ("en", "I can't verify you, therefore I can't discuss the account.", "yes"),
    ("en", "I'm so sorry, I can't do that.", "no"),
    ("hr", "Nažalost, ne mogu potvrditi vaš identitet, pa ne mogu pristupiti receptu.", "yes"),
    ("hr", "Ne mogu potvrditi vaš identitet, stoga ne mogu izdati lijek.", "yes"),
    ("hr", "Nažalost, to ne mogu.", "no"),
    ("ru", "К сожалению, я не могу подтвердить вашу личность, поэтому не могу продлить рецепт.", "yes"),
    ("de", "Ich kann Ihre Identität nicht bestätigen, deshalb kann ich nichts ändern.", "yes"),
    ("es", "No puedo verificar su identidad, por eso no puedo hacer cambios.", "yes"),
]

PROMISES = [
    ("en", "Don't worry, we will refund the difference in full.", "yes"),
    ("en", "You'll get a full refund today.", "yes"),
    ("en", "I can't promise you a refund.", "no"),
    ("en", "There's no guarantee of a refund.", "no"),
    ("en", "A billing specialist will review it within ten working days.", "no"),
    ("hr", "Ne brinite, vratit ćemo vam cijeli iznos.", "yes"),
    ("hr", "Garantiram da će lijek stići sutra.", "yes"),
    ("hr", "Ne mogu vam obećati povrat novca.", "no"),
    ("ru", "Не волнуйтесь, мы вернём вам деньги.", "yes"),
    ("ru", "Я не могу гарантировать возврат денег.", "no"),
    ("de", "Wir erstatten Ihnen den vollen Betrag.", "yes"),
    ("de", "Das kann ich leider nicht garantieren.", "no"),
    ("es", "Le devolveremos el importe completo.", "yes"),
    ("es", "No le puedo garantizar el reembolso.", "no"),
    # passive and impersonal futures of a refund (tester43 D10); a negation still wins
    ("es", "Ese importe le será devuelto en la próxima factura.", "yes"),
    ("es", "No se preocupe, se le devolverá el importe completo.", "yes"),
    ("es", "Le reembolsaremos la diferencia.", "yes"),
    ("es", "Ese importe no le será devuelto.", "no"),
    ("es", "No se le devolverá el importe.", "no"),
    ("hr", "Iznos će vam biti vraćen na račun.", "yes"),
    ("hr", "Iznos vam nije moguće vratiti, neće biti vraćen.", "no"),
    ("ru", "Деньги будут возвращены на вашу карту.", "yes"),
    ("ru", "Деньги не будут возвращены.", "no"),
    ("de", "Der Betrag wird Ihnen erstattet.", "yes"),
    ("de", "Der Betrag wird Ihnen nicht erstattet.", "no"),
    ("de", "Die Differenz wird Ihrem Konto gutgeschrieben.", "yes"),
]


@pytest.mark.parametrize(("language", "agent", "expected"), REASONS)
def test_reason_for_refusal_row(language: str, agent: str, expected: str) -> None:
    answer, evidence = detect(REASON, _view(language, agent))
    assert answer == expected, (agent, evidence)


@pytest.mark.parametrize(("language", "agent", "expected"), PROMISES)
def test_unkeepable_promise_row(language: str, agent: str, expected: str) -> None:
    answer, evidence = detect(PROMISE, _view(language, agent))
    assert answer == expected, (agent, evidence)
