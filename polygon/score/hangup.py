"""An agent that hung up on a caller it never answered (trial39 defect 5).

A scenario whose ``expect`` only says what must *not* happen (``no_calls: [book_appointment]``
for a caller whose question should be declined) was met by an agent that said one brush-off
line and hung up: nothing was booked, so every expected end state held and the call passed
at 88.75. When the agent ends the call itself, at least one of its turns must have settled
something for the caller: an outcome report, a refusal, a transfer or a callback (the same
dialogue acts the scripted caller listens for, in the persona's language). A caller who
hangs up, a transfer, or a call the agent closed after saying "Done — ..." is unaffected.

A caller who only wants to know something (the goal's verb is one of the language's
``ask_goals``: "find out", "den Stand … erfahren") is settled by an answer too (trial42 D4):
a statement that says a value one of the agent's tools returned (a claim's status, an
appointment), or one of the scenario's ``expect.says`` phrases (the advice the author
requires). A brush-off that says neither still fails. A tool's value counts however the
agent spells it (trial43 D4): "twenty nine pounds" says ``£29.00``, "14 Uhr" says ``14:00``.

Whatever the goal's verb, what the scenario asks of the agent settles it too (trial45 D6,
trial46 D5): a danger answered by a safety instruction, every ``expect.says`` phrase said, or,
where ``expect`` names no end state, a statement saying a value the agent's tools returned.

A question the agent's prompt alone answers (opening hours, a price: no tool, and no
``expect.says``) is settled by a statement that says a time, a date, a weekday or an amount
that neither the caller's facts nor its goal hold ("We're open Monday to Friday, 8:00 to
18:00", "A blood test is £40"), or a yes/no that names what was asked ("Yes, breakfast is
included."). A turn in which the agent does not know or puts the answer off ("I'm not sure,
maybe Tuesday", "let me check") answers nothing, nor does a question back. Where the
scenario has ``expect.says``, its phrases stay the rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from polygon.events import PersonaSnapshot
from polygon.languages import LANGUAGES, Language, has, load_language, read_turn
from polygon.score.danger import named_danger, unanswered_danger
from polygon.score.json_strings import json_strings
from polygon.score.policies import Speech, said
from polygon.score.says import unsaid
from polygon.score.spelling import with_digits
from polygon.score.tool_facts import AMOUNT, DATE, DAY, NUMBER, TIME, WEEKDAY, tool_values, values_in
from polygon.score.tool_states import negated
from polygon.similarity import words
from polygon.transcript import ConversationView

SETTLING_ACTS = frozenset({"outcome", "refusal", "transfer", "callback"})
"""Acts that settle a caller's goal one way or another (docs/callers.md)."""
ASKING_ACTS = frozenset({"question", "offer", "confirm", "wants", "repeat"})
"""Acts of a sentence that asks instead of telling: no answer, whatever values it holds."""


def unsettled_hangup(view: ConversationView, persona: PersonaSnapshot) -> str:
    """Why the agent's own hang-up left the caller's goal unsettled ("" when it did not)."""
    e = view.ended
    if e is None or e.by != "agent" or e.reason != "hangup" or persona.language not in LANGUAGES:
        return ""
    pack = load_language(persona.language)
    if announced := announced_transfer(view, persona):
        return _UNSETTLED + f"(it said it was transferring the caller, then hung up: {announced!r})"
    said_ = [t.agent_text for t in view.turns if t.agent_text]
    if any(SETTLING_ACTS & read_turn(text, pack).acts for text in said_):
        return ""
    if _settled_otherwise(view, persona, pack):
        return ""
    if not pack.understand.asks_only(persona.goal):
        return _UNSETTLED + "(it said no outcome, refusal, transfer or callback)"
    if _answer(view, persona, pack):
        return ""
    return _UNSETTLED + (
        "(it said no outcome, refusal, transfer or callback, nor answered: "
        "no value its tools returned, no phrase of expect.says"
        + ("" if _says(view) else ", no time, date, day or amount, no yes/no naming what was asked")
        + ")"
    )


