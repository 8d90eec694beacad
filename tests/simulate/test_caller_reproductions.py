"""Issue 32's reproductions, each on a suite these tests write (never a bundled one).

A bank card line written from scratch (Adriatic Bank), as a new user would, and a Croatian
pizza line. Each numbered test is one numbered reproduction of the issue.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from polygon import AgentReply, AgentStep, ToolCall
from polygon.app.queries import load_run
from polygon.app.run import RunOptions, run_suite
from polygon.events import MemoryLog
from polygon.events.families import PersonaSnapshot
from polygon.events.streams import conversation_stream
from polygon.probe.library import LIBRARY, detect
from polygon.projections.report import make_report
from polygon.simulate.callers.scripted import INSISTS, ScriptedCaller
from polygon.suite.loading import load_suite
from polygon.transcript import ConversationView, build

HERE = "tests.simulate.test_caller_reproductions"
_LAST4 = re.compile(r"\b(\d{4})\b")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_NAME = re.compile(r"([A-ZČĆŠŽĐ][a-zčćšžđ]+ [A-ZČĆŠŽĐ][a-zčćšžđ]+)")


class BankLine:
    """Adriatic Bank card services: block a card or say its status, after the caller's details."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params
        self.greeted = False
        self.want = ""
        self.name = self.last4 = self.dob = ""
        self.asked = ""
        self.calls = 0
        self.done = False

    def say(self, text: str, end: str = "") -> AgentReply:
        if not self.greeted:
            self.greeted = True
            text = f"Adriatic Bank card services, this is Sam. {text}"
        return AgentReply(reply=text, end=end)

    def call(self, tool: str, **args: str) -> AgentReply:
        self.calls += 1
        return AgentReply(tool_calls=[ToolCall(id=f"c{self.calls}", name=tool, arguments=args)])

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results:
            self.done = True
            if req.tool_results[-1].name == "block_card":
                shown = self.params.get("read_back", self.last4)
                return self.say(f"Done — the card ending {shown} is now blocked and can't be used. Anything else?")
            return self.say(f"The card ending {self.last4} is active; your new card was posted yesterday.")
        text = req.heard
        low = text.lower()
        if "block" in low or "stolen" in low:
            self.want = "block"
        elif "status" in low:
            self.want = "status"
        if not self.name and (m := _NAME.search(text)):
            self.name = m.group(1)
        if self.asked == "last4" and (m := _LAST4.search(text)):
            self.last4 = m.group(1)
        if self.asked == "dob" and (m := _DATE.search(text)):
            self.dob = m.group(0)
        if self.done:
            self.asked = "more" if self.asked != "more" else "else"
            return self.say("Is there anything else?" if self.asked == "more" else "Can I help with anything more?")
        if not self.name:
            self.asked = "name"
            return self.say("May I have your full name, please?")
        if not self.want:
            self.asked = "want"
            return self.say("Do you want me to block this card, or to check its status?")
        if not self.last4:
            self.asked = "last4"
            return self.say("What are the last four digits of the card?")
        if self.want == "block" and not self.dob:
            self.asked = "dob"
            if self.params.get("card_number"):
                return self.say(f"I have your card number as {self.params['card_number']}. And your date of birth?")
            return self.say("And your date of birth, please?")
        return self.call("block_card" if self.want == "block" else "card_status", last4=self.last4)


def make_bank(prompt: str = "", params: dict[str, Any] | None = None) -> BankLine:
    return BankLine(params or {})


def _bank_suite(tmp_path: Path, personas: list[dict[str, Any]], configs: dict[str, Any] | None = None) -> Path:
    suite = {
        "name": "adriatic-bank",
        "seed": 5,
        "max_turns": 14,
        "trials": 3,
        "configs": configs or {"v1": {"agent": f"python:{HERE}:make_bank", "prompt": "card line"}},
        "caller": {"model": "scripted/caller"},
        "judge": {"model": "scripted/heuristic", "rubric": "v3", "repeats": 1},
        "tools": [
            {"name": "block_card", "parameters": {"type": "object", "properties": {"last4": {"type": "string"}}},
             "stub": {"mode": "fixed", "response": {"blocked": True}}},
            {"name": "card_status", "parameters": {"type": "object", "properties": {"last4": {"type": "string"}}},
             "stub": {"mode": "fixed", "response": {"status": "active"}}},
        ],
        "personas": personas,
    }
    path = tmp_path / "suite.yaml"
    path.write_text(yaml.safe_dump(suite, allow_unicode=True), encoding="utf-8")
    return path


