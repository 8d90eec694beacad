"""What an imported call's caller gives as its own identity, not a name it merely asks about.

An imported call has no persona: the caller's words are all that says who it is. But a
caller names other people too ("my friend henrik jensen is staying with you, which room is
he in?"), and a lookup by such a name is that person's record. The caller names itself
after the words the language files give for it ("this is", "my name is", "hier spricht",
the words before the name in the caller's own scripted lines ``say.open_named`` and
``say.fact_name``), after a word for a name ("name okafor", "surname"), and in its answer
to an agent that asked for a name. Nothing here knows a language beyond those files.
"""

from __future__ import annotations

import re
from functools import cache

from polygon.languages import LANGUAGES, load_language
from polygon.score.name_words import WORD

_CLAUSE = re.compile(r"[,.!?;:()\n]+")
"""Where what the caller says about itself ends ("this is laura bennett, booking ...")."""
_SLOTS = ("{name}", "{value}")
_START = 4
"""A word for a name this long is matched as a word start (the language files write "фамили")."""
_AFTER = 4
_POSSESSIVE = re.compile(r"['’]")
"""Words after a marker that may be the caller's name ("anna de la cruz")."""


@cache
def name_words() -> frozenset[str]:
    """Every language file's words for a name ("name", "surname", "heiße")."""
    packs = [load_language(c) for c in LANGUAGES]
    return frozenset(w.lower() for p in packs for w in p.understand.concepts.get("name", ()))


@cache
def _markers() -> re.Pattern[str]:
    """The words after which a caller says its own name, in any language file, as one pattern."""
    marks = set(name_words())
    for code in LANGUAGES:
        pack = load_language(code)
        marks |= {p.strip().lower() for p in pack.acts.introduces + pack.understand.self_intro if p.strip()}
        for line in (pack.say.open_named, pack.say.fact_name):
            before = next((line.split(slot)[0] for slot in _SLOTS if slot in line), "")
            lead = _CLAUSE.split(before)[-1].strip().lower()
            if lead:
                marks.add(lead)
    alternatives = "|".join(_as_pattern(m) for m in sorted(marks, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def _as_pattern(mark: str) -> str:
    """A word for a name of :data:`_START` letters or more is a word start ("фамили" → "фамилия")."""
    start = mark in name_words() and len(mark) >= _START
    return re.escape(mark) + (r"\w*" if start else "")


def _names_a_name(word: str) -> bool:
    low = word.lower()
    return any(low == m or (len(m) >= _START and low.startswith(m)) for m in name_words())


def asks_name(agent_text: str) -> bool:
    """The agent asked for a name: the caller's next words are about itself."""
    return any(_names_a_name(w) for w in WORD.findall(agent_text))


@cache
def _relations() -> frozenset[str]:
    """Every language file's words for another person of the caller's ("wife", "freund", "жену")."""
    return frozenset(w.lower() for c in LANGUAGES for w in load_language(c).understand.relations)


def introduced(text: str) -> str:
    """The parts of the caller's words that name the caller itself, one per line ("" if none).

    Not after a word for another person in the same clause ("my friend is called jensen",
    "мою жену зовут сара"), and only up to one ("this is dan, my wife sarah ...").
    """
    out: list[str] = []
    for clause in _CLAUSE.split(text):
        for m in _markers().finditer(clause):
            if _kin(WORD.findall(clause[: m.start()])):
                continue
            words = WORD.findall(clause[m.end() :])[:_AFTER]
            kin = [i for i, w in enumerate(words) if _kin([w])]
            out.append(" ".join(words[: kin[0]] if kin else words))
    return "\n".join(s for s in out if s)


def _kin(words: list[str]) -> bool:
    """A word for another person, possessive too ("wife's")."""
    return any(_POSSESSIVE.split(w.lower())[0] in _relations() for w in words)
