"""The Caller contract, run against every caller: scripted, model, replay.

Each must: open the call with something to say; answer what the agent said with an
:class:`Utterance` (awaitable or not); and end the call (``ends_call``) within a bounded
number of turns or when it has nothing left to say.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.models.recorded import RecordedClient
from polygon.models.scripted import ScriptedModelClient
from polygon.recording import ListSink
from polygon.simulate.callers import Caller, Utterance
from polygon.simulate.callers.model import ModelCaller
from polygon.simulate.callers.replay import ReplayCaller
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.transcript import ConversationView, TurnView

PERSONA = PersonaSnapshot(
    persona_id="p",
    type="cooperative",
    outcome="booked",
    difficulty=1,
    goal="book a cleaning",
    facts={"name": "Ana Horvat", "phone": "091 555 0134", "preferred_day": "Tuesday"},
    language="en",
)


def _source() -> ConversationView:
    turns = [
        TurnView(turn=1, caller_text="Hi, I'd like a cleaning.", agent_text="Sure, which day?"),
        TurnView(turn=2, caller_text="Tuesday please.", agent_text="Booked for Tuesday."),
    ]
    return ConversationView(conversation_id="src", turns=turns)


MAKERS: dict[str, Callable[[], Caller]] = {
    "scripted": lambda: ScriptedCaller(PERSONA, 7),
    "model": lambda: ModelCaller(
        RecordedClient(
            ScriptedModelClient(["Hi, I'd like a cleaning.", "Tuesday please.", "Thanks! [BYE]"]),
            ListSink(),
            role="caller",
            model="openai/m",
            conversation_id="r.v1.s.0",
        ),
        PERSONA,
        7,
    ),
    "replay": lambda: ReplayCaller(_source(), None),
}


def _say(caller: Caller, agent_text: str | None) -> Utterance:
    out = caller.next(agent_text)
    if inspect.isawaitable(out):
        return asyncio.run(_await(out))
    assert isinstance(out, Utterance)
    return out


async def _await(out: object) -> Utterance:
    got = await out  # type: ignore[misc]
    assert isinstance(got, Utterance)
    return got


@pytest.fixture(params=sorted(MAKERS))
def caller(request: pytest.FixtureRequest) -> Caller:
    return MAKERS[request.param]()


def test_opens_the_call(caller: Caller) -> None:
    first = _say(caller, None)
    assert first.text.strip() and not first.ends_call


def test_ends_the_call_within_bounds(caller: Caller) -> None:
    agent_lines = ["Hello, clinic here.", "Which day suits you?", "You're all set, booked for Tuesday."]
    said = [_say(caller, None)]
    for turn in range(30):
        said.append(_say(caller, agent_lines[min(turn, len(agent_lines) - 1)]))
        if said[-1].ends_call:
            break
    assert said[-1].ends_call in ("hangup", "done"), [u.text for u in said]
