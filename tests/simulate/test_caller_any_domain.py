"""The scripted caller in domains it was never written for: it answers from its facts alone.

Each reproduction from the pizza-ordering session, plus an airline rebooking: the right
fact for each question, corrections of wrong read-backs, outcomes recognised without
booking words, and small talk that names no business.
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.simulate.callers.scripted import ScriptedCaller

PIZZA = {
    "name": "Ana Horvat",
    "address": "12 Elm Street",
    "request": "medium veggie",
    "preferred_time": "18:30",
}
FLIGHT = {"name": "Lea Maric", "booking_reference": "XK42LM", "new_day": "Friday", "phone": "091 777 1234"}


def caller(
    kind: str = "cooperative",
    outcome: str = "success",
    goal: str = "order a medium veggie pizza",
    facts: dict[str, str] | None = None,
    seed: int = 1,
    language: str = "en",
    difficulty: int = 2,
) -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p",
        type=kind,
        outcome=outcome,
        difficulty=difficulty,
        goal=goal,
        facts=PIZZA if facts is None else facts,
        language=language,
    )
    c = ScriptedCaller(persona, seed)
    c.next(None)
    return c


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the delivery address?", "12 Elm Street"),
        ("Which pizza would you like, and what size?", "medium veggie"),
        ("What time would you like it delivered?", "18:30"),
        ("When should we deliver?", "18:30"),
        ("Can I have your name for the order?", "Ana Horvat"),
    ],
)
def test_each_pizza_question_gets_the_fact_it_asks_for(question: str, answer: str) -> None:
    said = caller(kind="cooperative").next(question)
    assert said.intent == "give_fact" and answer in said.text, said


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What's your booking reference?", "XK42LM"),
        ("Which day would you like to fly instead?", "Friday"),
        ("What number can we reach you on?", "091 777 1234"),
    ],
)
def test_and_each_airline_question(question: str, answer: str) -> None:
    said = caller(goal="rebook my flight to Friday", facts=FLIGHT).next(question)
    assert answer in said.text, said


def test_a_question_about_something_it_lacks_is_not_answered_with_another_fact() -> None:
    said = caller().next("What's your email address?")
    assert said.intent == "no_fact" and "@" not in said.text
    for fact in PIZZA.values():
        assert fact not in said.text


def test_a_wrong_read_back_is_corrected_and_a_distrustful_caller_insists() -> None:
    c = caller(kind="cooperative")
    first = c.next("You're all set, confirmed for 18:00.")
    assert first.intent == "correct" and first.text == "No — 18:30, not 18:00."
    again = c.next("Okay, so 18:00 then?")
    assert again.intent == "correct" and "18:30" in again.text and "I said" in again.text
    wary = caller(kind="distrustful")
    assert "I said 18:30" in wary.next("Booked for 18:00.").text  # no benefit of the doubt


def test_a_confused_caller_may_give_in_and_says_so_in_its_intent() -> None:
    outcomes = set()
    for seed in range(12):
        c = caller(kind="confused", seed=seed)
        c.next("Confirmed for 18:00.")
        outcomes.add(c.next("Yes, 18:00, right?").intent)
    assert outcomes == {"correct", "accept_wrong"}  # both happen, and giving in is recorded


def test_the_right_read_back_ends_the_call_as_done() -> None:
    said = caller().next("You're all set: a medium veggie at 18:30 to 12 Elm Street.")
    assert said.ends_call == "done"


def test_an_order_status_caller_reaches_its_outcome_at_once() -> None:
    c = caller(kind="busy", goal="ask where my order is", facts={"name": "Ivo Kos", "order": "P-42"})
    said = c.next("Your order is out for delivery, it will be with you in ten minutes.")
    assert said.ends_call == "done", said


def test_an_offer_is_answered_as_an_offer_not_with_a_fact() -> None:
    said = caller().next("I can do a medium veggie at 18:30. Shall I place the order?")
    assert said.intent == "confirm"


@pytest.mark.parametrize("kind", ["cooperative", "busy", "distrustful", "confused", "aggressive", "chatty"])
def test_small_talk_names_no_business(kind: str) -> None:
    lines = []
    for seed in range(30):
        c = caller(kind=kind, seed=seed, difficulty=5)
        lines += [c.next(q).text for q in ("Hello!", "What size?", "Anything else?", "Okay.")]
    text = " ".join(lines).lower()
    for word in ("doctor", "dentist", "dental", "clinic", "tooth", "root canal", "painless"):
        assert word not in text, word


def test_small_talk_comes_in_the_persona_language() -> None:
    lines = []
    for seed in range(40):
        c = caller(kind="chatty", seed=seed, language="hr", difficulty=5)
        lines += [c.next(q).text for q in ("Hello!", "Anything else?", "Okay.")]
    text = " ".join(lines)
    assert any(w in text for w in ("kiša", "bučno", "laje", "trajati", "Košta", "obećati"))


@pytest.mark.parametrize(
    ("language", "facts", "question", "answer"),
    [
        (
            "en",
            {"booking_ref": "R-55190", "location": "M6 northbound at junction 14"},
            "Where exactly is the car now?",
            "M6 northbound",
        ),
        (
            "ru",
            {"код_бронирования": "KX7PQ2", "местоположение": "трасса М11, 120 км"},
            "Где сейчас находится машина?",
            "М11",
        ),
        (
            "hr",
            {"broj_rezervacije": "R-55190", "lokacija": "A1 kod izlaza Karlovac"},
            "Gdje se točno nalazi auto?",
            "Karlovac",
        ),
    ],
)
def test_where_asks_for_a_location_fact_not_only_an_address(
    language: str, facts: dict[str, str], question: str, answer: str
) -> None:
    """A roadside caller once said "Don't know. Next?" to "Where exactly is the car now?" while
    its facts held `location` (where → address only)."""
    said = caller(goal="get a tow truck", facts=facts, language=language).next(question)
    assert said.intent == "give_fact" and answer in said.text, said
