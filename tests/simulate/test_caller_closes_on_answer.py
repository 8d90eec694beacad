"""The scripted caller who only asked closes once it got its answer (trial42 D4, D5).

After "Ihr Schaden SN-40117 ist in Prüfung …" (a German goal's verb comes last: "den Stand
seines Schadens erfahren") or "… contact your embassy or consulate" the caller said "Mein
Name ist Stefan Müller." / "My name is Kenji Tanaka." instead of thanking, so the agent's
goodbye ended the call. A stative German outcome ("ist hinterlegt") was no outcome at all.
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.languages import caller_language
from polygon.languages.acts import read_turn
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.callers.understanding import settled

STATUS = "den Stand seines Schadens SN-40117 erfahren"
PASSPORT = "find out what to do after losing the passport during the stay"


def _caller(goal: str, facts: dict[str, str], language: str) -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p",
        type="busy",
        outcome="success",
        difficulty=1,
        goal=goal,
        facts=facts,
        language=language,
    )
    return ScriptedCaller(persona, 7)


@pytest.mark.parametrize(
    ("goal", "language", "asks"),
    [
        (STATUS, "de", True),  # the verb ends a German goal
        ("wissen, wann der Gutachter kommt", "de", True),
        ("die Bankverbindung ändern", "de", False),
        (PASSPORT, "en", True),
        ("change the booking so I can see the show", "en", False),
    ],
)
def test_a_goal_asks_only_when_its_verb_leads_or_ends_it(goal: str, language: str, asks: bool) -> None:
    assert caller_language(language).understand.asks_only(goal) is asks


def test_a_status_answer_in_german_ends_the_call_with_thanks() -> None:
    caller = _caller(STATUS, {"name": "Stefan Müller", "schadennummer": "SN-40117"}, "de")
    caller.next(None)
    out = caller.next("Ihr Schaden SN-40117 ist in Prüfung, der Gutachtertermin ist am Dienstag 14:00.")
    assert out.intent == "goodbye" and out.ends_call == "done", out


def test_advice_answers_what_to_do_but_a_request_for_a_fact_does_not() -> None:
    en = caller_language("en")
    facts = {"name": "Kenji Tanaka", "booking_ref": "BK-20418"}
    advice = (
        "I'm sorry to hear that. Please report the loss to the local police and contact your "
        "embassy or consulate for an emergency travel document."
    )
    assert settled(read_turn(advice, en), PASSPORT, facts, en)
    assert settled(read_turn("You'll want to file a police report first.", en), PASSPORT, facts, en)
    assert not settled(read_turn("You should give me your booking reference first.", en), PASSPORT, facts, en)
    assert not settled(read_turn("I'm sorry to hear that. Let me see.", en), PASSPORT, facts, en)
    # advice answers only a caller who asked: one who wants a change is not done by it
    assert not settled(read_turn(advice, en), "move the check-in to August 22", facts, en)
    caller = _caller(PASSPORT, facts, "en")
    caller.next(None)
    assert caller.next(advice).ends_call == "done"


@pytest.mark.parametrize(
    "said",
    [
        "Ihre neue Bankverbindung ist hinterlegt.",
        "Ihre Bankverbindung wurde geändert.",
        "Your address is updated.",
    ],
)
def test_a_stative_outcome_is_an_outcome(said: str) -> None:
    pack = caller_language("de" if "Ihre" in said else "en")
    assert "outcome" in read_turn(said, pack).acts
    negated = said.replace("ist hinterlegt", "ist nicht hinterlegt").replace("wurde", "wurde nicht")
    negated = negated.replace("is updated", "is not updated")
    assert "outcome" not in read_turn(negated, pack).acts
