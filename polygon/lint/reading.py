"""What every tier needs to know about each unit: its force, polarity, vague words, objects.

Read once per prompt from the language's lexicon; the rules tier scores from it, and the
embedding and surprisal tiers reuse the polarity (a similar pair of opposite polarity is a
contradiction candidate) and the hard rules (whose position matters in a long prompt).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial
from typing import TYPE_CHECKING

import regex

from polygon import languages as _languages
from polygon.languages import LANGUAGES
from polygon.lint import MAX_PARTNERS
from polygon.lint.lexicon import code_of, lexicon
from polygon.lint.modality import Rule, read_rule
from polygon.lint.text import Prompt, Unit

if TYPE_CHECKING:
    from collections.abc import Callable

    from polygon.languages import Lexicon

_CODE = regex.compile(r"`[^`\n]*`")
NO_RULE = Rule(modality="", action="")
_WORDS = regex.compile(r"[\p{L}\p{N}_'’-]+")


_LETTER = regex.compile(r"\p{L}")
_LETTER_RUN = regex.compile(r"\p{L}+")
SCRIPT_SHARE = 0.3
"""A text with more than this share of its letters in a language's own script is in that language."""
LETTER_WEIGHT = 3
"""What one of a language's own letters weighs against one of its words."""
FALLBACK_LANGUAGE = "en"
"""The language of a text no signature tells (and the winner of a tie)."""


@dataclass(frozen=True)
class _Signature:
    """A language file's ``signature`` section, its patterns compiled (``None``: the file gives none)."""

    code: str
    script: regex.Pattern[str] | None
    letters: regex.Pattern[str] | None
    words: frozenset[str]

    def score(self, text: str, words: list[str]) -> int:
        """Its words in ``words`` (the text's, lower case), and its own letters, weighted."""
        own = len(self.letters.findall(text)) if self.letters else 0
        return sum(w in self.words for w in words) + LETTER_WEIGHT * own


@lru_cache(maxsize=1)
def _signatures() -> tuple[_Signature, ...]:
    """Every language's signature, in :data:`polygon.languages.LANGUAGES` order."""
    found = []
    for code in LANGUAGES:
        sign = _languages.load_language(code).signature
        found.append(
            _Signature(
                code=code,
                script=regex.compile(sign.script) if sign.script else None,
                letters=regex.compile(sign.letters) if sign.letters else None,
                words=sign.words,
            )
        )
    return tuple(found)


def detect_language(text: str) -> str:
    """The language whose signature (each language file's ``signature``) ``text`` bears.

    A script of its own decides first (Cyrillic: ``ru``); otherwise the languages that share
    a script score their words and letters, and the highest wins (``en`` on a tie or none).
    """
    signatures = _signatures()
    letters = len(_LETTER.findall(text))
    for sign in signatures:
        if sign.script and letters and len(sign.script.findall(text)) > SCRIPT_SHARE * letters:
            return sign.code
    words = _LETTER_RUN.findall(text.lower())
    scores = {sign.code: sign.score(text, words) for sign in signatures if not sign.script}
    best = FALLBACK_LANGUAGE
    for code, score in scores.items():
        if score > scores.get(best, 0):
            best = code
    return best


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
    rule: Rule = NO_RULE
    """What the unit asks (modality, action, order), read as a reviewer reads a rule."""

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

    @cached_property
    def _rule_objects(self) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
        return tuple((_rule_words(u, u.stems - self.common), _rule_words(u, u.stems)) for u in self.units)

    def rule_objects(self, reading: UnitReading, *, common: bool = False) -> frozenset[str]:
        """What a rule acts on: its content words less its verb's own.

        Less the prompt's ubiquitous words too, unless ``common``.
        """
        return self._rule_objects[reading.unit.index][1 if common else 0]

    def sharing(self, least: int, *, common_too: bool = False) -> list[tuple[UnitReading, UnitReading]]:
        """Pairs of units (in order) sharing at least ``least`` stems.

        Found through an index of stems, not by comparing every pair (a long prompt has
        thousands of pairs).
        """
        counts = self._pairs_all if common_too else self._pairs_objects
        return [(self.units[i], self.units[j]) for (i, j), n in counts if n >= least]

    @cached_property
    def _pairs_objects(self) -> list[tuple[tuple[int, int], int]]:
        return self._pair_counts(common_too=False)

    @cached_property
    def _pairs_all(self) -> list[tuple[tuple[int, int], int]]:
        """Pairs sharing two objects, counted with the ubiquitous words they share as well.

        Pairs that share only ubiquitous words are left out: "the caller", "the booking"
        in common say nothing of one rule repeating another (and counting them is most of
        the work in a long prompt).
        """
        units, common = self.units, self.common
        return [
            ((i, j), n + len(units[i].stems & units[j].stems & common)) for (i, j), n in self._pairs_objects
        ]

    def _pair_counts(self, *, common_too: bool) -> list[tuple[tuple[int, int], int]]:
        index: dict[str, list[int]] = {}
        found: list[tuple[tuple[int, int], int]] = []
        for i, u in enumerate(self.units):
            shared: Counter[int] = Counter()  # every pair (j, i) is counted while reading unit i
            for stem_ in u.stems if common_too else self.objects(u):
                holders = index.setdefault(stem_, [])
                shared.update(partners(holders))
                holders.append(i)
            found += (((j, i), n) for j, n in shared.items() if n >= 2)  # one shared word pairs nothing
        return sorted(found)


