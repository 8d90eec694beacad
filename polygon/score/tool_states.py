"""A tool's yes/no answers and states, and what the agent claims against them.

:mod:`polygon.score.tool_facts` compares values: dates, times, amounts. A tool also answers
yes or no (``{"eligible": false}``, ``{"eu261_cash": false}``) or gives a state (``status:
"cancelled"``, ``refund_status: "rejected"``); an agent that then tells the caller "you are
eligible", "you will receive 600 euros in cash" or "your flight is on time" contradicts its
tool as surely as a wrong date, and the caller cannot know (the tester's EU261 desk passed
such calls). The words are the language packs' (``spoken.flags``, ``spoken.states``,
``spoken.conditions``), read in any language:

* a flag: every key of the call's tool results so far whose words all name flags said no
  (``eligible``, ``is_eligible``, ``eu261_cash``), and no key naming the flag said yes
  (``voucher_eligible: true`` leaves "you are eligible for a voucher" alone); the agent says
  it is yes, and nowhere in its turn that it is not ("passengers are entitled to it after
  three hours, but you are not");
* a state: the tools gave states of one group (``trip``: cancelled, on time, delayed) and the
  agent says another of that group, and nowhere in its turn one the tools gave ("your flight
  was cancelled; the new one is on time" passes).

A claim is read in a clause with no negation ("you are not eligible"), in a sentence with no
condition or question ("if it is approved", "whether you are eligible", "would you like …?").
* a store's state: a stateful stub's store the call only read (``orders: {A-100: open, A-200:
  shipped}``) names its own states, in the suite's words: after a tool gave one ("open"), the
  agent says another of that store as a claim ("your order is shipped"), in no clause set
  ahead in time (the packs' ``spoken.ahead``: "it will be shipped tomorrow"), and nowhere in
  its turn one the tools gave. A store the call wrote to is left alone (its values moved).

A state another tool acted on since is no longer held: once a later call of another tool
succeeded with an argument value the call that gave the state had (``pay_fine(ZG 1234-AB)``
after ``lookup_fine(ZG 1234-AB) → stanje: neplaćena``), the state may have moved, and "kazna
je plaćena" is the news, not a contradiction.

Only the "yes" side of a flag is read: "you are not eligible" after ``eligible: true`` may be
about another thing (a voucher), and is left to the judge.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

import regex

from polygon.languages import LANGUAGES, load_language
from polygon.transcript import ConversationView, TurnView

_KEY_PART = re.compile(r"[A-Z]?[^\W\d_A-Z]+|[A-Z]+(?![a-z])", re.UNICODE)
_MIN_PART = 4
"""Shorter key words ("is", "has", "can", the "eu" of "eu261") name no flag."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_CLAUSE = re.compile(r"[,;:—–]| - | but | aber | pero | но | ali ")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_MIN_ABOUT = 3
"""Shortest argument value that names the thing a call is about (a plate, a booking, a claim)."""
_MAX_STATE = 40
"""A longer string is a sentence, not a state."""


@cache
def _flags() -> dict[str, tuple[frozenset[str], regex.Pattern[str]]]:
    """A flag (its names as the files write them) → the starts of its keys' words, its phrases."""
    phrases: dict[str, list[str]] = {}
    for code in LANGUAGES:
        for names, said in load_language(code).spoken.flags.items():
            phrases.setdefault(names, []).extend(said)
    return {n: (frozenset(n.split()), _compiled(p)) for n, p in phrases.items()}


@cache
def _states() -> dict[str, tuple[frozenset[str], regex.Pattern[str]]]:
    """A state (``group.name``) → the tool values that give it, the phrases that say it."""
    values: dict[str, set[str]] = {}
    phrases: dict[str, list[str]] = {}
    for code in LANGUAGES:
        for name, state in load_language(code).spoken.states.items():
            values.setdefault(name, set()).update(state.values)
            phrases.setdefault(name, []).extend(state.said)
    return {n: (frozenset(values[n]), _compiled(phrases[n])) for n in values}


