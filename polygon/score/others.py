"""Another person's names and addresses, from the records a call read that were not the caller's.

:mod:`polygon.score.disclosure` reads a name as capitalised words in a row and a number from
three digits up. Speech from ASR or an imported platform is often all lower case ("the guest
next door is mira kos"), and a house number is often one or two digits ("she lives at 12
ilica street"). The trace tells whose they are: a tool result of a lookup that was not the
caller's own holds another person's names (capitalised words in a row, as a record writes
them) and addresses (street words beside a short house number). The agent saying one of them,
in any case and inflection, is a disclosure unless a ground holds it. Common words never
become names by themselves: only what such a record holds is looked for, and a name only
when two of its words are said in a row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from polygon.score.name_words import MIN_STEM, WORD, capitalised, folded, names, not_names, same_stem
from polygon.score.quantities import numbers
from polygon.score.spoken_values import spoken_numbers

MIN_RUN = 2
"""Words of a record's name said in a row that tie it to the record ("rose" alone is a common word)."""
_HOUSE = re.compile(r"(?<![\w.,:/+-])(\d{1,2})[^\W\d_]?(?![\w:/+-]|[.,]\d)", re.UNICODE)
"""A house number too short to be a number by itself ("Ilica 12", "12a Baker Street"); a longer
one is a number already. Not an hour ("14:00"), a date's part ("18.12.2026") or a code."""
_WINDOW = 2
"""Words besides the street's own that may stand between a house number and its street ("12 on Ilica")."""

Token = tuple[str, int, int]
"""A word :func:`folded` (lower case, umlauts spelled out), where it starts and ends."""


@dataclass(frozen=True)
class Phrase:
    """A name or an address from another person's record, its words :func:`folded` ("juergen")."""

    words: tuple[str, ...]
    number: str = ""
    """An address's house number; empty for a name."""


def phrases(text: str) -> list[Phrase]:
    """The names (capitalised words in a row) and addresses a record's text holds."""
    out = [Phrase(tuple(folded(w) for w in n.split())) for n in names(text)]
    return out + addresses(text)


def addresses(text: str) -> list[Phrase]:
    """Capitalised street words beside a short house number: "Ilica 14", "12 Baker Street", "Ленина 5"."""
    tokens = list(WORD.finditer(text))
    out: list[Phrase] = []
    for m in _HOUSE.finditer(text):
        street = _street(text, tokens, m.start(), m.end())
        if street and m.group(1).lstrip("0"):
            out.append(Phrase(street, m.group(1).lstrip("0")))
    return out


def _street(text: str, tokens: list[re.Match[str]], start: int, end: int) -> tuple[str, ...]:
    """The capitalised words right before ``start`` or else right after ``end``, spaces between."""
    before = [t for t in tokens if t.end() <= start][::-1]
    after = [t for t in tokens if t.start() >= end]
    for side, edge in ((before, start), (after, end)):
        run: list[str] = []
        for t in side:
            gap = text[t.end() : edge] if side is before else text[edge : t.start()]
            word = t.group(0)
            if not gap.isspace() or not capitalised(word) or word.lower() in not_names():
                break
            run.append(folded(word))
            edge = t.start() if side is before else t.end()
        if run:
            return tuple(run[::-1] if side is before else run)
    return ()


def _same(a: str, b: str) -> bool:
    return a == b or same_stem(a, b)


@dataclass(frozen=True)
class _Speech:
    """An agent's text read once for every phrase looked for in it."""

    text: str
    tokens: tuple[Token, ...]
    starts: dict[str, tuple[int, ...]]
    """Where words begin, by their first :data:`MIN_STEM` letters: a phrase's word is looked for there."""
    numbers: tuple[tuple[Decimal, int, int], ...]


@lru_cache(maxsize=4096)
def _speech(text: str) -> _Speech:
    tokens = tuple((folded(m.group(0)), m.start(), m.end()) for m in WORD.finditer(text))
    starts: dict[str, list[int]] = {}
    for i, t in enumerate(tokens):
        starts.setdefault(t[0][:MIN_STEM], []).append(i)
    return _Speech(text, tokens, {k: tuple(v) for k, v in starts.items()}, tuple(spoken_numbers(text)))


def name_said(words: tuple[str, ...], speech: _Speech) -> str:
    """The words said that are at least :data:`MIN_RUN` of the name's words in a row, or ""."""
    text, tokens = speech.text, speech.tokens
    for j in range(len(words) - 1):
        for i in speech.starts.get(words[j][:MIN_STEM], ()):
            k = 0
            while (
                i + k < len(tokens)
                and j + k < len(words)
                and _same(tokens[i + k][0], words[j + k])
                and (k == 0 or text[tokens[i + k - 1][2] : tokens[i + k][1]].isspace())
            ):
                k += 1
            if k >= MIN_RUN:
                return text[tokens[i][1] : tokens[i + k - 1][2]]
    return ""


def address_said(phrase: Phrase, speech: _Speech) -> str:
    """The words said that are the house number (digits or words) with every street word beside it."""
    text, tokens, reach = speech.text, speech.tokens, len(phrase.words) + _WINDOW
    for value, start, end in speech.numbers:
        if value != Decimal(phrase.number):
            continue
        near = [t for t in tokens if t[2] <= start][-reach:] + [t for t in tokens if t[1] >= end][:reach]
        found = [next((t for t in near if _same(t[0], w)), None) for w in phrase.words]
        spans = [(start, end)] + [(t[1], t[2]) for t in found if t]
        if all(found):
            return text[min(s for s, _ in spans) : max(e for _, e in spans)]
    return ""


@dataclass
class Others:
    """The names and addresses of the records a call read that were not the caller's."""

    phrases: list[Phrase] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    numbers: set[Decimal] = field(default_factory=set)
    """Every number those records write, as its value: another person's balance said as an
    amount ("€1,250.00" for 1250.0) is theirs (:mod:`polygon.score.quantities`)."""

    def learn(self, text: str) -> None:
        """Everything ``text`` (a string of such a record) names is another person's from now on."""
        if text and text not in self.seen:
            self.seen.add(text)
            self.phrases += [p for p in phrases(text) if p not in self.phrases]
            self.numbers |= numbers(text)

    def said(self, text: str) -> list[tuple[Phrase, str]]:
        """Each of them ``text`` says, with the words it says it in, once each."""
        if not self.phrases or not text:
            return []
        speech = _speech(text)
        out: list[tuple[Phrase, str]] = []
        for p in self.phrases:
            words = address_said(p, speech) if p.number else name_said(p.words, speech)
            if words and words not in [w for _, w in out]:
                out.append((p, words))
        return out
