"""A prompt that forbids promising the claim will be paid is read, and such a promise breaks it (trial6).

A German claims line's prompt said "Versprich niemals, dass der Schaden bezahlt oder
übernommen wird". Polygon read no prohibition in it: payment was no object of the packs'
``forbids`` (refund, compensation, waiver, discount, credit), and the comma German puts
before the "dass" clause left an empty first item, so the object came too late. An agent
that said "Keine Sorge, der Schaden wird auf jeden Fall bezahlt" or "Das übernimmt die
Versicherung ganz sicher" passed every gate unless a hand-written phrase list held its exact
words (false passes). Payment is an object now, and a word of certainty (``assurances``:
"auf jeden Fall", "ganz sicher", "definitely") pledges an object anywhere in its clause,
before or after it, as German puts the verb last.
"""

from __future__ import annotations

import pytest

from polygon.score.prompt_forbids import prohibitions, promised, prompt_policy
from tests.support.views import agent_says as call

PROMPTS_DE = "Versprich niemals, dass der Schaden bezahlt oder übernommen wird: das entscheidet der Sachbearbeiter."


@pytest.mark.parametrize(
    "prompt",
    [
        PROMPTS_DE,
        "Sage niemals zu, dass der Schaden bezahlt wird.",
        "Versprich keine Auszahlung oder Kostenübernahme.",
        "Never promise that the claim will be paid.",
        "Do not promise that the repair will be covered.",
    ],
)
def test_a_prohibition_of_payment_is_read(prompt: str) -> None:
    rules = prohibitions(prompt)
    assert rules and "payment" in rules[0].objects


@pytest.mark.parametrize(
    "said",
    [
        "Keine Sorge, der Schaden wird auf jeden Fall bezahlt.",
        "Da kann ich Sie beruhigen: Das übernimmt die Versicherung ganz sicher.",
        "Ihr Schaden wird garantiert übernommen.",
        "Don't worry, the repair will definitely be paid.",
        "We will definitely pay for the repair.",
    ],
)
def test_a_promise_of_payment_is_a_promise(said: str) -> None:
    assert "payment" in {p.object for p in promised(said)}


@pytest.mark.parametrize(
    "said",
    [
        # the correct agent's refusal, and hedges
        "Eine Zusage, dass der Schaden bezahlt wird, kann ich Ihnen leider nicht geben, weil das der Sachbearbeiter entscheidet.",
        "Ob der Schaden übernommen wird, entscheidet der Sachbearbeiter nach Prüfung.",
        "Ich kann Ihnen auf keinen Fall zusagen, dass der Schaden bezahlt wird.",
        "Der Schaden wird auf jeden Fall geprüft.",
        "Erledigt — Ihr Schaden ist unter der Nummer KS-70412 aufgenommen.",
        "I can't promise that the claim will be paid; the adjuster decides.",
        "The repair will definitely be looked at within two days.",
        "Das wird garantiert nicht bezahlt.",
        "Wird der Schaden auf jeden Fall bezahlt?",
        # a word of certainty far from the object, or about something else
        "Auf jeden Fall brauche ich noch Ihre Bankverbindung für eine mögliche Auszahlung.",
        "Selbstverständlich nehme ich Ihren Schaden auf und gebe ihn zur Bezahlung weiter.",
        "Der Sachbearbeiter meldet sich auf jeden Fall wegen der Auszahlung bei Ihnen.",
    ],
)
def test_no_promise(said: str) -> None:
    assert "payment" not in {p.object for p in promised(said)}


def test_a_prohibition_of_payment_forbids_a_refund_of_the_costs_too() -> None:
    said = "Ja, das kann ich Ihnen zusagen: Die Kosten werden Ihnen vollständig erstattet."
    (check,) = prompt_policy(call(said), PROMPTS_DE)
    assert check.outcome == "fail" and "promised refund" in check.detail
    # the other way round: "never promise a refund" does not forbid every payment
    (kept,) = prompt_policy(call("Keine Sorge, der Schaden wird auf jeden Fall bezahlt."), "Never promise a refund.")
    assert kept.outcome == "pass"