def _run(path: Path) -> tuple[MemoryLog, list[tuple[str, ConversationView]]]:
    log = MemoryLog()
    summary = run_suite(load_suite(path), log, RunOptions(run_id="r"), now=lambda: "")
    report = make_report(load_run(log, summary.run_id), None)
    out = []
    for row in report.conversations:
        cid = row.record.conversation_id
        verdict = row.verdict.verdict if row.verdict else "unjudged"
        out.append((verdict, build(cid, log.read_stream(conversation_stream(cid)))))
    return log, out


def _caller_lines(view: ConversationView) -> list[str]:
    return [t.caller_text for t in view.turns]


FACTS = {"name": "Ana Kovač", "card_last4": "7730", "dob": "1980-03-12"}


def _persona(pid: str, kind: str, goal: str, facts: dict[str, str], **more: Any) -> dict[str, Any]:
    return {"id": pid, "type": kind, "outcome": "success", "difficulty": 2, "goal": goal, "facts": facts, **more}


# 1 -------------------------------------------------------------------------------------------


def test_1_a_greeting_that_names_the_card_does_not_end_the_call(tmp_path: Path) -> None:
    path = _bank_suite(tmp_path, [_persona("busy-status", "busy", "check my card's status", FACTS)])
    _, calls = _run(path)
    for verdict, view in calls:
        first = view.turns[0]
        assert "card" in (first.agent_text or "") and "?" in (first.agent_text or "")
        assert view.turns[1].caller_intent == "give_fact", _caller_lines(view)  # the name, not "Bye!"
        assert any(c.tool == "card_status" for t in view.turns for c in t.tools)
        assert verdict == "pass", _caller_lines(view)


# 2 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["card_last4", "last_four_digits", "cardLast4"])
def test_2_the_goal_is_stated_whatever_the_key_is_called_and_no_key_is_spoken(tmp_path: Path, key: str) -> None:
    facts = {"name": "Ana Kovač", key: "7730", "dob": "1980-03-12"}
    path = _bank_suite(tmp_path, [_persona("coop-block", "cooperative", "block my stolen card", facts)])
    _, calls = _run(path)
    blocked = 0
    for _, view in calls:
        for t in view.turns:
            if "block this card, or" in (t.agent_text or ""):
                nxt = view.turns[t.turn] if t.turn < len(view.turns) else None
                assert nxt is None or nxt.caller_intent == "restate_goal", _caller_lines(view)
        said = " ".join(_caller_lines(view))
        assert "last4" not in said.lower() and "_" not in said and "Last4" not in said, said
        assert "7730" in said  # the digits are said, in words a person uses
        blocked += any(c.tool == "block_card" for t in view.turns for c in t.tools)
    assert blocked == 3


# 3 -------------------------------------------------------------------------------------------


def test_3_a_right_card_number_read_back_is_not_corrected_with_another_fact(tmp_path: Path) -> None:
    facts = {**FACTS, "card_number": "4929180355217730"}
    configs = {"v1": {"agent": f"python:{HERE}:make_bank", "prompt": "x", "params": {"card_number": "4929180355217730"}}}
    path = _bank_suite(tmp_path, [_persona("coop-block", "cooperative", "block my stolen card", facts)], configs)
    _, calls = _run(path)
    for verdict, view in calls:
        assert not [t for t in view.turns if t.caller_intent == "correct"], _caller_lines(view)
        assert verdict == "pass"


