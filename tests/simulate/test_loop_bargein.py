"""The loop rule and phone barge-ins (trial40 D11): a reply the caller cut in on was never heard
whole, so asking it again is a re-ask, not a loop — in the engine and in the ``loop`` check alike.

Each case is played by the engine with chosen barge-ins, then scored from the events it wrote.
"""

from __future__ import annotations

import asyncio

import pytest

from polygon.events import Envelope, Event
from polygon.events.families import PersonaSnapshot
from polygon.languages import caller_language
from polygon.recording import ListSink
from polygon.score.checks import loop_flag
from polygon.similarity import LoopWatch
from polygon.simulate import engine
from polygon.simulate.agents import AgentReply, AgentStep
from polygon.simulate.callers import Utterance
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.phone import PhoneSettings, TurnDraw
from polygon.simulate.plan import ConversationPlan
from polygon.transcript import ConversationView, apply

ASK = {
    "en": "Could you tell me your booking code, please?",
    "ru": "Назовите, пожалуйста, код бронирования.",
}


class _Caller:
    def __init__(self, lines: list[str]) -> None:
        self.lines = iter(lines)

    def next(self, agent_text: str | None) -> Utterance:
        line = next(self.lines, "Bye!")
        return Utterance(line, "goodbye", "done") if line == "Bye!" else Utterance(line, "give_fact")


class _Parrot:
    """Asks the same question whatever it hears."""

    def __init__(self, ask: str) -> None:
        self.ask = ask

    async def step(self, request: AgentStep) -> AgentReply:
        return AgentReply(reply=self.ask)

    async def aclose(self) -> None:
        return None


def _play(
    monkeypatch: pytest.MonkeyPatch, language: str, lines: list[str], cut_turns: set[int]
) -> tuple[str, ConversationView]:
    """The parrot asks; the caller cuts in on the agent's reply at ``cut_turns`` (after 2 words)."""

    def chosen(settings: PhoneSettings, seed: int, key: str, turn: int, words: int) -> TurnDraw:
        return TurnDraw(
            barge_in_at=2 if turn in cut_turns else 0, silent=False, self_correction=False, pick=0.0
        )

    monkeypatch.setattr(engine, "draw", chosen)
    plan = ConversationPlan(
        run_id="r1",
        run_seed=1,
        conversation_id="r1.c.s.0",
        config="c",
        scenario="s",
        trial=0,
        seed=1,
        persona=None,
        max_turns=10,
        noise_intensity=0.0,
        noise_language=language,
        agent_ref="python:parrot",
        tools=(),
        stores={},
        phone=PhoneSettings(barge_in=0.3),
    )
    sink = ListSink()
    caller = _Caller(lines)
    reason = asyncio.run(engine.Conversation(plan, _Parrot(ASK[language]), sink, caller=caller).run())
    return reason, _view(sink.events)


def _view(events: list[tuple[str, Event, int, int]]) -> ConversationView:
    view = ConversationView(conversation_id="r1.c.s.0")
    for seq, (kind, event, _, _) in enumerate(events, start=1):
        env = Envelope(
            seq=seq,
            stream="conv/r1.c.s.0",
            stream_version=seq,
            identity=str(seq),
            tag=kind,
            schema_version=1,
            recorded_at="",
            content_hash="",
            payload=event,
        )
        view = apply(view, env)
    return view


