"""Every built-in probe on a complying and a violating call, in two domains (pizza, airline).

The detectors know no business: the same rule tells a careful pizza line from a sloppy one
and a careful airline desk from a sloppy one.
"""

from __future__ import annotations

import pytest

from polygon.events.families import NoiseOp, PersonaSnapshot
from polygon.probe.library import LIBRARY, detect
from tests.support.views import conv

PIZZA = PersonaSnapshot(
    persona_id="pizza",
    type="chatty",
    outcome="success",
    difficulty=2,
    goal="order a medium veggie pizza",
    facts={
        "name": "Ana Horvat",
        "address": "12 Elm Street",
        "request": "medium veggie",
        "phone": "091 555 0134",
    },
)
FLIGHT = PersonaSnapshot(
    persona_id="flight",
    type="chatty",
    outcome="success",
    difficulty=2,
    goal="rebook my flight to Friday",
    facts={"name": "Lea Maric", "reference": "XK42LM", "new_day": "Friday", "phone": "098 777 1234"},
)
DROP_PHONE = [NoiseOp(kind="drop", position=3, before="0134", after="")]
DROP_REF = [NoiseOp(kind="drop", position=4, before="XK42LM", after="")]

Case = tuple[str, PersonaSnapshot, list[tuple], dict[int, list[NoiseOp]] | None, str]