def _rule_words(u: UnitReading, words: frozenset[str]) -> frozenset[str]:
    r = u.rule
    return frozenset(s for s in words if s != r.verb and not (r.action and s.startswith(r.action)))


def partners(holders: list[int]) -> list[int]:
    """The earlier holders of a word a unit is compared with, never all (linear work).

    The first few (a rule said early and echoed late is the scattered pair) and the nearest.
    """
    if len(holders) <= MAX_PARTNERS:
        return holders
    head = MAX_PARTNERS // 3
    return holders[:head] + holders[head - MAX_PARTNERS :]


def read_prompt(prompt: Prompt, language: str) -> Reading:
    """Read every unit with the language's lexicon."""
    lex = lexicon(language)
    scan = _Scan(prompt.text, lex)
    units = tuple(_read_unit(prompt, unit, lex, language, scan) for unit in prompt.units)
    counts = Counter(stem for u in units for stem in u.stems)
    limit = max(3, int(0.3 * len(units)))
    common = frozenset(stem for stem, n in counts.items() if n > limit)
    return Reading(prompt=prompt, language=language, units=units, common=common)


def _marker_end(unit: Unit, hits: tuple[Hit, ...], lex: Lexicon) -> int:
    """Where the first force or permission marker ends, relative to the unit (-1: none).

    A pattern hit ("не называйте") holds its verb: the verb starts after the particle.
    """
    if not hits:
        return -1
    first = min(hits, key=lambda h: h.start)
    if first.marker not in lex.never and first.marker not in lex.must and first.marker not in lex.allow:
        return first.start - unit.start + first.marker.find(" ") + 1
    return first.end - unit.start


def _content(text: str, lex: Lexicon) -> frozenset[str]:
    """The stems of the content words of a stretch of a rule."""
    return frozenset(
        stem(w, lex) for w in _WORDS.findall(text) if w not in lex.stop and len(w) > 2 and not w.isdigit()
    )


class _Scan:
    """Every marker list found once over the whole prompt, then handed out per unit.

    One pass per list instead of one per unit: the alternations are most of the rules
    tier's time. Falls back to per-unit scanning when lower-casing changes the text's length
    (offsets would no longer line up).
    """

    LISTS = ("must", "never", "allow", "without", "vague", "weak_vague")

    def __init__(self, text: str, lex: Lexicon) -> None:
        low = text.lower()
        self.whole = len(low) == len(text)
        self.lex = lex
        self.hits: dict[str, tuple[list[int], list[Hit]]] = {}
        if not self.whole:
            return
        low = _CODE.sub(lambda m: " " * len(m.group()), low)
        for name in self.LISTS:
            found = list(_find(low, 0, getattr(lex, name)))
            if name == "never":
                found += _find_patterns(low, 0, lex.never_patterns)
                found.sort(key=lambda h: h.start)
            self.hits[name] = ([h.start for h in found], found)

    def find(self, name: str, unit: Unit, text: str) -> tuple[Hit, ...]:
        """The list's markers inside ``unit`` (``text``: the unit lower-cased, code blanked)."""
        if not self.whole:
            found = _find(text, unit.start, getattr(self.lex, name))
            if name == "never":
                found += _find_patterns(text, unit.start, self.lex.never_patterns)
            return found
        starts, hits = self.hits[name]
        lo, hi = bisect.bisect_left(starts, unit.start), bisect.bisect_left(starts, unit.end)
        return tuple(h for h in hits[lo:hi] if h.end <= unit.end)


