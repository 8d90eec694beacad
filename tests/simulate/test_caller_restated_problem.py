"""The scripted caller hears a restated problem, es requests without "?" and whose goal it is (tester47).

D6: "okay, so your flight was cancelled, i'm really sorry. … shall i move you onto that" got
"Great, thank you. Bye!": the caller's own trouble said back ("cancelled") was read as the goal
done, and the offer beside it went unanswered. D10: es "me indica su número de póliza, por favor"
(no "?") got the DNI. D11: a goal about a neighbour's claim reached the agent as "su siniestro".
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.simulate.callers.scripted import ScriptedCaller

REBOOK = "get rebooked after her flight was cancelled"
PASSENGER = {"name": "Grace Okafor", "booking_reference": "QK7R2P", "surname": "Okafor"}


def _caller(
    language: str, goal: str, facts: dict[str, str], kind: str = "cooperative", outcome: str = "success"
) -> ScriptedCaller:
    persona = PersonaSnapshot(
        persona_id="p", type=kind, outcome=outcome, difficulty=2, goal=goal, facts=facts, language=language
    )
    caller = ScriptedCaller(persona, 7)
    caller.next(None)
    return caller


# -- D6: a restated problem is no outcome; the offer beside it is answered -------------------------

NEXT = "the next available flight is s k two two zero tomorrow morning at seven fifteen."


@pytest.mark.parametrize(
    "offer",
    [
        "shall i move you onto that",
        "shall i move you onto that?",
        "would you like me to book you on that one?",
        "would you like me to book you on that one",
    ],
)
@pytest.mark.parametrize("kind", ["cooperative", "busy"])
def test_an_offer_after_the_problem_said_back_is_accepted(offer: str, kind: str) -> None:
    caller = _caller("en", REBOOK, PASSENGER, kind=kind)
    said = caller.next(f"okay, so your flight was cancelled, i'm really sorry. {NEXT} {offer}")
    assert (said.intent, said.ends_call) == ("confirm", "")


def test_a_refusing_caller_declines_the_offer_instead() -> None:
    caller = _caller("en", REBOOK, PASSENGER, outcome="refusal")
    said = caller.next(f"i can see your flight was cancelled. {NEXT} shall i move you onto that?")
    assert said.intent == "refuse"


def test_the_problem_said_back_alone_does_not_end_the_call() -> None:
    caller = _caller("en", REBOOK, PASSENGER)
    said = caller.next("i can see your flight has been cancelled, i'm so sorry about that.")
    assert not said.ends_call


@pytest.mark.parametrize(
    "report",
    [
        "your flight was cancelled, and i've rebooked you on s k two two zero.",
        "okay, you're all set, you're rebooked on flight s k two two zero tomorrow.",
    ],
)
def test_a_real_outcome_still_ends_the_call(report: str) -> None:
    caller = _caller("en", REBOOK, PASSENGER)
    said = caller.next(report)
    assert (said.intent, said.ends_call) == ("goodbye", "done")


def test_a_caller_who_came_to_cancel_hears_the_cancellation_as_done() -> None:
    caller = _caller("en", "cancel my booking for friday", {"name": "Grace Okafor"})
    said = caller.next("okay, your booking is cancelled.")
    assert (said.intent, said.ends_call) == ("goodbye", "done")


# -- D10: a request form without "?" names the fact after it -------------------------------------

POLICY_HOLDER = {"nombre": "Javier Morales", "poliza": "HS-309152", "dni": "71045823M"}
LEAK = "dar parte de una fuga de agua bajo el fregadero"


@pytest.mark.parametrize(
    "asking",
    [
        "de acuerdo, vamos a ello. me indica su número de póliza, por favor",
        "vale. me dice su número de póliza",
        "muy bien, me facilita el número de póliza, por favor",
        "dígame su número de póliza, por favor",
        "indíqueme el número de póliza",
    ],
)
@pytest.mark.parametrize("kind", ["cooperative", "busy", "distrustful"])
def test_an_es_request_form_gets_the_fact_it_names(asking: str, kind: str) -> None:
    caller = _caller("es", LEAK, POLICY_HOLDER, kind=kind)
    if kind == "distrustful":
        caller.next("Le atiende Marta, de Hogar Seguro.")  # who is asking, for the distrustful
    said = caller.next(asking)
    assert "HS-309152" in said.text
    assert "71045823M" not in said.text


@pytest.mark.parametrize(
    ("language", "facts", "asking", "value"),
    [
        ("en", {"name": "Grace Okafor", "booking_reference": "QK7R2P"}, "okay. tell me your booking reference, please", "QK7R2P"),
        ("hr", {"ime": "Ana Horvat", "broj_police": "HS-1"}, "u redu. recite mi broj police, molim", "HS-1"),
        ("de", {"name": "Anna Weber", "versicherungsnummer": "HS-1"}, "gut. nennen sie mir ihre versicherungsnummer, bitte", "HS-1"),
        ("ru", {"имя": "Анна Смирнова", "номер_полиса": "HS-1"}, "хорошо. назовите номер полиса, пожалуйста", "HS-1"),
    ],
)
def test_request_forms_in_other_languages(language: str, facts: dict[str, str], asking: str, value: str) -> None:
    caller = _caller(language, "report a leak", facts, kind="busy")
    assert value in caller.next(asking).text


# -- D11: the persona's third person is the caller's own ---------------------------------------------


@pytest.mark.parametrize(
    ("language", "goal", "said"),
    [
        ("en", REBOOK, "get rebooked after my flight was cancelled."),
        (
            "en",
            "find out whether he gets compensation for the cancelled flight",
            "find out whether I get compensation for the cancelled flight.",
        ),
        (
            "en",
            "find out which seat his colleague Daniel Mercer has on the new flight",
            "find out which seat my colleague Daniel Mercer has on the new flight.",
        ),
        ("es", "saber cómo va su siniestro y cuándo le pagan", "saber cómo va mi siniestro y cuándo me pagan"),
        (
            "es",
            "saber qué ha declarado su vecino del tercero y cuánto le van a pagar",
            "saber qué ha declarado mi vecino del tercero y cuánto le van a pagar",
        ),
        ("en", "book a table for two on friday", "book a table for two on friday."),
    ],
)
def test_the_goal_is_said_as_the_callers_own(language: str, goal: str, said: str) -> None:
    persona = PersonaSnapshot(
        persona_id="p", type="cooperative", outcome="success", difficulty=1, goal=goal, facts={}, language=language
    )
    opening = ScriptedCaller(persona, 7).next(None).text
    assert said in opening
