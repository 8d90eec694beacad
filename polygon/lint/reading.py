"""What every tier needs to know about each unit: its force, polarity, vague words, objects.

Read once per prompt from the language's lexicon; the rules tier scores from it, and the
embedding and surprisal tiers reuse the polarity (a similar pair of opposite polarity is a
contradiction candidate) and the hard rules (whose position matters in a long prompt).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import regex

from polygon.lint.lexicon import LEXICONS, Lexicon, words_of
from polygon.lint.text import Prompt, Unit

_CYRILLIC = regex.compile(r"\p{Cyrillic}")
_HR_LETTERS = regex.compile(r"[čćžšđ]", regex.IGNORECASE)
_HR_WORDS = frozenset(words_of("je i u se da na za ne što su uvijek nikada molim ako ili kada"))
_EN_WORDS = frozenset(words_of("the and you to of a is if for with your are be not"))
_CODE = regex.compile(r"`[^`\n]*`")


def detect_language(text: str) -> str:
    """``ru`` for Cyrillic, ``hr`` for Croatian letters or words, else ``en``."""
    letters = regex.findall(r"\p{L}", text)
    if letters and len(_CYRILLIC.findall(text)) > 0.3 * len(letters):
        return "ru"
    words = regex.findall(r"\p{L}+", text.lower())
    hr = sum(w in _HR_WORDS for w in words) + 3 * len(_HR_LETTERS.findall(text))
    en = sum(w in _EN_WORDS for w in words)
    return "hr" if hr > en else "en"


@dataclass(frozen=True)
class Hit:
    """A marker found in the text: where, and which marker."""

    start: int
    end: int
    marker: str


@dataclass(frozen=True)
class UnitReading:
    """One unit as the tiers see it."""

    unit: Unit
    polarity: int
    """+1 a hard must/always, -1 a hard never/do-not, 0 neither."""
    allows: bool
    """Grants a permission or waives a duty (weakens a hard rule on the same object)."""
    vague: tuple[Hit, ...]
    weak_vague: tuple[Hit, ...]
    force: tuple[Hit, ...]
    """The must/never markers themselves."""
    stems: frozenset[str]
    """The unit's content words, crudely stemmed: what the rule is about."""

    @property
    def hard(self) -> bool:
        """A hard constraint (must or never)."""
        return self.polarity != 0


@dataclass(frozen=True)
class Reading:
    """The whole prompt read: units with their readings, and the words every unit shares."""

    prompt: Prompt
    language: str
    units: tuple[UnitReading, ...]
    common: frozenset[str]
    """Stems in so many units that sharing them says nothing about a shared object."""

    @property
    def word_count(self) -> int:
        """Words in the prompt."""
        return len(self.prompt.words)

    def objects(self, reading: UnitReading) -> frozenset[str]:
        """The unit's stems less the ubiquitous ones."""
        return reading.stems - self.common

    def sharing(self, least: int, *, common_too: bool = False) -> list[tuple[UnitReading, UnitReading]]:
        """Pairs of units (in order) sharing at least ``least`` stems.

        Found through an index of stems, not by comparing every pair (a long prompt has
        thousands of pairs).
        """
        index: dict[str, list[int]] = {}
        for i, u in enumerate(self.units):
            for stem_ in u.stems if common_too else self.objects(u):
                index.setdefault(stem_, []).append(i)
        counts: Counter[tuple[int, int]] = Counter()
        for holders in index.values():
            for x, i in enumerate(holders):
                for j in holders[x + 1 :]:
                    counts[(i, j)] += 1
        return [(self.units[i], self.units[j]) for (i, j), n in sorted(counts.items()) if n >= least]


def read_prompt(prompt: Prompt, language: str) -> Reading:
    """Read every unit with the language's lexicon."""
    lex = LEXICONS[language]
    units = tuple(_read_unit(prompt, unit, lex) for unit in prompt.units)
    counts = Counter(stem for u in units for stem in u.stems)
    limit = max(3, int(0.3 * len(units)))
    common = frozenset(stem for stem, n in counts.items() if n > limit)
    return Reading(prompt=prompt, language=language, units=units, common=common)


def _read_unit(prompt: Prompt, unit: Unit, lex: Lexicon) -> UnitReading:
    text = _CODE.sub(lambda m: " " * len(m.group()), unit.text.lower())
    must = _find(text, unit.start, lex.must)
    never = _find(text, unit.start, lex.never) + _find_patterns(text, unit.start, lex.never_patterns)
    allow = _find(text, unit.start, lex.allow)
    never = tuple(h for h in never if not _inside_any(h, allow))
    polarity = -1 if never else 1 if must else 0
    if polarity == -1 and _find(text, unit.start, lex.without):
        polarity = 1  # "never book without confirming" asks to confirm: a must
    words = [w.text for w in prompt.unit_words(unit) if not _in_code(unit.text, w.start - unit.start)]
    stems = frozenset(stem(w, lex) for w in words if w not in lex.stop and len(w) > 2 and not w.isdigit())
    vague = _find(text, unit.start, lex.vague)
    weak = tuple(h for h in _find(text, unit.start, lex.weak_vague) if not _overlaps_any(h, vague))
    return UnitReading(
        unit=unit,
        polarity=polarity,
        allows=bool(allow),
        vague=vague,
        weak_vague=weak,
        force=(never or must),
        stems=stems,
    )


def stem(word: str, lex: Lexicon) -> str:
    """A crude stem: a known ending off, then the first six letters."""
    for suffix in lex.suffixes:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    if lex.silent_e and word.endswith("e") and len(word) > 3:
        word = word[:-1]  # "price" and "prices" (→ "pric") are one word
    return word[:6]


def _in_code(text: str, at: int) -> bool:
    return text.count("`", 0, at) % 2 == 1


def _inside_any(hit: Hit, others: tuple[Hit, ...]) -> bool:
    return any(o.start <= hit.start and hit.end <= o.end for o in others)


def _overlaps_any(hit: Hit, others: tuple[Hit, ...]) -> bool:
    return any(o.start < hit.end and hit.start < o.end for o in others)


def _find(text: str, offset: int, markers: tuple[str, ...]) -> tuple[Hit, ...]:
    """Every marker of the list in ``text``, non-overlapping; the longest wins where two start."""
    if not markers:
        return ()
    found = _markers_re(markers).finditer(text)
    return tuple(Hit(offset + m.start(), offset + m.end(), m.group()) for m in found)


def _find_patterns(text: str, offset: int, patterns: tuple[str, ...]) -> tuple[Hit, ...]:
    return tuple(
        Hit(offset + m.start(), offset + m.end(), m.group())
        for pattern in patterns
        for m in regex.finditer(pattern, text)
    )


@lru_cache(maxsize=64)
def _markers_re(markers: tuple[str, ...]) -> regex.Pattern[str]:
    """One alternation per marker list (a stem, "разумн*", takes any ending)."""
    parts = [
        regex.escape(m[:-1]) + r"\w*" if m.endswith("*") else regex.escape(m) + r"(?!\w)"
        for m in sorted(markers, key=len, reverse=True)
    ]
    return regex.compile(r"(?<!\w)(?:" + "|".join(parts) + ")")