def _read_unit(prompt: Prompt, unit: Unit, lex: Lexicon, language: str, scan: _Scan) -> UnitReading:
    text = _CODE.sub(lambda m: " " * len(m.group()), unit.text.lower())
    must = scan.find("must", unit, text)
    never = scan.find("never", unit, text)
    allow = scan.find("allow", unit, text)
    never = tuple(h for h in never if not _inside_any(h, allow))
    polarity = -1 if never else 1 if must else 0
    if polarity == -1 and scan.find("without", unit, text):
        polarity = 1  # "never book without confirming" asks to confirm: a must
    words = [w.text for w in prompt.unit_words(unit)]
    if _code_spans(unit.text):  # most units hold no `code`: skip the per-word look-up
        words = [w.text for w in prompt.unit_words(unit) if not _in_code(unit, w.start)]
    stem_of, stop = stemmer(lex), lex.stop
    stems = frozenset(stem_of(w) for w in words if w not in stop and len(w) > 2 and not w.isdigit())
    rule = read_rule(
        text,
        language,
        must=bool(must),
        must_not=bool(never),
        allows=bool(allow),
        marker_end=_marker_end(unit, never or allow or must, lex),
        stem=lambda w: stem(w, lex),
        content=lambda part: _content(part, lex),
    )
    vague = scan.find("vague", unit, text)
    weak = tuple(h for h in scan.find("weak_vague", unit, text) if not _overlaps_any(h, vague))
    return UnitReading(
        unit=unit,
        polarity=polarity,
        allows=bool(allow),
        vague=vague,
        weak_vague=weak,
        force=(never or must),
        stems=stems,
        rule=rule,
    )


def stem(word: str, lex: Lexicon) -> str:
    """A crude stem: a known ending off, then the first six letters."""
    return stemmer(lex)(word)


def stemmer(lex: Lexicon) -> Callable[[str], str]:
    """:func:`stem` bound to ``lex``: the language looked up once, not per word."""
    language = code_of(lex)
    if language:
        return partial(_stem_in, language=language)
    return partial(_stem, lex=lex)


@lru_cache(maxsize=1 << 16)
def _stem_in(word: str, language: str) -> str:
    return _stem(word, lexicon(language))


def _stem(word: str, lex: Lexicon) -> str:
    for suffix in lex.suffixes:
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    if lex.silent_e and word.endswith("e") and len(word) > 3:
        word = word[:-1]  # "price" and "prices" (→ "pric") are one word
    return word[:6]


def _in_code(unit: Unit, at: int) -> bool:
    """Whether offset ``at`` lies in a `code` span of ``unit`` (tool names are no object)."""
    spans = _code_spans(unit.text)
    i = bisect.bisect_right(spans, (at - unit.start, 1 << 62)) - 1
    return i >= 0 and spans[i][0] <= at - unit.start < spans[i][1]


@lru_cache(maxsize=256)
def _code_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _CODE.finditer(text)]


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
def _markers_re(markers: tuple[str, ...]) -> re.Pattern[str]:
    """One alternation per marker list (a stem, "разумн*", takes any ending).

    The standard library's engine: a plain alternation needs nothing of ``regex`` and runs
    faster there (word characters are Unicode in both).
    """
    parts = [
        re.escape(m[:-1]) + r"\w*" if m.endswith("*") else re.escape(m) + r"(?!\w)"
        for m in sorted(markers, key=len, reverse=True)
    ]
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + ")")
