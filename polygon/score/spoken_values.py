"""Amounts and durations said in words, charges said to be nothing, and amount-like keys.

:mod:`polygon.score.tool_facts` reads digits; a voice agent's text is often spelled out for
speech ("forty five pounds", "полторы тысячи рублей", "četrdeset pet eura"), says a charge
is nothing ("no call-out fee", "доплаты не будет") or states a wait ("in 20 minutes",
"через двадцать минут"). The words come from the language packs (``spoken``): the number
words num2words spells for noise and detectors (0–999), each pack's forms of "thousand",
"one and a half", minutes/hours/days, its phrases for "free", and the words of a tool
result's key that make a number written as a string an amount ("fare_difference": "3500").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from functools import cache

import regex

from polygon import languages as _languages
from polygon.languages import LANGUAGES, Spoken
from polygon.score.detectors import compound_number, number_words

_TOKEN = re.compile(r"\d+|[^\W\d_]+", re.UNICODE)
_MAX_WORDS = 5
_AND = frozenset({"and", "и", "i"})
"""May stand between "thousand" and the rest ("two thousand and fifty")."""
_JOIN = re.compile(r"[\s-]*")
"""What may stand between the words of one spoken number."""
_KEY_PART = re.compile(r"[A-Z]?[^\W_A-Z]+|[A-Z]+(?![a-z])", re.UNICODE)
_NUMERIC = re.compile(r"\s*\d+(?:[.,]\d{1,2})?\s*")
MINUTES = (1, 60, 1440)
"""Minutes in each of ``spoken.durations``' units: minute, hour, day."""


@cache
def _spoken() -> list[Spoken]:
    return [_languages.load_language(code).spoken for code in LANGUAGES]


@cache
def _thousands() -> frozenset[str]:
    return frozenset(w for s in _spoken() for w in s.thousands)


@cache
def _hundreds() -> frozenset[str]:
    return frozenset(w for s in _spoken() for w in s.hundreds)


@cache
def _halves() -> frozenset[str]:
    return frozenset(w for s in _spoken() for w in s.halves)


@cache
def _units() -> dict[str, int]:
    """A duration unit's word in any language → minutes in one."""
    return {w: MINUTES[i] for s in _spoken() for i, words in enumerate(s.durations) for w in words}


@cache
def _free() -> regex.Pattern[str]:
    """Every pack's phrases for "this costs nothing", as one pattern."""
    return regex.compile("|".join(f"(?:{p})" for s in _spoken() for p in s.free), regex.IGNORECASE)


@cache
def _amount_keys() -> frozenset[str]:
    return frozenset(w for s in _spoken() for w in s.amount_keys)


Token = tuple[str, int, int]