def test_3_a_wrong_read_back_is_corrected_a_bounded_number_of_times_then_the_caller_gives_up(
    tmp_path: Path,
) -> None:
    configs = {"v1": {"agent": f"python:{HERE}:make_bank", "prompt": "x", "params": {"read_back": "7731"}}}
    facts = {**FACTS, "card_last4": "7730"}
    personas = [
        _persona(f"{kind}-block", kind, "block my stolen card", facts) for kind in ("cooperative", "busy", "distrustful")
    ]
    path = _bank_suite(tmp_path, personas, configs)
    _, calls = _run(path)
    for _, view in calls:
        kind = view.started.persona.type if view.started and view.started.persona else ""
        corrections = [t for t in view.turns if t.caller_intent == "correct"]
        assert 1 <= len(corrections) <= INSISTS[kind], _caller_lines(view)
        for t in corrections:  # a last-four read-back is corrected with the last four, nothing else
            assert "7730" in t.caller_text and "1980" not in t.caller_text
        assert view.turns[-1].caller_intent == "give_up:correction_ignored", _caller_lines(view)
        assert view.ended is not None and view.ended.reason == "hangup"


# 4 -------------------------------------------------------------------------------------------


def test_4_a_goal_reported_done_is_never_asked_again(tmp_path: Path) -> None:
    personas = [_persona(f"{k}-block", k, "block my stolen card", FACTS) for k in ("cooperative", "chatty", "confused")]
    _, calls = _run(_bank_suite(tmp_path, personas))
    for _, view in calls:
        done = next(t.turn for t in view.turns if "is now blocked" in (t.agent_text or ""))
        after = [t for t in view.turns if t.turn > done]
        assert after and after[0].caller_intent == "goodbye", _caller_lines(view)
        assert not [t for t in after if "block" in t.caller_text.lower()]


def test_4_the_confused_caller_gives_its_details_its_confusion_bounded_by_difficulty() -> None:
    for level in (1, 3, 5):
        for seed in range(30):
            persona = PersonaSnapshot(
                persona_id="p", type="confused", outcome="success", difficulty=level,
                goal="block my stolen card", facts=FACTS,
            )
            c = ScriptedCaller(persona, seed)
            c.next(None)
            intents = [c.next(q).intent for q in ["May I have your full name, please?"] * 6]
            assert intents.count("clarify") <= max(1, level // 2)
            assert "clarify,clarify" not in ",".join(intents)
            assert "give_fact" in intents


# 5 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "name", "wrong", "right"),
    [
        ("hr", "Željka Babić", "Rezervirano za utorak, Marija.", "Rezervirano za utorak, Željka."),
        ("ru", "Анна Петрова", "Записала вас на вторник, Ольга.", "Записала вас на вторник, Анна."),
        ("en", "Émile Durand", "You're booked for Tuesday, Ridiculous.", "You're booked for Tuesday, Émile."),
    ],
)
def test_5_names_read_back_wrong_are_noticed_in_any_script(language: str, name: str, wrong: str, right: str) -> None:
    persona = PersonaSnapshot(
        persona_id="p", type="cooperative", outcome="success", difficulty=2, goal="x", facts={"name": name},
        language=language,
    )
    caller = ScriptedCaller(persona, 1)
    caller.next(None)
    said = caller.next(wrong)
    assert said.intent == "correct" and name in said.text, said
    other = ScriptedCaller(persona, 1)
    other.next(None)
    assert other.next(right).intent != "correct"


# 6 -------------------------------------------------------------------------------------------


