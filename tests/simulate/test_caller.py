"""Each caller type's behaviour shows in what it says; it never says a fact it lacks."""

from __future__ import annotations

import re

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.simulate.callers.scripted import ScriptedCaller

FACTS = {"name": "Ana Kovac", "phone": "091 555 0134", "preferred_day": "Wednesday"}


def persona(
    kind: str, outcome: str = "success", difficulty: int = 3, facts: dict | None = None
) -> PersonaSnapshot:
    return PersonaSnapshot(
        persona_id="p",
        type=kind,
        outcome=outcome,
        difficulty=difficulty,
        goal="book a cleaning",
        facts=FACTS if facts is None else facts,
    )


def talk(caller: ScriptedCaller, agent_lines: list[str]) -> list[str]:
    said = [caller.next(None).text]
    for line in agent_lines:
        out = caller.next(line)
        said.append(out.text)
        if out.ends_call:
            break
    return said


ASKING = [
    "May I have your name?",
    "What's your phone number?",
    "Which day do you prefer?",
    "And what is your date of birth?",
    "What's your insurance number?",
] * 3


def test_cooperative_states_goal_and_answers() -> None:
    said = talk(ScriptedCaller(persona("cooperative"), seed=1), ASKING[:3])
    assert "I'd like to book a cleaning" in said[0]
    assert said[1:4] == [
        "My name is Ana Kovac.",
        "My number is 091 555 0134.",
        "My preferred day is Wednesday.",
    ]


def test_busy_is_terse_and_hangs_up_when_dragged() -> None:
    caller = ScriptedCaller(persona("busy", difficulty=4), seed=2)
    said = talk(caller, ["What's your phone number?"] + ["Let me tell you about our offers."] * 12)
    assert "Quickly" in said[0]
    assert "091 555 0134." in said[1] and "My number" not in said[1]
    assert said[-1] == "I don't have time for this. Bye."
    assert len(said) < 10


def test_distrustful_refuses_data_until_reassured() -> None:
    caller = ScriptedCaller(persona("distrustful"), seed=3)
    assert "Who am I speaking with" in caller.next(None).text
    assert "Who is this" in caller.next("What's your phone number?").text
    caller.next("This is Smile Dental clinic, my name is Mia.")
    assert "091 555 0134" in caller.next("What's your phone number?").text


def test_confused_misunderstands_or_mixes_facts() -> None:
    texts = []
    for seed in range(20):
        texts += talk(ScriptedCaller(persona("confused", difficulty=5), seed=seed), ASKING[:3])
    assert any("what do you need" in t for t in texts)
    assert any("Wait, you asked" in t for t in texts)


@pytest.mark.parametrize(
    ("kind", "marker"),
    [
        ("aggressive", r"ridiculous|forever|ages|elsewhere|another clinic"),
        ("chatty", r"neighbour|raining|cat|old doctor"),
    ],
)
def test_type_flavour(kind: str, marker: str) -> None:
    texts = []
    for seed in range(10):
        texts += talk(ScriptedCaller(persona(kind, difficulty=4), seed=seed), ASKING[:4])
    assert any(re.search(marker, t) for t in texts)


@pytest.mark.parametrize(
    ("outcome", "agent_line", "expect"),
    [
        ("success", "Shall I book Wednesday 09:00?", "Yes, that works."),
        ("refusal", "Shall I book Wednesday 09:00?", "No, that doesn't work"),
        ("callback", "Shall I book Wednesday 09:00?", "call me back"),
        ("transfer", "Shall I book Wednesday 09:00?", "talk to a person"),
    ],
)
def test_pursues_intended_outcome(outcome: str, agent_line: str, expect: str) -> None:
    caller = ScriptedCaller(persona("cooperative", outcome=outcome), seed=4)
    caller.next(None)
    assert expect in caller.next(agent_line).text


def test_ends_the_call_like_a_person() -> None:
    caller = ScriptedCaller(persona("cooperative"), seed=5)
    caller.next(None)
    out = caller.next("You're booked for Wednesday 09:00. Anything else?")
    assert out.ends_call == "done" and "Bye" in out.text


@pytest.mark.parametrize("kind", ["cooperative", "busy", "distrustful", "confused", "aggressive", "chatty"])
def test_never_says_a_fact_it_does_not_have(kind: str) -> None:
    facts = {"name": "Ana Kovac"}  # no phone, no day
    for seed in range(15):
        caller = ScriptedCaller(persona(kind, facts=facts), seed=seed)
        said = " ".join(talk(caller, ["This is the clinic."] + ASKING))
        assert not re.search(r"\d{3}", said), said
        assert "Wednesday" not in said


def test_deterministic_per_seed() -> None:
    a = talk(ScriptedCaller(persona("chatty", difficulty=5), seed=9), ASKING)
    b = talk(ScriptedCaller(persona("chatty", difficulty=5), seed=9), ASKING)
    c = talk(ScriptedCaller(persona("chatty", difficulty=5), seed=10), ASKING)
    assert a == b and a != c
