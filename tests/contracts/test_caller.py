"""The Caller contract: scripted, model-driven, and replay (a logged call's caller turns).

Every caller opens the call with something to say; answers what the agent said with an
:class:`Utterance` (awaitable or not) whose ending is ``""``, ``hangup`` or ``done``; says
the same things given the same persona, seed and agent lines; and ends the call within a
bounded number of turns or when it has nothing left to say.
"""

from __future__ import annotations

import asyncio
import inspect
from abc import ABC, abstractmethod
from typing import Any

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.models import ModelAnswer, ModelClient
from polygon.models.recorded import RecordedClient
from polygon.models.scripted import ScriptedModelClient
from polygon.recording import ListSink, Sink
from polygon.simulate.callers import Caller, CallerError, Utterance
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
AGENT_LINES = ["Hello, clinic here.", "Which day suits you?", "You're all set, booked for Tuesday."]
ENDINGS = ("", "hangup", "done")


def say(caller: Caller, agent_text: str | None) -> Utterance:
    out = caller.next(agent_text)
    if inspect.isawaitable(out):
        return asyncio.run(_await(out))
    assert isinstance(out, Utterance)
    return out


async def _await(out: Any) -> Utterance:
    got = await out
    assert isinstance(got, Utterance)
    return got


def whole_call(caller: Caller, most: int = 30) -> list[Utterance]:
    """The caller's turns until it ends the call (or ``most`` answers)."""
    said = [say(caller, None)]
    for turn in range(most):
        if said[-1].ends_call:
            break
        said.append(say(caller, AGENT_LINES[min(turn, len(AGENT_LINES) - 1)]))
    return said


class CallerContract(ABC):
    @abstractmethod
    def make(self) -> Caller:
        """A fresh caller for :data:`PERSONA` with seed 7."""

    def test_opens_the_call(self) -> None:
        first = say(self.make(), None)
        assert first.text.strip() and first.intent and not first.ends_call

    def test_ends_the_call_within_bounds(self) -> None:
        said = whole_call(self.make())
        assert said[-1].ends_call in ("hangup", "done"), [u.text for u in said]
        assert all(not u.ends_call for u in said[:-1])

    def test_every_turn_is_something_said_with_a_known_ending(self) -> None:
        for utterance in whole_call(self.make()):
            assert utterance.text.strip() and utterance.ends_call in ENDINGS

    def test_the_same_caller_says_the_same_things(self) -> None:
        assert whole_call(self.make()) == whole_call(self.make())


class TestScriptedCaller(CallerContract):
    def make(self) -> Caller:
        return ScriptedCaller(PERSONA, 7)

    def test_gives_the_personas_facts_when_asked(self) -> None:
        caller = ScriptedCaller(PERSONA, 7)
        say(caller, None)
        said = say(caller, "Could I have your phone number please?")
        assert "091 555 0134" in said.text or "0134" in said.text.replace(" ", "")


def _recorded(client: ModelClient, sink: Sink) -> RecordedClient:
    return RecordedClient(client, sink, role="caller", model="openai/m", conversation_id="r.v1.s.0")


class TestModelCaller(CallerContract):
    def make(self) -> Caller:
        client = ScriptedModelClient(["Hi, I'd like a cleaning.", "Tuesday please.", "Thanks! [BYE]"])
        return ModelCaller(_recorded(client, ListSink()), PERSONA, 7)

    def test_an_unreachable_model_is_a_caller_error(self) -> None:
        class Down(ScriptedModelClient):
            async def complete(self, request: dict[str, Any]) -> ModelAnswer:
                return ModelAnswer(text=None, errors=["connection refused"])

        caller = ModelCaller(_recorded(Down([]), ListSink()), PERSONA, 7)
        with pytest.raises(CallerError, match="connection refused"):
            say(caller, None)

    def test_each_turn_is_recorded_with_its_own_seed(self) -> None:
        sink, client = ListSink(), ScriptedModelClient(["Hi.", "Bye! [BYE]"])
        caller = ModelCaller(_recorded(client, sink), PERSONA, 7)
        said = [say(caller, None), say(caller, "Hello?")]
        assert [u.ends_call for u in said] == ["", "done"] and said[1].text == "Bye!"
        assert [turn for _k, _e, turn, _i in sink.events] == [1, 2]
        assert [r["seed"] for r in client.requests] == [8, 9]
        assert client.requests[1]["messages"][-1] == {"role": "user", "content": "Hello?"}


def _source() -> ConversationView:
    turns = [
        TurnView(turn=1, caller_text="Hi, I'd like a cleaning.", agent_text="Sure, which day?"),
        TurnView(turn=2, caller_text="Tusday please.", heard_text="Tuesday please.", agent_text="Booked."),
    ]
    return ConversationView(conversation_id="src", turns=turns)


class TestReplayCaller(CallerContract):
    def make(self) -> Caller:
        return ReplayCaller(_source(), None)

    def test_says_the_recorded_lines_as_heard_then_ends(self) -> None:
        said = whole_call(ReplayCaller(_source(), None))
        assert [u.text for u in said[:2]] == ["Hi, I'd like a cleaning.", "Tuesday please."]
        assert said[-1].ends_call == "done" and len(said) == 3

    def test_hands_over_to_the_scripted_caller(self) -> None:
        caller = ReplayCaller(_source(), ScriptedCaller(PERSONA, 7))
        say(caller, None)
        caller.hand_over()
        taken_over = say(caller, "Which day?")
        assert taken_over == say(ScriptedCaller(PERSONA, 7), "Which day?")
        assert taken_over.text != "Tuesday please." and taken_over.intent != "replayed"
