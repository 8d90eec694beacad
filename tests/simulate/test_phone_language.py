"""A phone self-correction in the caller's own language, and only with a wrong value said first.

trial40 D11: a Russian caller's correction read "19:40 — no, 18:40" (an English "no"); the
line "Простите, подождите — Меня зовут …" it was mistaken for is the busy/aggressive type's
interruption manner, not a self-correction (no event is recorded for it).
"""

from __future__ import annotations

import asyncio

import pytest

from polygon.events.families import PhoneApplied, TurnSpoken
from polygon.languages import LANGUAGES, caller_language
from polygon.recording import ListSink
from polygon.simulate import engine
from polygon.simulate.agents import AgentReply, AgentStep
from polygon.simulate.callers import Utterance
from polygon.simulate.phone import PhoneSettings, TurnDraw, self_correct
from polygon.simulate.plan import ConversationPlan

LINE = {"en": "At 18:40, please.", "ru": "В 18:40, пожалуйста.", "hr": "U 18:40, molim."}
NO = {"en": "— no,", "ru": "— нет,", "hr": "— ne,"}


class _Caller:
    def __init__(self, line: str) -> None:
        self.lines = iter([line])

    def next(self, agent_text: str | None) -> Utterance:
        line = next(self.lines, "")
        return Utterance(line, "give_fact") if line else Utterance("Bye!", "goodbye", "done")


class _Agent:
    async def step(self, request: AgentStep) -> AgentReply:
        return AgentReply(reply="Thank you.")

    async def aclose(self) -> None:
        return None


def _say(monkeypatch: pytest.MonkeyPatch, language: str, line: str) -> tuple[str, list[PhoneApplied]]:
    monkeypatch.setattr(
        engine, "draw", lambda *_: TurnDraw(barge_in_at=0, silent=False, self_correction=True, pick=0.0)
    )
    plan = ConversationPlan(
        run_id="r1", run_seed=1, conversation_id="r1.c.s.0", config="c", scenario="s", trial=0, seed=1,
        persona=None, max_turns=3, noise_intensity=0.0, noise_language=language, agent_ref="python:a",
        tools=(), stores={}, phone=PhoneSettings(self_correction=1.0),
    )  # fmt: skip
    sink = ListSink()
    asyncio.run(engine.Conversation(plan, _Agent(), sink, caller=_Caller(line)).run())
    said = next(e for _, e, _, _ in sink.events if isinstance(e, TurnSpoken) and e.speaker == "caller")
    return said.text, [e for _, e, _, _ in sink.events if isinstance(e, PhoneApplied)]


@pytest.mark.parametrize("language", ["en", "ru", "hr"])
def test_a_self_correction_is_said_in_the_callers_language(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    text, phone = _say(monkeypatch, language, LINE[language])
    assert NO[language] in text and text.endswith(f"{NO[language]} 18:40{LINE[language].split('18:40')[1]}")
    assert [p.kind for p in phone] == ["self_correction"]
    if language != "en":
        assert "— no," not in text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_value_of_its_own_no_self_correction(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    line = {"en": "My name is Sergey Orlov.", "ru": "Меня зовут Сергей Орлов."}[language]
    text, phone = _say(monkeypatch, language, line)
    assert text == line and phone == []  # never "Sorry, wait — …" with nothing wrong said first


def test_every_pack_says_a_self_correction_with_both_values() -> None:
    for code in LANGUAGES:
        said, wrong, right = self_correct("At 18:40.", 0.0, caller_language(code).say.self_correct)
        assert said.index(wrong) < said.index(right) and wrong != right, code