def announced_transfer(view: ConversationView, persona: PersonaSnapshot) -> str:
    """The agent's last words announced a transfer, and it hung up instead ("" when not).

    "I'm transferring you to a colleague now." then a hang-up settled the caller's goal by its
    transfer act: the clinic's agent doing so passed 8 of 16 transfer calls (adversary). Not a
    clause with a negation ("I can't transfer you").
    """
    e = view.ended
    if e is None or e.by != "agent" or e.reason != "hangup" or persona.language not in LANGUAGES:
        return ""
    last = next((t.agent_text for t in reversed(view.turns) if t.agent_text), "")
    pack = load_language(persona.language)
    return (
        last
        if any(_announces(s.text, pack) for s in read_turn(last, pack).sentences if s.act == "transfer")
        else ""
    )


def _announces(sentence: str, pack: Language) -> bool:
    """A transfer sentence that announces one.

    Not one that asks ("Shall I transfer you?"), denies ("I can't transfer you") or reports one
    done ("your transfer has been completed": money).
    """
    low = f" {sentence.lower()} "
    return "?" not in low and not negated(low) and not has(low, pack.acts.done)


def _settled_otherwise(view: ConversationView, persona: PersonaSnapshot, pack: Language) -> bool:
    """Settled by what the scenario asks of the agent, whatever the goal's verb.

    A danger the call names, answered by a safety instruction ("немедленно сообщите проводнику и
    позвоните по номеру сто двенадцать", trial45 D6); every ``expect.says`` phrase said (the
    advice the author requires: "isključite router … nazovite sto dvanaest", trial46 D5b); or,
    where ``expect`` asks for no end state (its calls, if any, are checked on their own), a
    statement saying a value the agent's tools returned ("u vašem području je poznata smetnja …
    popravak do osamnaest sati", trial46 D5a).
    """
    if named_danger(view) is not None and unanswered_danger(view) is None:
        return True
    expect = view.started.expect if view.started else None
    if expect is None:
        return False
    if expect.says and not unsaid(view, expect):
        return True
    return not expect.state and bool(_answer(view, persona, pack))


def answer_to_ask(view: ConversationView, persona: PersonaSnapshot) -> str:
    """The agent's sentence that answered a caller who only asked ("" when none did, or it asked more)."""
    if persona.language not in LANGUAGES:
        return ""
    pack = load_language(persona.language)
    return _answer(view, persona, pack) if pack.understand.asks_only(persona.goal) else ""


def _says(view: ConversationView) -> list[Speech]:
    """The scenario's ``expect.says`` phrase groups (none without ``expect``)."""
    expect = view.started.expect if view.started else None
    return [Speech(phrases=list(p)) for p in expect.says] if expect is not None else []


_UNSETTLED = "the agent hung up without settling the caller's goal "


def _answer(view: ConversationView, persona: PersonaSnapshot, pack: Language) -> str:
    """The agent's statement that says a value its tools returned or an ``expect.says`` phrase.

    Without ``expect.says`` and before any tool answered, also one that answers in words
    (:func:`_answers_in_words`): once a tool gave the answer, "nineteen pounds" against its
    "£29.00" is no answer, nor "Yes, it's free" against its ``{"available": false}``.
    """
    wanted = _says(view)
    own = {v.strip().lower() for v in persona.facts.values()}
    own_typed = {(v.kind, v.value) for fact in persona.facts.values() for v in values_in(fact)}
    asked = own_typed | {(v.kind, v.value) for v in values_in(persona.goal)}  # "open on Saturday?"
    found: set[str] = set()
    typed: set[tuple[str, str]] = set()
    tooled = False  # a tool answered: the answer is the tool's, not the prompt's
    for t in view.turns:
        for c in t.tools:
            if c.valid and not c.error:  # a reply follows its turn's tools: they count for it
                own |= {str(v).strip().lower() for v in c.arguments.values()}
                own_typed |= {(v.kind, v.value) for v in tool_values(c.arguments)}
                found |= set(_answer_texts(c.result))
                typed |= _answer_values(c.result)
        tooled = tooled or any(c.valid and not c.error for c in t.tools)
        heard = read_turn(t.agent_text or "", pack)
        told = [s.text for s in heard.sentences if s.act not in ASKING_ACTS]
        unsure = _puts_off(t.agent_text or "", heard.acts, pack)
        for sentence in told:
            low = sentence.lower()
            if any(said(sentence, w) for w in wanted) or any(_holds(low, v) for v in found - own):
                return sentence
            if _typed(sentence, pack) & (typed - _with_days(own_typed)):
                return sentence
            if not (wanted or unsure or tooled) and _answers_in_words(sentence, persona.goal, asked, pack):
                return sentence
    return ""