def _tokens(text: str) -> list[Token]:
    return [(m.group(0).lower(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _joined(text: str, tokens: list[Token], i: int) -> bool:
    """Token ``i`` follows token ``i - 1`` with only spacing or a hyphen between them."""
    return i < len(tokens) and _JOIN.fullmatch(text, tokens[i - 1][2], tokens[i][1]) is not None


def _below_thousand(text: str, tokens: list[Token], i: int) -> tuple[Decimal | None, int]:
    """A number 0–999 at token ``i`` (digits, number words or "one and a half"), and its width."""
    if tokens[i][0].isdecimal():  # "²" and "①" are digits no Decimal reads
        return Decimal(tokens[i][0]), 1
    if tokens[i][0] in _halves():
        return Decimal("1.5"), 1
    words = number_words()
    for width in range(min(_MAX_WORDS, len(tokens) - i), 0, -1):
        if width > 1 and not _joined(text, tokens, i + width - 1):
            continue
        found = words.get(tuple(t[0] for t in tokens[i : i + width]))
        if found is not None:
            return _and_tens(text, tokens, i + width, Decimal(found), width)
    return None, 0


def _and_tens(text: str, tokens: list[Token], at: int, value: Decimal, width: int) -> tuple[Decimal, int]:
    """A pack's own word for hundreds and the tens after it ("dvjesta četrdeset": 240), else as read."""
    if value % 100 or not 100 <= value <= 900 or at >= len(tokens) or not _joined(text, tokens, at):
        return value, width
    for more in (2, 1):  # "četrdeset pet" before "četrdeset"
        if more == 2 and not _joined(text, tokens, at + 1):
            continue
        tens = number_words().get(tuple(t[0] for t in tokens[at : at + more]))
        if tens is not None and 0 < int(tens) < 100:
            return value + int(tens), width + more
    return value, width


def _number_at(text: str, tokens: list[Token], i: int) -> tuple[Decimal | None, int]:
    """A spoken number at token ``i`` ("три тысячи пятьсот", "thousand", "forty five"), and its width."""
    value, width = _hundreds_at(text, tokens, i, *_below_thousand(text, tokens, i))
    if value is None and tokens[i][0] not in _thousands():
        compound = compound_number(tokens[i][0]) or _hundreds_word(tokens[i][0])  # one word
        return (Decimal(compound), 1) if compound else (None, 0)
    at = i + width
    if at < len(tokens) and tokens[at][0] in _thousands() and (width == 0 or _joined(text, tokens, at)):
        value, width = (value if value is not None else Decimal(1)) * 1000, width + 1
        rest = i + width + (1 if i + width < len(tokens) and tokens[i + width][0] in _AND else 0)
        if rest < len(tokens) and _joined(text, tokens, rest):
            more, more_width = _below_thousand(text, tokens, rest)
            if more is not None:
                value, width = value + more, rest - i + more_width
    return value, width


def _hundreds_at(
    text: str, tokens: list[Token], i: int, value: Decimal | None, width: int
) -> tuple[Decimal | None, int]:
    """A number 10-99 before "hundred" is that many hundreds, and the tens after ("twelve hundred forty")."""
    at = i + width
    if value is None or not 10 <= value <= 99 or at >= len(tokens) or tokens[at][0] not in _hundreds():
        return value, width
    if not _joined(text, tokens, at):
        return value, width
    value, width = value * 100, width + 1
    rest = at + 1 + (1 if at + 1 < len(tokens) and tokens[at + 1][0] in _AND else 0)
    if rest < len(tokens) and _joined(text, tokens, rest):
        more, more_width = _below_thousand(text, tokens, rest)
        if more is not None and more < 100:
            return value + more, rest - i + more_width
    return value, width


def _hundreds_word(word: str) -> str | None:
    """The digits of one word that is hundreds said as a price ("zwölfhundertvierzig": 1240), else None."""
    words = number_words()
    for hundred in _hundreds():
        head, found, tail = word.partition(hundred)
        high, rest = words.get((head,)), words.get((tail,)) if tail else "0"
        if found and high and rest and 10 <= int(high) <= 99 and int(rest) < 100:
            return str(int(high) * 100 + int(rest))
    return None


def spoken_numbers(text: str) -> Iterator[tuple[Decimal, int, int]]:
    """Each number ``text`` says (digits or words), with where it starts and ends."""
    tokens = _tokens(text)
    i = 0
    while i < len(tokens):
        value, width = _number_at(text, tokens, i)
        if value is None:
            i += 1
            continue
        yield value, tokens[i][1], tokens[i + width - 1][2]
        i += width


def word_amounts(text: str, currency: re.Pattern[str]) -> Iterator[tuple[Decimal, int, int]]:
    """Amounts said with number words before a currency word ("forty five pounds"), and where."""
    for value, start, end in spoken_numbers(text):
        if text[start:end].strip().isdigit():
            continue  # digits: the digit reader has them
        after = currency.match(text, end)
        if after:
            yield value, start, after.end()


def said_amounts(text: str, currency: re.Pattern[str]) -> Iterator[tuple[tuple[Decimal, ...], int, int]]:
    """Amounts said in words before a currency, each with every reading it may have, and where.

    The first reading is the likeliest. People say a price in pairs and its pence after the
    currency: "twelve forty pounds fifty" is 1240.50 only (tester45 D15: "twelve fourteen
    pounds fifty" is no fourteen pounds a birth date's 14 grounds); "nineteen ninety-nine
    pounds" is 1999, 99 or 19.99; "forty pounds fifty" 40.50 or 40. Which one the agent meant
    is the one a source gives.
    """
    said = [n for n in spoken_numbers(text) if not text[n[1] : n[2]].strip().isdigit()]
    for i, (value, start, end) in enumerate(said):
        after = currency.match(text, end)
        if not after:
            continue
        pair = _pair_before(text, said, i)
        cents, stop = _cents_after(text, said, i, after.end())
        if pair is not None and cents:  # both: one amount, whatever the words before the currency say
            yield (pair * 100 + value + cents,), said[i - 1][1], stop
        elif pair is not None:
            yield (pair * 100 + value, value, pair + value / 100), said[i - 1][1], stop
        else:
            yield tuple(dict.fromkeys((value + cents, value))), start, stop


def _pair_before(text: str, said: list[tuple[Decimal, int, int]], i: int) -> Decimal | None:
    """The first half of a pair ("twelve" in "twelve forty pounds"): 1-99 right before a 10-99."""
    if i == 0 or not 10 <= said[i][0] <= 99:
        return None
    value, _, end = said[i - 1]
    joined = _JOIN.fullmatch(text, end, said[i][1]) is not None
    return value if joined and 1 <= value <= 99 and value == int(value) else None


def _cents_after(text: str, said: list[tuple[Decimal, int, int]], i: int, at: int) -> tuple[Decimal, int]:
    """The pence said after the currency ("pounds fifty"): 1-99 right after it, else none."""
    if i + 1 >= len(said):
        return Decimal(0), at
    value, start, end = said[i + 1]
    pence = 1 <= value <= 99 and value == int(value)
    if not pence or not _PENCE_GAP.fullmatch(text, at, start) or _counted(text, end):
        return Decimal(0), at
    return value / 100, end


_PENCE_GAP = re.compile(r"\s+(?:(?:and|und|i|и|y|con)\s+)?", re.IGNORECASE)
"""Between a currency and its pence: "pounds fifty", "pounds and fifty pence", "euros con cincuenta"."""


def _counted(text: str, end: int) -> bool:
    """A currency or a duration unit follows: "pounds fifty pounds", "pounds fifty minutes" say no pence."""
    from polygon.score.quantities import CURRENCY_AFTER  # quantities reads this module's amounts

    m = re.match(r"\s*([^\W\d_]+)", text[end:])
    return bool(CURRENCY_AFTER.match(text, end)) or bool(m and m.group(1).lower() in _units())


def durations(text: str) -> Iterator[tuple[Decimal, Decimal, int, int]]:
    """Waits said as a number and a unit ("in 20 minutes", "через двадцать минут").

    Each as its minutes, the number said, and where it stands.
    """
    units = _units()
    for value, start, end in spoken_numbers(text):
        m = re.match(r"\s*([^\W\d_]+)", text[end:])
        unit = units.get(m.group(1).lower()) if m else None
        if m and unit:
            yield value * unit, value, start, end + m.end()


def free_phrases(text: str) -> Iterator[tuple[int, int]]:
    """Where ``text`` says a charge is nothing ("no call-out fee", "бесплатно")."""
    for m in _free().finditer(text, concurrent=False):  # keeps the GIL
        yield m.start(), m.end()


BELOW, ABOVE = "below", "above"
"""An amount said as a bound: at most it ("less than", "manje od"), at least it ("more than", "über")."""


def bound_before(text: str, start: int) -> str:
    """The bound the words before ``start`` make of the amount there (``BELOW``, ``ABOVE``), else "".

    Each pack's ``spoken.bounds_below`` and ``bounds_above``: "manje od stotinu eura" for a fee
    of 120 € is a claim about the fee, and a wrong one (trial3), as "under 150 euros" is a right one.
    """
    before = text[:start].rstrip().lower()
    for bound, phrases in zip((BELOW, ABOVE), _bounds(), strict=True):
        if any(before == p or before.endswith((" " + p, "(" + p)) for p in phrases):
            return bound
    return ""


@cache
def _bounds() -> tuple[frozenset[str], frozenset[str]]:
    """Every pack's phrases that make an amount after them a bound below, then above."""
    below = frozenset(p for s in _spoken() for p in s.bounds_below)
    return below, frozenset(p for s in _spoken() for p in s.bounds_above)


def amount_key(key: object) -> bool:
    """A tool result's key names an amount ("fare_difference", "totalPrice", "стоимость")."""
    if not isinstance(key, str):
        return False
    parts = {p.lower() for p in _KEY_PART.findall(key)}
    return bool(parts & _amount_keys())


@cache
def _none_left_keys() -> frozenset[str]:
    return frozenset(w for s in _spoken() for w in s.none_left_keys)


@cache
def _available_keys() -> frozenset[str]:
    return frozenset(w for s in _spoken() for w in s.available_keys)


def none_left_key(key: object) -> bool:
    """A tool result's key counts what is left ("refills_left", "remainingNights", "осталось")."""
    if not isinstance(key, str):
        return False
    parts = {p.lower() for p in _KEY_PART.findall(key)}
    return bool(parts & _none_left_keys())


def available_key(key: object) -> bool:
    """A tool result's key says, and only says, whether the thing can be had ("available")."""
    if not isinstance(key, str):
        return False
    parts = {p.lower() for p in _KEY_PART.findall(key)}
    return bool(parts) and parts <= _available_keys()


def numeric_string(value: str) -> bool:
    """A string that holds only a number ("3500", "45.00"): under an amount key, an amount."""
    return _NUMERIC.fullmatch(value) is not None


HOURS, MINUTES_SAID, LESS = (0, 23), (10, 59), (1, 59)
"""The numbers a clock time in words holds: an hour, minutes said after it (from ten: "at seven
five" is no time anyone says, "at one two three" is a number spelt out), minutes taken off."""


def _said(low: int, high: int, digits: bool) -> str:
    """A regex alternation of the numbers ``low``–``high`` in words (digits too), the longest first."""
    phrases = {" ".join(k) for k, v in number_words().items() if low <= int(v) <= high}
    out = [r"[\s-]+".join(map(re.escape, p.split())) for p in sorted(phrases, key=len, reverse=True)]
    return "|".join(([r"\d{1,2}(?![\d:.,])"] if digits else []) + out)


@cache
def _ordinals() -> dict[str, int]:
    """Each pack's days of the month in words (``month_days``), as the hours 1–23 they name ("восьмого")."""
    days = [(i + 1, names) for s in _spoken() for i, names in enumerate(s.month_days[: HOURS[1]])]
    return {" ".join(name.split()): hour for hour, names in days for name in names}


@cache
def _clock_pattern(context: bool) -> tuple[re.Pattern[str], tuple[int, ...]]:
    """Every pack's clock times in words after a word that makes them a time, as one pattern.

    Each phrase is group ``tN`` (its hour ``hN``, minutes ``mN`` / ``lessN``, ordinal ``nthN``);
    with the minutes each adds to its hour. Without ``context``, wherever they are said.
    """
    fills = {
        "h": _said(*HOURS, digits=True),
        "m": _said(*MINUTES_SAID, digits=False),
        "less": _said(*LESS, digits=False),
        "nth": "|".join(map(re.escape, sorted(_ordinals(), key=len, reverse=True))),
    }
    known = {(p, add) for s in _spoken() for p, add in s.clock_times.items()}
    phrases = sorted(known, key=lambda p: (-len(p[0]), p))  # "без двадцати пяти" before "без двадцати"
    parts: dict[bool, list[str]] = {True: [], False: []}
    for i, (phrase, _) in enumerate(phrases):
        alone = phrase.startswith("!")  # its own words make it a time ("без четверти восемь")
        phrase = phrase.removeprefix("!")
        for name, said in fills.items():
            phrase = phrase.replace("{" + name + "}", f"(?P<{name}{i}>{said})")
        parts[alone].append(f"(?P<t{i}>{phrase})")
    before = {w for s in _spoken() for w in (*s.clock_before, *s.relative_days, *s.weekdays)}
    before |= {w for s in _spoken() for forms in s.weekday_forms for w in forms}
    words = "|".join(map(re.escape, sorted(before, key=lambda w: (-len(w), w))))
    lead = rf"(?:{words})[\s,]+" if context else ""
    body = rf"(?<!\w){lead}(?:{'|'.join(parts[False])})"
    if parts[True]:
        body += rf"|(?<!\w)(?:{'|'.join(parts[True])})"
    pattern = re.compile(rf"(?:{body})(?!\w)", re.IGNORECASE)
    return pattern, tuple(add for _, add in phrases)


def word_clocks(text: str, context: bool = True) -> Iterator[tuple[str, int, int]]:
    """Clock times said in words ("at a quarter to eight", "um halb acht", "в половине восьмого").

    Each as ``HH:MM`` and where its words stand; only after a word that makes it a time ("at",
    "um", "u", "a las", "в", a weekday, "tomorrow"; without ``context`` anywhere: what a caller
    or a prompt says grounds the same time however it is said), and not when a number or a unit
    of time goes on after it ("at one twenty three four" spells a number out, "do dva i pol sata"
    is a wait).
    """
    pattern, adds = _clock_pattern(context)
    for m in pattern.finditer(text):
        i = next(int(k[1:]) for k, v in m.groupdict().items() if v is not None and k.startswith("t"))
        minutes = _clock_minutes(m, i, adds[i])
        if minutes is None or _number_follows(text, m.end()):
            continue
        yield f"{minutes // 60 % 24:02d}:{minutes % 60:02d}", m.start(f"t{i}"), m.end()


def _clock_minutes(m: re.Match[str], i: int, add: int) -> int | None:
    """The minutes of the day phrase ``i`` of ``m`` says (None: no hour of the clock)."""
    groups = m.groupdict()
    nth = groups.get(f"nth{i}")
    hour = _value(groups.get(f"h{i}")) if nth is None else _ordinals().get(" ".join(nth.lower().split()))
    if hour is None or not HOURS[0] <= hour <= HOURS[1]:
        return None
    return hour * 60 + add + (_value(groups.get(f"m{i}")) or 0) - (_value(groups.get(f"less{i}")) or 0)


def _value(said: str | None) -> int | None:
    """The number a phrase says, in digits or words (None: none)."""
    if said is None:
        return None
    if said.isdecimal():
        return int(said)
    found = number_words().get(tuple(re.split(r"[\s-]+", said.lower())))
    return int(found) if found is not None else None


def _number_follows(text: str, end: int) -> bool:
    """A number or a unit of time goes on after ``end`` ("at one two three four", "i pol sata")."""
    tokens = _tokens(text[end : end + 40])
    return bool(tokens) and (
        tokens[0][0].isdigit() or (tokens[0][0],) in number_words() or tokens[0][0] in _units()
    )
