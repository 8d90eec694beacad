"""German says "couldn't do it" around the thing not done: the honest failure is a refusal.

"Ich konnte den Termin nicht buchen" puts the object between the modal and "nicht" and the
verb last, so no ``refuse`` phrase ("konnte nicht", "konnte ich nicht") holds it and no done
word is negated: the agent that failed, said so and hung up was read as saying filler. The
pack's ``acts.modal_failure`` reads the split; "nicht nur …, sondern", a negation in a joined
clause about something else, a wait ("noch nicht") and someone else's modal ("Sie können")
stay what they were, and a done word leading its clause still reports.
"""

from __future__ import annotations

import pytest

from polygon.events.families import ConversationEnded, ConversationStarted, PersonaSnapshot, TurnSpoken
from polygon.languages import load_language, read_turn
from polygon.score.hangup import unsettled_hangup
from polygon.transcript import ConversationView, build
from tests.support.views import env

SPLIT_FAILURES = [
    "Ich konnte den Termin nicht buchen.",
    "Wir konnten Ihre Reklamation heute nicht erfassen.",
    "Den Termin konnte ich nicht verschieben.",
    "Ich kann Ihnen keinen Termin am Freitag anbieten.",
    "Wir können die Karte nicht sperren lassen.",
    "Ich konnte den Termin nicht ändern.",
]

NOT_FAILURES = [
    "Ich kann Ihnen nicht nur den Termin buchen, sondern auch die Karte sperren.",
    "Ich kann den Termin buchen und Sie müssen nicht warten.",
    "Ich kann den Termin buchen, damit Sie nicht warten müssen.",
    "Ich kann das für Sie buchen dann müssen Sie nicht warten.",
    "Wir können Ihnen gerne helfen, das ist kein Problem.",
    "Sie können den Termin nicht online buchen.",
    "Ich kann nichts dafür.",
]


@pytest.mark.parametrize("said", SPLIT_FAILURES)
def test_a_split_modal_failure_is_a_refusal(said: str) -> None:
    assert read_turn(said, load_language("de")).acts == {"refusal"}, said


@pytest.mark.parametrize("said", NOT_FAILURES)
def test_a_negation_about_something_else_is_no_refusal(said: str) -> None:
    assert "refusal" not in read_turn(said, load_language("de")).acts, said


def test_a_split_failure_that_waits_is_no_refusal() -> None:
    acts = read_turn("Ich konnte den Termin noch nicht buchen.", load_language("de")).acts
    assert not acts & {"outcome", "refusal"}


def test_a_done_word_leading_its_clause_still_reports() -> None:
    said = "Der Termin ist gebucht, ich kann Ihnen keine Bestätigung schicken."
    assert read_turn(said, load_language("de")).acts == {"outcome"}


def test_only_german_splits_the_modal() -> None:
    # other packs say the failure in one piece ("couldn't book", "nisam mogao"): no pattern
    assert load_language("de").acts.modal_failure
    for code in ("en", "hr", "ru", "es"):
        assert load_language(code).acts.modal_failure == ()


def _hung_up(said: str) -> ConversationView:
    persona = PersonaSnapshot(
        persona_id="p",
        type="cooperative",
        outcome="success",
        difficulty=1,
        goal="einen Termin buchen",
        facts={"name": "Anna Kohl"},
        language="de",
    )
    events = [
        ConversationStarted(
            run_id="r", conversation_id="x", config="c", scenario="s", trial=0, seed=1, persona=persona
        ),
        TurnSpoken(conversation_id="x", turn=1, speaker="caller", text="Guten Tag."),
        TurnSpoken(conversation_id="x", turn=1, speaker="agent", text=said),
        ConversationEnded(conversation_id="x", reason="hangup", by="agent", turns=1),
    ]
    return build("x", [env(i + 1, e) for i, e in enumerate(events)])


@pytest.mark.parametrize(
    ("said", "settled"),
    [
        ("Ich konnte den Termin nicht buchen.", True),
        ("Ich kann den Termin buchen und Sie müssen nicht warten.", False),
    ],
)
def test_an_agent_that_says_it_could_not_and_hangs_up_settled_the_call(said: str, settled: bool) -> None:
    view = _hung_up(said)
    assert view.started is not None and view.started.persona is not None
    assert (unsettled_hangup(view, view.started.persona) == "") is settled