@pytest.mark.parametrize("language", ["en", "ru"])
def test_re_asks_after_barge_ins_go_on_in_engine_and_check(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    # Two barge-ins running (trial40 busy-rebook.1): the question a third time is still right.
    reason, view = _play(monkeypatch, language, ["Hi.", "Sorry?", "What?", "Bye!"], {2, 3})
    assert reason == "caller_done"
    assert view.ended is not None and not view.ended.loop_detected
    check = loop_flag(view)
    assert check.outcome == "pass"
    assert "asked again after the caller cut in at turn 2, 3" in check.detail
    assert [e.turn for e in check.evidence] == [2, 3]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_repeat_after_a_turn_heard_whole_is_still_a_loop(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    reason, view = _play(monkeypatch, language, ["Hi.", "Sorry?", "KX7PQ2.", "Bye!"], {2})
    assert reason == "loop" and view.ended is not None and view.ended.turns == 3
    check = loop_flag(view)
    assert check.outcome == "fail" and [e.turn for e in check.evidence] == [2, 3]
    never_cut_reason, _ = _play(monkeypatch, language, ["Hi.", "KX7PQ2.", "Bye!"], set())
    assert never_cut_reason == "loop"


def test_loop_watch_excuses_every_cut_but_not_the_noise_twice() -> None:
    watch = LoopWatch()
    assert watch.see("A b c.") == ""
    assert watch.see("A b c.", cut=True) == "reask"
    assert watch.see("A b c.", cut=True) == "reask"
    assert watch.see("A b c.", noisy=True) == "reask"  # a cut leaves the noise excuse unused
    assert watch.see("A b c.", noisy=True) == "loop"
    assert LoopWatch().see("A b c.", cut=True) == ""  # nothing before to repeat


PERSONA = {
    "en": ("book a table", {"name": "Ana Horvat", "booking_code": "KX7PQ2"}),
    "ru": ("перебронировать билет", {"имя": "Анна Петрова", "код_бронирования": "KX7PQ2"}),
}


def _scripted(language: str, kind: str = "cooperative") -> ScriptedCaller:
    goal, facts = PERSONA[language]
    persona = PersonaSnapshot(
        persona_id="p", type=kind, outcome="success", difficulty=1, goal=goal, facts=facts, language=language
    )
    caller = ScriptedCaller(persona, seed=7)
    caller.next(None)
    return caller


@pytest.mark.parametrize("kind", ["cooperative", "busy"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_caller_that_heard_half_a_question_asks_what_was_said(language: str, kind: str) -> None:
    pack = caller_language(language)
    fragment = " ".join(ASK[language].split()[:2])  # "Could you" / "Назовите, пожалуйста,"
    caller = _scripted(language, kind)
    caller.heard_cut()
    said = caller.next(fragment)
    assert said.intent == "pardon" and said.text == pack.manner(kind).clarify
    assert said.text != pack.manner(kind).unknown
    # Heard whole, the same question gets the fact; the cut is forgotten after one turn.
    assert "KX7PQ2" in caller.next(ASK[language]).text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_fragment_that_names_the_fact_is_answered(language: str) -> None:
    words = {"en": "Your booking code", "ru": "Ваш код бронирования"}[language]
    caller = _scripted(language)
    caller.heard_cut()
    assert "KX7PQ2" in caller.next(words).text


def test_the_engine_tells_the_caller_it_cut_in(monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[tuple[bool, str | None]] = []

    class _Listening(_Caller):
        cut = False

        def heard_cut(self) -> None:
            self.cut = True

        def next(self, agent_text: str | None) -> Utterance:
            heard.append((self.cut, agent_text))
            self.cut = False
            return super().next(agent_text)

    monkeypatch.setattr(
        engine, "draw", lambda *_: TurnDraw(barge_in_at=2, silent=False, self_correction=False, pick=0)
    )
    plan = ConversationPlan(
        run_id="r1", run_seed=1, conversation_id="r1.c.s.0", config="c", scenario="s", trial=0, seed=1,
        persona=None, max_turns=10, noise_intensity=0.0, noise_language="ru", agent_ref="python:parrot",
        tools=(), stores={}, phone=PhoneSettings(barge_in=0.3),
    )  # fmt: skip
    caller = _Listening(["Hi.", "Bye!"])
    asyncio.run(engine.Conversation(plan, _Parrot(ASK["ru"]), ListSink(), caller=caller).run())
    assert heard == [(False, None), (True, "Назовите, пожалуйста,")]