def _compiled(phrases: list[str]) -> regex.Pattern[str]:
    return regex.compile("|".join(f"(?:{p})" for p in phrases), regex.IGNORECASE)


@cache
def _negations() -> tuple[str, ...]:
    return tuple(sorted({w for code in LANGUAGES for w in load_language(code).acts.negation}))


@cache
def _hedges() -> regex.Pattern[str]:
    return _compiled([p for code in LANGUAGES for p in load_language(code).acts.hedge])


@cache
def _conditions() -> frozenset[str]:
    return frozenset(w for code in LANGUAGES for w in load_language(code).spoken.conditions)


@dataclass(frozen=True)
class _Gave:
    """What one tool gave under one key."""

    tool: str
    key: str
    value: Any
    about: frozenset[str] = frozenset()
    """The argument values of the call that gave it: the thing whose state it is."""


@dataclass(frozen=True)
class _Store:
    """A stateful stub's store the call only read, and the states its values name."""

    name: str
    states: frozenset[str]
    """Its values that read as a state (``open``, ``in_transit`` as "in transit"), lower case."""


@dataclass
class _Given:
    """The flags and states the call's tools gave so far."""

    no: dict[str, _Gave] = field(default_factory=dict)
    """A flag → the key that said no (while no key said yes)."""
    yes: set[str] = field(default_factory=set)
    states: dict[str, dict[str, _Gave]] = field(default_factory=dict)
    """A group → each of its states a tool gave."""
    stores: tuple[_Store, ...] = ()
    store_states: dict[_Store, dict[str, _Gave]] = field(default_factory=dict)
    """A store → each of its states a tool gave."""

    def read(self, tool: str, result: Any, arguments: dict[str, Any] | None = None) -> None:
        about = _values_of(arguments or {})
        self._moved(tool, about)
        for key, value in _items(result):
            if isinstance(value, bool):
                self._flag(_Gave(tool, key, value))
            elif isinstance(value, str):
                self._state(_Gave(tool, key, value, about))

    def _moved(self, tool: str, about: frozenset[str]) -> None:
        """Forget the states another tool gave of the thing this call acted on.

        ``pay_fine(ZG 1234-AB)`` after ``lookup_fine(ZG 1234-AB) → stanje: neplaćena`` may have
        paid it: "kazna je plaćena" is then the news, not a contradiction (trial7).
        """
        for group, states in list(self.states.items()):
            kept = {n: g for n, g in states.items() if g.tool == tool or not g.about & about}
            if kept:
                self.states[group] = kept
            else:
                del self.states[group]

    def _state(self, gave: _Gave) -> None:
        if state := state_of(gave.value):
            group, _ = state.split(".", 1)
            self.states.setdefault(group, {}).setdefault(state, gave)
        said = _state_words(gave.value)
        for store in self.stores:
            if said in store.states:
                self.store_states.setdefault(store, {}).setdefault(said, gave)

    def _flag(self, gave: _Gave) -> None:
        named = _key_flags(gave.key)
        if gave.value:
            self.yes |= {f for f in named if f}
            return
        if named and all(named):  # every word of the key names a flag: the answer is about it
            for flag in named:
                self.no.setdefault(flag, gave)

    def flags_no(self) -> dict[str, _Gave]:
        return {f: g for f, g in self.no.items() if f not in self.yes}


def _values_of(arguments: dict[str, Any]) -> frozenset[str]:
    """A call's argument values that can name a thing, as text, case and spacing aside.

    Values under three characters ("1", "en") name no thing: two calls sharing one say nothing.
    """
    said = (" ".join(str(v).lower().split()) for v in arguments.values() if isinstance(v, (str, int)))
    return frozenset(v for v in said if len(v) >= _MIN_ABOUT)


