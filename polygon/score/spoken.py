"""What a caller's words claim, normalised so that one value written two ways is one value.

``caller_outside_facts`` compares the dates, long numbers and weekdays a simulated caller
says against its persona's facts. A person writes one date many ways ("1980-03-12",
"12 March 1980", "March 12, 1980", "12.03.1980") and one number many ways ("4111 1111",
"4111-1111", "four one one one …"); each is reduced here to one form (``1980-03-12``, the
bare digits) before anything is compared, so a value the persona holds is never flagged.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache, lru_cache

from polygon import languages as _languages
from polygon.languages import LANGUAGES
from polygon.score.detectors import digit_runs, number_words

MIN_DIGITS = 5
"""Shorter numbers (a count, an hour, a house number) are too common to call invented."""
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th|\.)?"
_YEAR = r"(?P<year>\d{4})"
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_DIGIT = re.compile(r"\d")


@cache
def _months() -> dict[str, int]:
    """Every way a month is said, in every language (each file's ``spoken.months``) → 1–12."""
    files = [_languages.load_language(code) for code in LANGUAGES]
    return {name: i + 1 for f in files for i, names in enumerate(f.spoken.months) for name in names}


_SPACING = re.compile(r"[\s-]+")
"""What may stand between the words of a day said in words ("twenty-fourth", "dvadeset četvrtog")."""


@cache
def _month_days() -> dict[str, int]:
    """Every way a day of the month is said in words before the month, in every language → 1–31.

    Each file's ``spoken.month_days`` ("fourth", "vierten", "četrnaestog", "четвёртого",
    Spanish "cuatro"), its words joined by one space.
    """
    files = [_languages.load_language(code) for code in LANGUAGES]
    return {
        " ".join(_SPACING.split(name)): i + 1
        for f in files
        for i, names in enumerate(f.spoken.month_days)
        for name in names
    }


@cache
def day_words(ordinals: bool = False) -> str:
    """A regex alternation of the days said in words, the longest first (a group named ``dayword``).

    A phrase of several words may be said with a hyphen or more spaces ("twenty-fourth").
    ``ordinals``: only those that are no plain number too (not Spanish "cuatro").
    """
    plain = {" ".join(k) for k in number_words()} if ordinals else set()
    phrases = sorted((p for p in _month_days() if p not in plain), key=len, reverse=True)
    return "(?P<dayword>" + "|".join(r"[\s-]+".join(map(re.escape, p.split())) for p in phrases) + ")"


def day_of(words: str) -> int:
    """The day a phrase :func:`day_words` found says (0 for none)."""
    return _month_days().get(" ".join(_SPACING.split(words.lower())), 0)


@cache
def _dates() -> list[re.Pattern[str]]:
    """The date shapes: ISO, day-first digits, and the month said as a word, either order."""
    month = "(?P<month>" + "|".join(sorted(map(re.escape, _months()), key=len, reverse=True)) + r")\.?"
    files = [_languages.load_language(code) for code in LANGUAGES]
    words = sorted({w for f in files for w in f.spoken.date_words})  # "12th of March", "12 de marzo de 1980"
    join = "(?:(?:" + "|".join(map(re.escape, words)) + r")\s+)?" if words else ""
    return [
        re.compile(rf"\b{_YEAR}[-/.](?P<month>\d{{1,2}})[-/.](?P<day>\d{{1,2}})\b"),
        # "12.04.1975", and "12. 4. 1975" as Croatian writes it (a space after each dot)
        re.compile(rf"\b(?P<day>\d{{1,2}})(?:[-/]|\.\s?)(?P<month>\d{{1,2}})(?:[-/]|\.\s?){_YEAR}\b"),
        re.compile(rf"\b{_DAY}\s+{join}{month},?\s+{join}{_YEAR}", re.IGNORECASE),
        re.compile(rf"\b{month}\s+{_DAY},?\s+{_YEAR}", re.IGNORECASE),
    ]


@cache
def _weekdays() -> dict[str, str]:
    """A weekday's name in any language, in any of its forms → its English name (the one form claims keep).

    The forms are each pack's ``weekday_forms``: "u srijedu", "в пятницу", "petkom" and
    "sabado" written without its accent are the weekday as much as its dictionary name.
    """
    english = _languages.load_language("en").spoken.weekdays
    out: dict[str, str] = {}
    for code in LANGUAGES:
        spoken = _languages.load_language(code).spoken
        for i, name in enumerate(spoken.weekdays):
            out |= dict.fromkeys((name, *spoken.weekday_forms[i]), english[i])
    return out


@dataclass(frozen=True)
class Claims:
    """What a text states: dates (ISO), numbers (digits), weekdays (English), each with its words."""

    dates: dict[str, str]
    numbers: dict[str, str]
    weekdays: dict[str, str]

    def values(self) -> set[str]:
        """Every normalised value."""
        return set(self.dates) | set(self.numbers) | set(self.weekdays)


@lru_cache(maxsize=4096)
def claims(text: str) -> Claims:
    """The dates, long numbers and weekdays ``text`` states, normalised (value → words said).

    Kept per text (the result is shared: read it, never change it): a scripted caller says
    the same few lines in every call of a suite, and each caller turn of each call is read.
    """
    dates, rest = _split_dates(text)
    numbers: dict[str, str] = {}
    for run in digit_runs(rest):
        digits = run.digits.lstrip("0")
        if len(digits) >= MIN_DIGITS:
            numbers.setdefault(digits, rest[run.start : run.end])
    return Claims(dates, numbers, _weekdays_said(text))


@lru_cache(maxsize=4096)
def stated_values(text: str) -> tuple[str, ...]:
    """Every value ``text`` states, short numbers too: its dates, weekdays, then all its digits.

    For telling two versions of one reply apart (the same words, another amount or time):
    unlike :func:`claims`, an amount ("3500"), an hour ("23:15") or a count counts. The digits
    outside dates are kept as one string in the order said, so one number written or spoken
    in pieces ("3 500", "twenty three fifteen") reads the same as written whole. Digits
    inside a word ("w1", "KX7PQ2") name something rather than state a quantity: left out.
    """
    dates, rest = _split_dates(text)
    runs = digit_runs(rest)
    digits = "".join(r.digits for r in runs if not (r.start and rest[r.start - 1].isalpha()))
    return (*sorted(dates), *sorted(_weekdays_said(text)), f"digits:{digits}")


def _split_dates(text: str) -> tuple[dict[str, str], str]:
    """The dates ``text`` states (ISO → words said), and the text with them blanked out."""
    dates: dict[str, str] = {}
    rest = text
    for pattern in _dates() if _DIGIT.search(text) else ():  # every date shape has digits
        for m in pattern.finditer(rest):
            iso = _iso(m)
            if iso:
                dates.setdefault(iso, m.group(0))
        rest = pattern.sub(" ; ", rest)  # a date's digits are not also a number
    return dates, rest


def _weekdays_said(text: str) -> dict[str, str]:
    """The weekdays ``text`` names (English name → the word said)."""
    days: dict[str, str] = {}
    for w in _WORD.findall(text):
        day = _weekdays().get(w.lower())
        if day:
            days.setdefault(day, w)
    return days


_NEAR = 2
"""How many words from "today"/"tomorrow" a weekday names the call's day ("tomorrow, Friday")."""


@cache
def _relative_days() -> frozenset[str]:
    return frozenset(w for code in LANGUAGES for w in _languages.load_language(code).spoken.relative_days)


def slot_weekdays(text: str) -> dict[str, str]:
    """The weekdays ``text`` names as a day of their own (English name → the word said).

    One beside a word for today or tomorrow ("today is Tuesday", "mañana viernes") names the
    day of the call or its neighbour, not a slot: left out.
    """
    words = _WORD.findall(text)
    low = [w.lower() for w in words]
    days: dict[str, str] = {}
    for i, w in enumerate(low):
        day = _weekdays().get(w)
        if day and not _relative_days() & set(low[max(0, i - _NEAR) : i + _NEAR + 1]):
            days.setdefault(day, words[i])
    return days


def _iso(m: re.Match[str]) -> str:
    month_text = m.group("month").lower()
    month = _months().get(month_text) if not month_text.isdigit() else int(month_text)
    day, year = int(m.group("day")), int(m.group("year"))
    if not month or not 1 <= month <= 12 or not 1 <= day <= 31:
        return ""
    return f"{year:04d}-{month:02d}-{day:02d}"


def held(value: str, allowed: AbstractSet[str]) -> bool:
    """A normalised value is among (or, for a number, part of) what is allowed.

    Part of: the last four digits of a card, a phone number without its country code.
    """
    if value in allowed:
        return True
    return value.isdigit() and any(a.isdigit() and value in a for a in allowed)


def _date_held(iso: str, allowed: set[str]) -> bool:
    """A date the facts hold, as a date or as bare digits (19800312, 12031980)."""
    year, month, day = iso.split("-")
    forms = {iso, f"{year}{month}{day}".lstrip("0"), f"{day}{month}{year}".lstrip("0")}
    return bool(forms & allowed)


def invented(said: str, allowed_texts: list[str]) -> list[str]:
    """The words of ``said`` that state a date, number or weekday none of ``allowed_texts`` holds.

    Each allowed text is read on its own (facts joined together would merge their numbers).
    """
    allowed: set[str] = set()
    for text in allowed_texts:
        allowed |= allowed_by(text)
    return invented_against(said, allowed)


@lru_cache(maxsize=4096)
def allowed_by(text: str) -> frozenset[str]:
    """The values one allowed text holds, in every form :func:`invented_against` accepts.

    A union of these over several texts is what :func:`invented` checks against, so a
    caller that reads a growing list of texts adds each text's values once. Kept per text:
    every call of a suite reads its personas' facts again.
    """
    found = claims(text)
    allowed = found.values()
    allowed |= {d.replace("-", "").lstrip("0") for d in found.dates}
    allowed |= {re.sub(r"\D", "", text).lstrip("0")} - {""}
    return frozenset(allowed)


def invented_against(said: str, allowed: set[str]) -> list[str]:
    """The words of ``said`` that state a value not in ``allowed`` (a union of :func:`allowed_by`)."""
    mine = claims(said)
    out = [words for value, words in mine.dates.items() if not _date_held(value, allowed)]
    out += [words for value, words in mine.numbers.items() if not held(value, allowed)]
    out += [words for value, words in mine.weekdays.items() if value not in allowed]
    return out
