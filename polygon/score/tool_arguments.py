"""A tool sent an identifier of the caller's that nobody gave: the agent acted on another record.

An agent that looks up order "A-200" when its caller said "A-100" tells the caller another
customer's status as theirs, and the caller cannot know; a suite without ``expect.calls``
passed such calls (the starter suite's agent, changed to look up the wrong order, passed 7
of 8). An argument carries one of the caller's facts when its key shares a word with the
fact's key (``order_id`` and ``order``, ``phone_number`` and ``phone``); its number (three
digits or more, said in digits or in any pack's number words) must then stand in something
the agent had at that point: what the caller said or the agent heard, a tool's earlier
result or argument, the persona's facts, the agent's prompt. A number the agent took from
any of them ("A-104 — no, 100": either) is the caller's or the tool's doing, not invented;
``expect.calls`` says which one was right.

A fact shaped as a person's name ("Ana Kovac") is read the same way, word by word: each
capitalised word of the argument carrying it must stand in one of those sources, case and
accents aside ("Kovac Horvat" for a caller who said "Ana Kovac" fails; what the noise left,
"Kovac", and a title, "Mrs", do not).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from polygon.languages import LANGUAGES, load_language
from polygon.score.detectors import digit_runs
from polygon.score.json_strings import json_strings
from polygon.score.spoken_values import amount_key
from polygon.transcript import ConversationView, TurnView

MIN_DIGITS = 3
"""Fewer digits (a party of 2, "slot 1") identify nothing."""
_KEY_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_GENERIC = frozenset({"number", "num", "code", "value", "new", "old", "date", "time", "day"})
"""Key words that name no fact of their own (``account_number`` and ``booking_number`` differ;
``date`` and ``date_of_birth`` do too)."""
_DATE_OR_TIME = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[:.]\d{2}(?!\d)|\d{1,2}[./]\d{1,2}[./]\d{2,4}")
"""A date or a clock time is no identifier: dates are the date rules' business, and often made
from words ("tomorrow")."""


def invented_arguments(
    view: ConversationView, prompt: str | None = None
) -> Iterator[tuple[TurnView, list[str]]]:
    """Each turn whose tool calls sent a fact-carrying number that no source had given."""
    persona = view.started.persona if view.started else None
    facts = {k: str(v) for k, v in persona.facts.items()} if persona else {}
    if not facts or not any(_carries_a_fact(c.arguments, facts) for t in view.turns for c in t.tools):
        return  # most calls send no fact of the caller's: nothing is read
    sources = _Sources([*facts.values(), prompt or ""])
    for t in view.turns:
        sources.add([t.caller_text, t.heard_text or ""])
        found = []
        for c in t.tools:
            if _carries_a_fact(c.arguments, facts):
                found += _invented(c.tool, c.arguments, facts, sources.numbers())
                found += _invented_names(c.tool, c.arguments, facts, sources.names())
            for part in (c.arguments, c.result):  # keys too: {"A-200": "shipped"} gives "A-200"
                sources.add(list(json_strings(part, keys=True, numbers=True)))
        if found:
            yield t, found


class _Sources:
    """What the agent had so far, read only when an argument is to be held against it."""

    def __init__(self, texts: list[str]) -> None:
        self._unread = list(texts)
        self._numbers: set[str] = set()
        self._names: set[str] = set()

    def add(self, texts: list[str]) -> None:
        self._unread += texts

    def _catch_up(self) -> None:
        if self._unread:
            self._numbers |= _numbers(self._unread)
            self._names |= _name_words(self._unread)
            self._unread = []

    def numbers(self) -> set[str]:
        self._catch_up()
        return self._numbers

    def names(self) -> set[str]:
        self._catch_up()
        return self._names


def _carries_a_fact(arguments: Any, facts: dict[str, str]) -> bool:
    return isinstance(arguments, dict) and any(_fact_carried(str(k), facts) for k in arguments)


def _invented(tool: str, arguments: Any, facts: dict[str, str], known: set[str]) -> list[str]:
    out = []
    for key, value in arguments.items() if isinstance(arguments, dict) else ():
        fact = _fact_carried(str(key), facts)
        if fact is None or not isinstance(value, str | int) or isinstance(value, bool) or amount_key(key):
            continue  # an amount (order_total: 1700) is summed, not given: the amount rules read it
        if _DATE_OR_TIME.search(str(value)):
            continue
        runs = _numbers([str(value)])
        if runs and not all(_held(r, known) for r in runs):
            out.append(
                f"sent {tool} {key}={json.dumps(value, ensure_ascii=False)}, a number no caller turn, "
                f"tool, fact or prompt gave (the caller's {fact}: {facts[fact]!r})"
            )
    return out


def _invented_names(tool: str, arguments: Any, facts: dict[str, str], names: set[str]) -> list[str]:
    """A fact-carrying argument for a person's name holding a capitalised word no source gave.

    adversary: the clinic agent that booked "Kovac Horvat" for a caller who said "Ana Kovac"
    passed. Only a fact shaped as a name (two to four capitalised words, no digit) is read, and
    only the argument's capitalised words ("unknown", a placeholder, is none); a word counts
    without its accents ("Kovač" stands for "Kovac").
    """
    out = []
    for key, value in arguments.items() if isinstance(arguments, dict) else ():
        fact = _fact_carried(str(key), facts)
        if fact is None or not isinstance(value, str) or not _name_shaped(facts[fact]):
            continue
        new = [w for w in _WORD.findall(value) if w[:1].isupper() and _plain(w) not in names | _TITLES]
        if new:
            out.append(
                f"sent {tool} {key}={json.dumps(value, ensure_ascii=False)}, a name no caller turn, "
                f"tool, fact or prompt gave (the caller's {fact}: {facts[fact]!r})"
            )
    return out


_WORD = re.compile(r"[^\W\d_]+")
_TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "jr", "sr", "sir", "madam"})
"""Titles an agent puts before a name the caller gave without one."""


def _name_shaped(value: str) -> bool:
    """Two to four capitalised words without a digit ("Ana Kovac", "Marko Babić")."""
    said = value.split()
    return 2 <= len(said) <= 4 and all(w[:1].isupper() and not any(c.isdigit() for c in w) for w in said)


def _plain(word: str) -> str:
    """A word in lower case without its accents."""
    if word.isascii():  # nothing to take off (most words of most calls): no decomposition
        return word.lower()
    return "".join(ch for ch in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(ch))


def _name_words(texts: Iterable[str]) -> set[str]:
    """Every word the texts hold, plain (a source's words, read case- and accent-blind)."""
    return {_plain(w) for text in texts if text for w in _WORD.findall(text)}


def _fact_carried(key: str, facts: dict[str, str]) -> str | None:
    """The fact an argument's key names by a word of its own ("order_id" → "order").

    Not an address: an agent completes one from what it knows ("Ilica 12" sent as "Ilica 12,
    10000 Zagreb"), and a postcode nobody said is no other customer's record.
    """
    words = _words(key)
    if not words or words & _places():
        return None
    return next((fact for fact in facts if words & _words(fact)), None)


@cache
def _places() -> frozenset[str]:
    """Every pack's words for an address or a location ("address", "street", "adresa", "адрес")."""
    packs = [load_language(code).understand.concepts for code in LANGUAGES]
    return frozenset(w for c in packs for concept in ("address", "location") for w in c.get(concept, ()))


def _words(key: str) -> frozenset[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", key).lower()
    return frozenset(_KEY_WORD.findall(spaced)) - _GENERIC


def _numbers(texts: Iterable[str]) -> set[str]:
    """Every digit string of three digits or more the texts hold (digits or number words)."""
    return {r.digits for text in texts if text for r in digit_runs(text) if len(r.digits) >= MIN_DIGITS}


def _held(digits: str, known: set[str]) -> bool:
    """A number stands in a source, whole or inside a longer one ("0100" of "555 0100")."""
    return any(digits in k for k in known)
