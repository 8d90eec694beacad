"""The words of a person's name: runs of capitalised words, and one word in two inflections.

Shared by :mod:`polygon.score.disclosure` (names said in capitals) and
:mod:`polygon.score.others` (names and addresses from another person's record, said in
any case). Nothing here knows a language beyond the language files' function words,
months and weekdays, and the words of a file whose language capitalises nouns.
"""

from __future__ import annotations

import re
from functools import cache

from polygon import languages as _languages
from polygon.languages import LANGUAGES, Language
from polygon.score.json_strings import json_strings
from polygon.score.spelling import fold

WORD = re.compile(r"[^\W\d_][^\W\d_'’-]*", re.UNICODE)
"""A word: letters, with an apostrophe or hyphen inside ("O'Neil", "Jean-Luc")."""
STEM_SLACK = 2
"""Letters an inflected ending may change (Croatian and Russian cases): Анна/Анне, Babić/Babića."""
MIN_STEM = 3
"""Letters two forms of one word share at least: the key words are looked up by."""


@cache
def not_names() -> frozenset[str]:
    """Capitalised words that name nobody: every language's function words, months, weekdays, law words."""
    out: set[str] = set()
    for code in LANGUAGES:
        f = _languages.load_language(code)
        out |= {w.lower() for w in f.understand.stop_words}
        out |= {m for names in f.spoken.months for m in names}
        out |= set(f.spoken.weekdays)
        out |= set(f.spoken.law_words)  # "Prema Uredbi 261/2004": a regulation, nobody's name
    return frozenset(out)


def capitalised(word: str) -> bool:
    """A name's word: an upper-case letter, then lower case (not an acronym, not "I")."""
    return len(word) > 1 and word[0].isupper() and any(c.islower() for c in word[1:])


def names(text: str, common: frozenset[str] = frozenset()) -> list[str]:
    """Runs of two or more capitalised words with only spaces between ("Mira Kos", "Мира Кос").

    ``common``: words (lower case) that break a run like function words do: the nouns of a
    language that capitalises them (:func:`noun_words`).
    """
    out: list[str] = []
    run: list[str] = []
    end = -1
    for m in WORD.finditer(text):
        word = m.group(0)
        name_word = capitalised(word) and word.lower() not in not_names() and word.lower() not in common
        joined = run and text[end : m.start()].isspace()
        if name_word and (joined or not run):
            run.append(word)
        else:
            if len(run) > 1:
                out.append(" ".join(run))
            run = [word] if name_word else []
        end = m.end()
    if len(run) > 1:
        out.append(" ".join(run))
    return out


def _capitalises_nouns(pack: Language) -> bool:
    """The pack writes the nouns it says as labels capitalised ("Nummer", "Geburtsdatum"): German."""
    return bool(pack.labels) and all(v[:1].isupper() for v in pack.labels.values())


@cache
def noun_words(code: str | None) -> frozenset[str]:
    """Words that are not a name's in a language that capitalises its nouns; empty in others.

    German writes every noun capitalised, so "Vielen Dank", "Guten Tag", "Schaden Nummer"
    look like names. Every word its language file writes (its greetings, closings, labels,
    acts: the words an agent of that language says) is such a common word. ``None`` (an
    imported call, its language unknown): those of every such language.
    """
    codes = LANGUAGES if code is None else (code,) if code in LANGUAGES else ()
    out: set[str] = set()
    for c in codes:
        pack = _languages.load_language(c)
        if _capitalises_nouns(pack):
            # Not its words for kin: "Frau Keller" is still a name (a wife is "meine Frau").
            dump = pack.model_dump(exclude={"understand": {"relations"}})
            out |= {w.lower() for s in json_strings(dump, keys=True) for w in WORD.findall(s)}
    return frozenset(out)


def folded(word: str) -> str:
    """A name's word as it is compared: lower case, umlauts spelled out ("Jürgen" → "juergen").

    ASR and LLMs writing for speech spell German without umlauts: "juergen becker" is the
    record's "Jürgen Becker" (:func:`polygon.score.spelling.fold`).
    """
    return fold(word.lower())


def same_stem(a: str, b: str) -> bool:
    """One word in two inflections ("Петровой"/"Петрова", "Babića"/"Babić"; not "Ana"/"analysis").

    A shared start, and neither word ends more than a few letters past it.
    """
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= MIN_STEM and max(len(a), len(b)) - common <= STEM_SLACK
