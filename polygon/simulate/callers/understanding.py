"""What the scripted caller understands of the agent, in any domain, from its facts alone.

No domain words live here: which fact a question asks for comes from the fact keys' own
words ("preferred_time" answers "what time…"), from the values' shape (a time, a long
number) and from the goal (a question about what the goal mentions — "which pizza…" in a
call to order a pizza — asks for the fact the goal names). Read-backs are checked by shape:
a time, a number or a weekday the agent says that differs from the caller's is corrected.
The few words that remain are the language's own (question words, "done", "not"), in
:mod:`polygon.simulate.callers.packs`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from polygon.similarity import sentences, word_tuple, words
from polygon.simulate.callers.packs import CallerPack

_TIME = re.compile(r"\b(\d{1,2})[:.](\d{2})\b")
_LONG_NUMBER = re.compile(r"\d[\d ()+-]{4,}\d")
_ADDRESSED = re.compile(r",\s+([A-Z][\w'-]+)[.!?]")
"""A word the agent calls the caller by: "You're booked for Tuesday, Ridiculous." """


def _stem(word: str) -> str:
    """A crude stem, enough to meet "delivery" with "delivered", "booking" with "book"."""
    return word[:5] if len(word) > 5 else word


@functools.lru_cache(maxsize=1024)
def _key_words(key: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in re.split(r"[\W_]+", key.lower()) if len(w) > 1)


def content(text: str, pack: CallerPack) -> set[str]:
    """The stems of a text's words that carry meaning (no stop words, no one-letter ones)."""
    return set(_content(text, pack.stop_words))


@functools.lru_cache(maxsize=8192)
def _content(text: str, stop_words: frozenset[str]) -> frozenset[str]:
    return frozenset(_stem(w) for w in word_tuple(text) if w not in stop_words and len(w) > 1)


def in_goal(value: str, goal: str, pack: CallerPack) -> bool:
    """The goal spells this fact out ("medium veggie" in "order a medium veggie pizza")."""
    said = content(value, pack)
    return bool(said) and said <= content(goal, pack)


def asked(question: str, facts: Mapping[str, str], goal: str, pack: CallerPack) -> tuple[str, bool]:
    """(key, named): the fact asked for, and whether the question names it.

    Named: by its key's words or a question word for its shape, not only by speaking of
    what the goal is about.
    """
    said = content(question, pack)
    raw = set(words(question))
    scores: dict[str, float] = {}
    for key, value in facts.items():
        if any(w in raw and mark not in value for w, mark in pack.demands.items()):
            continue  # "your email address?" is not asking for the street address
        score = 2.0 * len(_key_words(key) & said)
        for question_word, hints in pack.question_hints.items():
            if question_word in raw and (
                _key_words(key) & {_stem(h) for h in hints} or _shaped(value, hints)
            ):
                score += 1.5
        if score:
            scores[key] = score
    if scores:
        return max(sorted(scores), key=lambda k: scores[k]), True
    # "Which pizza, what size?" in a call to order a medium veggie pizza: the question is
    # about what the goal names (or asks what the caller wants), and the answer is the fact
    # that the goal spells out.
    low = question.lower()
    if content(goal, pack) & said or (raw & pack.wh_words and any(w in low for w in pack.wants)):
        named = [k for k, v in sorted(facts.items()) if in_goal(v, goal, pack)]
        if named:
            return named[0], False
    return "", False


def asks_what_is_wanted(question: str, pack: CallerPack) -> bool:
    """An open question about what the caller wants ("Which pizza would you like?")."""
    low = question.lower()
    return bool(set(words(question)) & pack.wh_words) and any(w in low for w in pack.wants)


def _shaped(value: str, hints: tuple[str, ...]) -> bool:
    """Whether a value has the shape a question word asks for (a time for "when")."""
    if "time" in hints and _TIME.search(value):
        return True
    return "number" in hints and bool(_LONG_NUMBER.search(value))


@dataclass(frozen=True)
class Misheard:
    """The agent read one of the caller's facts back wrong."""

    key: str
    said: str
    right: str


def misheard(agent_text: str, facts: Mapping[str, str], pack: CallerPack) -> list[Misheard]:
    """Times, long numbers, weekdays and the name the agent says, where the caller's differ."""
    out: list[Misheard] = []
    said_times = {f"{int(h)}:{m}" for h, m in _TIME.findall(agent_text)}
    said_numbers = {re.sub(r"\D", "", n) for n in _LONG_NUMBER.findall(agent_text)}
    said_days = {w for w in words(agent_text) if w in pack.weekdays}
    addressed = _ADDRESSED.findall(agent_text)
    for key, value in sorted(facts.items()):
        times, numbers, days = _shapes(value, pack.weekdays)
        if "name" in key.lower() and addressed:
            own = set(words(value))
            strangers = [a for a in addressed if a.lower() not in own]
            if strangers and len(strangers) == len(addressed):
                out.append(Misheard(key, strangers[0], value))
                continue
        if times and said_times and not times & said_times:
            out.append(Misheard(key, sorted(said_times)[0], value))
            continue
        if numbers and said_numbers and not numbers & said_numbers:
            out.append(Misheard(key, sorted(said_numbers)[0], value))
            continue
        if days and said_days and not days & said_days:
            said = sorted(said_days)[0]
            out.append(Misheard(key, said.capitalize() if value[:1].isupper() else said, value))
    return out


@functools.lru_cache(maxsize=4096)
def _shapes(value: str, weekdays: frozenset[str]) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """A fact's times, long numbers and weekdays (parsed once per value)."""
    times = frozenset(f"{int(h)}:{m}" for h, m in _TIME.findall(value))
    numbers = frozenset(re.sub(r"\D", "", n) for n in _LONG_NUMBER.findall(value))
    return times, numbers, frozenset(w for w in word_tuple(value) if w in weekdays)


def is_offer(text: str, pack: CallerPack) -> bool:
    """A yes/no proposal ("Shall I book it?"), not an open question ("Which pizza would you like?")."""
    for sentence in sentences(text):
        low = sentence.lower()
        if any(p in low for p in pack.offers) and not set(words(sentence)) & pack.wh_words:
            return True
    return False


def is_question(text: str, pack: CallerPack) -> bool:
    """The agent asks something (a question mark, or an offer the caller must answer)."""
    low = text.lower()
    return "?" in text or any(p in low for p in pack.offers)


def settled(agent_text: str, goal: str, facts: Mapping[str, str], pack: CallerPack) -> bool:
    """The agent says the caller's goal is taken care of (a statement, not a question).

    Either it reports the goal done in the language's own words ("done", "all set",
    "confirmed"…) while speaking of what the goal or the facts name, or — for a caller who
    only wants to know something — it answers about what the goal asks.
    """
    about = content(goal, pack) | {w for v in facts.values() for w in content(v, pack)}
    asks_only = any(w in pack.ask_goals for w in words(goal)[:2])
    # "You're booked for Wednesday 09:00. Anything else?": the statement settles it, the
    # closing question does not undo that; an offer ("Shall I book it?") settles nothing.
    for sentence in sentences(agent_text):
        if is_question(sentence, pack):
            continue
        said = content(sentence, pack)
        if not said & about:
            continue
        if any(p in sentence.lower() for p in pack.done):
            return True
        if asks_only and said & content(goal, pack):
            return True
    return False