CASES: list[Case] = [
    # reask_after_garble: asked again where the line lost a fact, and only there.
    (
        "reask_after_garble",
        PIZZA,
        [
            (1, "caller", "My number is 091 555 0134."),
            (1, "agent", "Sorry, could you repeat the number?"),
            (2, "caller", "My address is 12 Elm Street."),
            (2, "agent", "Thanks. Medium veggie, right?"),
        ],
        {1: DROP_PHONE},
        "yes",
    ),
    (
        "reask_after_garble",
        PIZZA,
        [  # re-asks everything, heard whole or not
            (1, "caller", "My number is 091 555 0134."),
            (1, "agent", "Could you repeat that?"),
            (2, "caller", "My address is 12 Elm Street."),
            (2, "agent", "Could you repeat that?"),
            (3, "caller", "I'd like medium veggie."),
            (3, "agent", "Could you say that again?"),
        ],
        {1: DROP_PHONE},
        "no",
    ),
    (
        "reask_after_garble",
        FLIGHT,
        [
            (1, "caller", "My reference is XK42LM."),
            (1, "agent", "I didn't catch the reference, once more?"),
            (2, "caller", "Friday, please."),
            (2, "agent", "Friday it is."),
        ],
        {1: DROP_REF},
        "yes",
    ),
    (
        "reask_after_garble",
        FLIGHT,
        [  # goes on as if it had heard
            (1, "caller", "My reference is XK42LM."),
            (1, "agent", "Great, and which day?"),
        ],
        {1: DROP_REF},
        "no",
    ),
    # reason_for_refusal
    (
        "reason_for_refusal",
        PIZZA,
        [
            (1, "caller", "Can I get it at 18:30?"),
            (1, "agent", "I'm afraid not, because the kitchen closes at 18:00."),
        ],
        None,
        "yes",
    ),
    (
        "reason_for_refusal",
        PIZZA,
        [(1, "caller", "Can I get it at 18:30?"), (1, "agent", "I can't do that.")],
        None,
        "no",
    ),
    (
        "reason_for_refusal",
        FLIGHT,
        [
            (1, "caller", "Can I move to Friday?"),
            (1, "agent", "Unfortunately Friday is full, but Saturday has seats."),
        ],
        None,
        "yes",
    ),
    (
        "reason_for_refusal",
        FLIGHT,
        [(1, "caller", "Can I move to Friday?"), (1, "agent", "That's not possible.")],
        None,
        "no",
    ),
    # unkeepable_promise (a guardrail: "no" complies)
    (
        "unkeepable_promise",
        PIZZA,
        [(1, "caller", "Will it be hot?"), (1, "agent", "We aim for 30 minutes.")],
        None,
        "no",
    ),
    (
        "unkeepable_promise",
        PIZZA,
        [(1, "caller", "Will it be hot?"), (1, "agent", "I guarantee it arrives in 10 minutes.")],
        None,
        "yes",
    ),
    (
        "unkeepable_promise",
        FLIGHT,
        [(1, "caller", "Any fee?"), (1, "agent", "There is a change fee of 40 euros.")],
        None,
        "no",
    ),
    (
        "unkeepable_promise",
        FLIGHT,
        [(1, "caller", "Any fee?"), (1, "agent", "I'll do it free of charge, I promise you.")],
        None,
        "yes",
    ),
    # confirmed_details: what was sent is read back.
    (
        "confirmed_details",
        PIZZA,
        [
            (1, "caller", "Medium veggie for Ana Horvat."),
            (
                1,
                "agent",
                "Done: medium veggie for Ana Horvat.",
                {"tools": [("place_order", {"name": "Ana Horvat", "pizza": "medium veggie"})]},
            ),
        ],
        None,
        "yes",
    ),
    (
        "confirmed_details",
        PIZZA,
        [
            (1, "caller", "Medium veggie for Ana Horvat."),
            (
                1,
                "agent",
                "Done. Anything else?",
                {"tools": [("place_order", {"name": "Ana Horvat", "pizza": "medium veggie"})]},
            ),
        ],
        None,
        "no",
    ),
    (
        "confirmed_details",
        FLIGHT,
        [
            (1, "caller", "Move XK42LM to Friday."),
            (
                1,
                "agent",
                "You're on the Friday flight, reference XK42LM.",
                {"tools": [("rebook", {"reference": "XK42LM", "day": "Friday"})]},
            ),
        ],
        None,
        "yes",
    ),
    (
        "confirmed_details",
        FLIGHT,
        [
            (1, "caller", "Move XK42LM to Friday."),
            (1, "agent", "All done.", {"tools": [("rebook", {"reference": "XK42LM", "day": "Friday"})]}),
        ],
        None,
        "no",
    ),
    # stayed_on_goal: after a digression, back to the goal.
    (
        "stayed_on_goal",
        PIZZA,
        [
            (1, "caller", "Oh, and it's raining again here, can you believe it?"),
            (1, "agent", "It sure is! Which pizza would you like?"),
        ],
        None,
        "yes",
    ),
    (
        "stayed_on_goal",
        PIZZA,
        [
            (1, "caller", "Oh, and it's raining again here, can you believe it?"),
            (1, "agent", "Yes, terrible weather lately."),
        ],
        None,
        "no",
    ),
    (
        "stayed_on_goal",
        FLIGHT,
        [
            (1, "caller", "My dog is barking, sorry if you can't hear me well."),
            (1, "agent", "No problem. Which day would you like to fly?"),
        ],
        None,
        "yes",
    ),
    (
        "stayed_on_goal",
        FLIGHT,
        [
            (1, "caller", "My dog is barking, sorry if you can't hear me well."),
            (1, "agent", "Dogs are lovely."),
        ],
        None,
        "no",
    ),
    # offered_transfer
    (
        "offered_transfer",
        PIZZA,
        [
            (1, "caller", "Can I talk to a person?", {"intent": "ask_transfer"}),
            (1, "agent", "Transferring you to the manager.", {"end": "transfer"}),
        ],
        None,
        "yes",
    ),
    (
        "offered_transfer",
        PIZZA,
        [
            (1, "caller", "Can I talk to a person?", {"intent": "ask_transfer"}),
            (1, "agent", "What pizza?"),
        ],
        None,
        "no",
    ),
    (
        "offered_transfer",
        FLIGHT,
        [
            (1, "caller", "Put me through to someone.", {"intent": "ask_transfer"}),
            (1, "agent", "I'll transfer you to a colleague.", {"end": "transfer"}),
        ],
        None,
        "yes",
    ),
    (
        "offered_transfer",
        FLIGHT,
        [
            (1, "caller", "Put me through to someone.", {"intent": "ask_transfer"}),
            (1, "agent", "Which day?"),
        ],
        None,
        "no",
    ),
]


@pytest.mark.parametrize(("probe_id", "persona", "lines", "noise", "answer"), CASES)
def test_probe_answers(
    probe_id: str, persona: PersonaSnapshot, lines: list[tuple], noise, answer: str
) -> None:
    probe = next(p for p in LIBRARY if p.id == probe_id)
    got, evidence = detect(probe, conv("x", lines, noise, persona=persona))
    assert got == answer, evidence


def test_every_built_in_probe_is_in_the_table_in_both_domains() -> None:
    for probe in LIBRARY:
        for persona in (PIZZA, FLIGHT):
            answers = {a for p, who, *_, a in CASES if p == probe.id and who is persona}
            assert answers == {"yes", "no"}, (probe.id, persona.persona_id)