class HrPizza:
    """Pizzeria Roma, narudžbe — a Croatian-speaking agent."""

    def __init__(self) -> None:
        self.greeted = False
        self.pizza = self.address = self.time = ""
        self.asked = ""
        self.confirmed = False

    def say(self, text: str) -> AgentReply:
        if not self.greeted:
            self.greeted = True
            text = f"Pizzeria Roma, Luka na vezi. {text}"
        return AgentReply(reply=text)

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results:
            return self.say(f"Narudžba je zaprimljena, dostava u {self.time}.")
        text = req.heard
        if "pizz" in text.lower() and not self.pizza:
            self.pizza = "srednja pizza s povrćem"
        if m := re.search(r"[A-ZČĆŠŽĐ][a-zčćšžđ]+ \d+", text):
            self.address = m.group(0)
        if m := re.search(r"\b\d{1,2}:\d{2}\b", text):
            self.time = m.group(0)
        if not self.address:
            self.asked = "adresa" if self.asked != "adresa" else "adresa2"
            return self.say("Na koju adresu dostavljamo?" if self.asked == "adresa" else "Oprostite, koja je adresa?")
        if not self.time:
            self.asked = "vrijeme" if self.asked != "vrijeme" else "vrijeme2"
            if self.asked == "vrijeme":
                return self.say("U koliko sati želite dostavu?")
            return self.say("Oprostite, u koje vrijeme da dostavimo?")
        if not self.confirmed:
            self.confirmed = True
            return self.say(f"Dakle, {self.pizza} na adresu {self.address} u {self.time}. Je li to točno?")
        return AgentReply(tool_calls=[ToolCall(id="c1", name="place_order", arguments={"address": self.address})])


def make_hr_pizza(prompt: str = "", params: dict[str, Any] | None = None) -> HrPizza:
    return HrPizza()


ENGLISH = re.compile(r"\b(I'd|My|Sorry|Hi|please|Great|thank you|Bye|is)\b")


def test_6_a_croatian_caller_speaks_croatian_and_understands_the_agent(tmp_path: Path) -> None:
    facts = {"ime": "Ana Horvat", "adresa": "Ilica 12", "vrijeme_dostave": "18:30"}
    suite = {
        "name": "pizza-hr",
        "seed": 3,
        "max_turns": 12,
        "trials": 3,
        "configs": {"v1": {"agent": f"python:{HERE}:make_hr_pizza", "prompt": "narudžbe"}},
        "caller": {"model": "scripted/caller"},
        "judge": {"model": "scripted/heuristic", "rubric": "v3", "repeats": 1},
        "tools": [{"name": "place_order", "parameters": {"type": "object", "properties": {"address": {"type": "string"}}},
                   "stub": {"mode": "fixed", "response": {"ok": True}}}],
        "personas": [
            {"id": f"{k}-hr", "type": k, "outcome": "success", "difficulty": 3, "language": "hr",
             "goal": "naručiti srednju pizzu s povrćem", "facts": facts}
            for k in ("cooperative", "busy", "confused", "chatty", "aggressive", "distrustful")
        ],
    }
    path = tmp_path / "suite.yaml"
    path.write_text(yaml.safe_dump(suite, allow_unicode=True), encoding="utf-8")
    _, calls = _run(path)
    verdicts = Counter(v for v, _ in calls)
    for _, view in calls:
        lines = _caller_lines(view)
        said = " ".join(lines)
        assert not ENGLISH.search(said), lines
        assert "vrijeme_dostave" not in said and "_" not in said, lines
        confirm = [t.turn for t in view.turns if "Je li to točno?" in (t.agent_text or "")]
        for turn in confirm:
            assert view.turns[turn].caller_intent == "confirm", lines  # "Da, točno tako."
        final = view.turns[-1]
        assert "zaprimljena" in (view.turns[-2].agent_text or ""), lines
        assert final.caller_intent == "goodbye" and view.ended is not None and view.ended.reason == "caller_done"
    assert verdicts["pass"] + verdicts["warn"] == len(calls), verdicts


# 7 -------------------------------------------------------------------------------------------


def test_7_the_refusal_probe_does_not_read_a_blocked_card_as_a_refusal(tmp_path: Path) -> None:
    probe = next(p for p in LIBRARY if p.id == "reason_for_refusal")
    _, calls = _run(_bank_suite(tmp_path, [_persona("coop-block", "cooperative", "block my stolen card", FACTS)]))
    for _, view in calls:
        assert any("can't be used" in (t.agent_text or "") for t in view.turns)
        assert detect(probe, view)[0] == "n/a"