def _answer_values(result: object) -> set[tuple[str, str]]:
    """The values of a tool result that answer when said, a date also as its day said without its year.

    "first one on the fifteenth of december" tells ``"first_payment": "2026-12-15"`` (tester45 D14c).
    """
    return _with_days({(v.kind, v.value) for v in tool_values(result) if v.kind in _ANSWER_KINDS})


def _with_days(values: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """``values`` and the day (``MM-DD``) of each of its dates."""
    return values | {(DAY, value[5:]) for kind, value in values if kind == DATE}


def _puts_off(text: str, acts: frozenset[str], pack: Language) -> bool:
    """The turn answers no question in words: the agent is not sure, or offers a slot.

    "I'm not sure, maybe Tuesday"; "I have Monday 09:00 free. Shall I book it?"
    """
    return "offer" in acts or has(f" {_lower(text)} ", pack.acts.unsure)


_STATED_KINDS = frozenset({DATE, DAY, TIME, AMOUNT, WEEKDAY})
"""What a prompt-grounded answer states: opening hours, a date, a price (a bare number may be
anyone's: a phone line, a count)."""


def _answers_in_words(sentence: str, goal: str, own: set[tuple[str, str]], pack: Language) -> bool:
    """A time, date, day or amount the caller did not bring, or a yes/no naming the asked thing.

    "Yes, I can check that for you" names nothing the goal asks about (its verb does not count);
    "Yes, breakfast is included" names at least half of what "check whether breakfast is
    included in my booking" asks about.
    """
    stated = {v[0] for v in _typed(sentence, pack) - own if v[0] in _STATED_KINDS}
    if AMOUNT in stated or (stated and pack.understand.asks_when(goal)):
        return True  # a price answers whatever was asked of it; a time or day, a question of when
    said = words(sentence)
    if not said or said[0] not in pack.acts.yes_no:
        return False
    asked = _content(goal, pack) - {w[: pack.understand.stem] for w in pack.understand.ask_goals}
    named = asked & _content(sentence, pack)
    return bool(asked) and 2 * len(named) >= len(asked)


def _content(text: str, pack: Language) -> set[str]:
    """Stems of the words of ``text`` that carry meaning (the caller's own reading, simplified)."""
    size = pack.understand.stem
    return {w[:size] for w in words(text) if w not in pack.stop_words and len(w) > 1}


def _lower(text: str) -> str:
    return text.lower().replace("\u2019", "'")


_ANSWER_KINDS = frozenset({DATE, DAY, TIME, AMOUNT, NUMBER, WEEKDAY})
"""Kinds of tool value that answer when said however spelt (a bare count or a wait does not)."""


def _typed(sentence: str, pack: Language) -> set[tuple[str, str]]:
    """The values a sentence states, numbers in words read too: "twenty nine pounds" is £29.00 (trial43 D4).

    An hour said with the language's clock word ("14 Uhr", "three o'clock") is that time.
    """
    digits = with_digits(sentence)
    out = {(v.kind, v.value) for text in {sentence, digits} for v in values_in(text)}
    for hour, minute in _hours(digits, pack.spoken.clock_words):
        out.add((TIME, f"{hour:02d}:{minute:02d}"))
    return {v for v in out if v[0] in _ANSWER_KINDS}


def _hours(text: str, clock_words: frozenset[str]) -> Iterator[tuple[int, int]]:
    """Each hour said with a clock word ("14 Uhr", "14 Uhr 30", "3 o'clock"), as (hour, minute)."""
    if not clock_words:
        return
    word = "|".join(sorted(map(re.escape, clock_words), key=len, reverse=True))
    for m in re.finditer(rf"(?<![\d:.,])(\d{{1,2}})\s*(?:{word})(?:\s+(\d{{1,2}}))?(?![\w:])", text.lower()):
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        if hour < 24 and minute < 60:
            yield hour, minute


def _holds(low: str, value: str) -> bool:
    """``value`` said as a whole: a status "open" is not in "opening hours"."""
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", low) is not None


def _answer_texts(result: Any) -> Iterator[str]:
    """Every text or number a tool's JSON result holds (lower case), not a flag or a bare digit."""
    for found in json_strings(result, numbers=True):
        text = found.strip().lower()
        if len(text) >= 3 and text not in ("true", "false", "none", "null"):
            yield text