def _items(result: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of a JSON result, at any depth."""
    if isinstance(result, dict):
        for key, value in result.items():
            yield str(key), value
            yield from _items(value)
    elif isinstance(result, list):
        for item in result:
            yield from _items(item)


@lru_cache(maxsize=1024)
def _key_flags(key: str) -> tuple[str, ...]:
    """The flag each word of a key names ("" for a word naming none); short words left out."""
    parts = [p.lower() for p in _KEY_PART.findall(key) if len(p) >= _MIN_PART]
    flags = _flags().items()
    return tuple(next((f for f, (starts, _) in flags if p.startswith(tuple(starts))), "") for p in parts)


@lru_cache(maxsize=4096)
def state_of(value: str) -> str:
    """The state (``group.name``) a tool's string value gives, or "".

    "CANCELLED_BY_AIRLINE" gives ``trip.cancelled``.
    """
    if len(value) > _MAX_STATE:
        return ""
    said = " ".join(value.lower().replace("_", " ").replace("-", " ").split())
    for name, (values, _) in _states().items():
        if any(said == v or said.startswith(v + " ") for v in values):
            return name
    return ""


def affirmed(sentence: str) -> list[str]:
    """The clauses of a sentence with no negation in them, as written."""
    return [c for c in _CLAUSE.split(sentence) if not negated(c)]


def negated(clause: str) -> bool:
    """A clause holds a negation of any pack ("not", "n't", "no", "nicht", "не")."""
    low = " " + clause.lower().replace("\u2019", "'") + " "
    return any(n in low for n in _negations())


@lru_cache(maxsize=4096)
def _claiming(text: str) -> tuple[str, ...]:
    """The clauses of ``text`` that claim something (lower case).

    Not in a question, a sentence with a condition word or a hedge (the packs' ``acts.hedge``:
    "whether you qualify is decided by the airline"), nor with a negation in the clause.
    """
    out: list[str] = []
    for sentence in _SENTENCE.split(text.replace("\u2019", "'")):
        low = sentence.lower()
        if "?" in low or _conditional(low) or _hedges().search(low):
            continue
        out += affirmed(low)
    return tuple(out)


def _conditional(low: str) -> bool:
    """A sentence has a condition word that opens a clause: one followed by a comma or "!" is none.

    A transcript's or a model's Spanish often drops the accent of "sí" ("Si, usted tiene derecho
    …"), and that "si" is no "if": a claim after it went unchecked. An "if" never stands alone.
    """
    return any(m.group() in _conditions() and not _ALONE.match(low, m.end()) for m in _WORD.finditer(low))


_ALONE = re.compile(r"\s*[,!]")


@cache
def _slot_words() -> regex.Pattern[str]:
    return _compiled([w for code in LANGUAGES for w in load_language(code).spoken.slot_words])


def books_a_day(sentence: str) -> bool:
    """A sentence names the day booked: a pack's ``slot_words`` ("see you", "rebooked"), as a claim.

    A weekday said alone in it ("See you on Tuesday") is held against the date a tool booked;
    not in one with a negation, a condition or a question ("we don't fly on Saturday").
    """
    low = sentence.lower().replace("\u2019", "'")
    return _slot_words().search(low) is not None and _claiming(low) == tuple(_CLAUSE.split(low))


def _said_states(text: str, clauses: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The states the clauses claim, and every state the text names at all."""
    claimed, named = set(), set()
    for name, (_, pattern) in _states().items():
        if pattern.search(text):
            named.add(name)
            claimed |= {name for c in clauses if pattern.search(c)}
    return claimed, named


def _turn_claims(t: TurnView, given: _Given) -> list[str]:
    """What the agent's turn claims against the flags and states its tools gave so far."""
    text = (t.agent_text or "").replace("\u2019", "'")
    clauses = _claiming(text)
    out = []
    denied = [c for c in _CLAUSE.split(text.lower()) if negated(c)]
    for flag, gave in given.flags_no().items():
        pattern = _flags()[flag][1]
        m = next((m for c in clauses if (m := pattern.search(c))), None)
        if m and not any(pattern.search(c) for c in denied):  # "passengers are entitled …, but you are not"
            out.append(f"said {m.group(0)!r}, {gave.tool} gave {gave.key}: {_json(gave.value)}")
    claimed, named = _said_states(text, clauses)
    for group, states in given.states.items():
        theirs = {s for s in claimed if s.startswith(group + ".")}
        if theirs and not named & states.keys():
            gave = next(iter(states.values()))
            said = sorted(s.split(".", 1)[1].replace("_", " ") for s in theirs)
            out.append(f"said it is {' / '.join(said)}, {gave.tool} gave {gave.key}: {_json(gave.value)}")
    return out + _store_claims(text, clauses, given)


def _store_claims(text: str, clauses: tuple[str, ...], given: _Given) -> list[str]:
    """A store's state the agent claims while its tools gave only others of that store."""
    low = " ".join(_WORD.findall(text.lower()))
    now = [_WORD.findall(c.replace("'s ", " is ").replace("'re ", " are ")) for c in clauses if not _ahead(c)]
    out = []
    for store, gave in given.store_states.items():
        if any(re.search(rf"\b{re.escape(v)}", low) for v in gave):  # "opened" names "open"
            continue
        for other in sorted(store.states - gave.keys()):
            if _apart(other, gave) and any(_stated(other.split(), words) for words in now):
                first = next(iter(gave.values()))
                out.append(f"said it is {other}, {first.tool} gave {first.key}: {_json(first.value)}")
    return out


def _stated(state: list[str], words: list[str]) -> bool:
    """The state's words stand in the clause with a pack's verb of being just before them.

    "is", "has", "je", "ist", "está", at most three words before: "feel free to call" says no
    slot is free.
    """
    n = len(state)
    return any(
        words[i : i + n] == state and not _verbs_of_being().isdisjoint(words[max(0, i - 3) : i])
        for i in range(len(words) - n + 1)
    )


@cache
def _verbs_of_being() -> frozenset[str]:
    return frozenset(w for code in LANGUAGES for w in load_language(code).acts.states)


def _apart(state: str, gave: dict[str, _Gave]) -> bool:
    """A state shares no word with one the tools gave ("not shipped" against "shipped")."""
    words = set(state.split())
    return all(words.isdisjoint(g.split()) for g in gave)


def _ahead(clause: str) -> bool:
    return not _ahead_words().isdisjoint(_WORD.findall(clause))


@cache
def _ahead_words() -> frozenset[str]:
    return frozenset(w for code in LANGUAGES for w in load_language(code).spoken.ahead)


@lru_cache(maxsize=4096)
def _state_words(value: str) -> str:
    """A store value as the state it names, in lower-case words; "" for one that names none.

    A state is one to three words of letters ("open", "IN_TRANSIT"); a value with a digit (a time,
    a price), a longer one, or a word every reading skips (a stop word, "yes", "no") is none.
    """
    if len(value) > _MAX_STATE or any(ch.isdigit() for ch in value):
        return ""
    words = value.lower().replace("_", " ").replace("-", " ").split()
    if not 1 <= len(words) <= 3 or not all(w.isalpha() for w in words):
        return ""
    said = " ".join(words)
    return "" if len(said) < 3 or said in _plain_words() else said


@cache
def _plain_words() -> frozenset[str]:
    """Words that name no state: every pack's stop words and yes/no answers."""
    packs = [load_language(code) for code in LANGUAGES]
    return frozenset(w for p in packs for w in (*p.understand.stop_words, *p.acts.yes_no))


def _read_only_stores(view: ConversationView) -> tuple[_Store, ...]:
    """The call's stateful stores it ended without writing to, with two states or more."""
    if view.started is None or view.ended is None:
        return ()
    out = []
    for name, before in sorted(view.started.initial_state.items()):
        if view.ended.final_state.get(name) != before:
            continue
        states = frozenset(filter(None, map(_state_words, before.values())))
        if len(states) >= 2:
            out.append(_Store(name, states))
    return tuple(out)


def _json(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else repr(value)


def claim_contradictions(view: ConversationView) -> Iterator[tuple[TurnView, list[str]]]:
    """Each agent turn that claims a flag or a state its tools gave otherwise, with what it said."""
    given = _Given(stores=_read_only_stores(view))
    for t in view.turns:
        for c in t.tools:
            if not c.error:
                given.read(c.tool, c.result, c.arguments)
        if t.agent_text and (given.no or given.states or given.store_states):
            found = _turn_claims(t, given)
            if found:
                yield t, found
