"""``agent_contradicts_tools``: the agent states a value its own tools contradict.

A tool answered ``{"last_rabies": "2 April 2025"}`` and the agent told the caller "14 June
2025": the caller cannot catch it (it does not know the value) and a judge reading the words
alone hears a confident, well-formed answer. This check compares what the agent says with
what the call's tool results gave, by kind of value, in any language the packs read:

* a date (ISO after :mod:`polygon.score.spoken`'s normalisers; "14 June" without a year is
  compared by month and day);
* a time of day (``16:00``, ``4 pm``, ``4:00 p.m.`` are one value);
* an amount of money (a number with a currency sign or word; ``45,00 €`` is ``45``);
* a long number (five digits or more: a reference, an account);
* a wait ("in 20 minutes", "через двадцать минут", "za dva sata"), in minutes;
* a weekday (any pack's names), when the agent says it in a sentence with a time or a number
  ("friday eight forty" for a tool's "Thursday 8:40", trial43 D3), or alone as the day booked
  ("see you on Tuesday", held against the date it is about: those the latest tool calls gave
  or were sent, or the caller asked for since, not any date of the call); otherwise a date a
  source gives grounds its weekday, and one beside "today"/"tomorrow" (the pack's
  ``relative_days``) is no slot;
* a tool's yes/no and states ("you are eligible" after ``eligible: false``, "your flight is on
  time" after ``status: "cancelled"``): :mod:`polygon.score.tool_states`.

Amounts are also read when said in words ("forty five pounds", "полторы тысячи рублей"), a
charge said to be nothing ("no call-out fee", "доплаты не будет") is the amount 0, and a
tool's number written as a string under a key naming an amount ("fare_difference": "3500")
is an amount (:mod:`polygon.score.spoken_values`, from the language packs).

A value the agent states *contradicts the tools* when the tools gave a value of the same kind
before or in that turn and no legitimate source grounds it. The sources are the call's tool
results and the arguments the agent sent (offering the slots a tool listed, reading back the
time it booked), what the caller said up to that turn (reading back the caller's request,
"10:00 is taken"), the persona's facts, and the agent's prompt when the run recorded it (its
business hours, prices, phone). Once a tool has answered, a time, an amount or an arrival wait
(over two minutes, under a day) that no source gives fails even when no tool gave that kind:
"It will be there in 20 minutes" after ``dispatch_tow → {"dispatched": true}`` is an invented
arrival time. Other waits and "free" are held only against a tool's value (a refund "within
five days" is most often policy from a prompt the run may not have recorded); dates and long
numbers of a kind no tool gave are left to ``agent_contradicts_facts`` and the judge. An amount
one tool result makes by arithmetic is grounded (its amounts added, any two added or
multiplied); other derived values (an end time, a window) are not and would be flagged: the
check says which tool value it held the statement against, so such a case reads plainly in
``explain``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache
from typing import Any

from polygon.events import CheckRecorded, Evidence
from polygon.languages import LANGUAGES, load_language
from polygon.score.detectors import digit_runs
from polygon.score.doses import made_up_doses
from polygon.score.json_strings import json_strings
from polygon.score.quantities import CURRENCY_AFTER as _CURRENCY_AFTER
from polygon.score.quantities import CURRENCY_WORDS as _CURRENCY_WORDS
from polygon.score.quantities import SIGNS as _SIGNS
from polygon.score.quantities import number_value
from polygon.score.recorded import check_recorded
from polygon.score.spelling import with_digits
from polygon.score.spoken import MIN_DIGITS, claims, day_of, day_words, held, slot_weekdays
from polygon.score.spoken import _months as months
from polygon.score.spoken_values import (
    BELOW,
    amount_key,
    bound_before,
    durations,
    free_phrases,
    numeric_string,
    said_amounts,
    spoken_numbers,
    word_clocks,
)
from polygon.score.tool_arguments import invented_arguments
from polygon.score.tool_states import affirmed, books_a_day, claim_contradictions
from polygon.transcript import ConversationView, TurnView

CHECK = "agent_contradicts_tools"
DATE, DAY, TIME, AMOUNT, NUMBER, DURATION = "date", "day", "time", "amount", "number", "duration"
WEEKDAY, MONTHDAY = "weekday", "monthday"
"""Kinds of value; ``day`` is a date said without its year (month and day), ``monthday`` one
said without its month either ("on the 12th")."""
_KIND_WORDS = {
    DATE: "date",
    DAY: "date",
    MONTHDAY: "date",
    TIME: "time",
    AMOUNT: "amount",
    NUMBER: "number",
    DURATION: "duration",
    WEEKDAY: "weekday",
}
UNSOURCED = (TIME, AMOUNT, DURATION)
"""Kinds a statement of which no source gave fails once a tool has answered (an invented ETA)."""
_CLOCK = re.compile(
    r"(?<![\d:.,])(?P<h>[01]?\d|2[0-3])(?::(?P<m>[0-5]\d)(?::[0-5]\d)?)?(?:\s*(?P<ap>[ap])\.?\s?m\b\.?)?(?![\d:])",
    re.IGNORECASE,
)
_ISO_T = re.compile(r"(?<=\d)T(?=\d)")
_NUM = r"\d{1,3}(?:[ .,]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"
_PLAIN = re.compile(rf"(?<![\d.,])(?:{_NUM})(?![\d])")
# An amount before its sign starts where its digits start: from inside a run, the run was
# read again from every digit of a long digit string (quadratic: 100k digits took minutes).
_AMOUNT = re.compile(
    rf"(?:{_SIGNS}\s?(?P<a>{_NUM}))|(?:(?<!\d)(?P<b>{_NUM})\s?(?:{_SIGNS}|(?:{_CURRENCY_WORDS})(?!\w)))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Value:
    """One value a text states: its kind, its normalised form and the words it was read from."""

    kind: str
    value: str
    words: str
    of: str = ""
    """A weekday said just before a date ("Friday, the fourth of December"): that date (ISO, or
    ``MM-DD`` said without its year), whose weekday it must be."""
    twelve: bool = False
    """A time said in words ("a quarter past seven"): on a 12-hour clock, either half of the day."""
    alts: tuple[str, ...] = ()
    """Other amounts the same words may say ("twelve forty pounds fifty": 1240.5, also 40):
    the statement holds when a source gives any of them."""
    booked: bool = False
    """A weekday said alone as the day booked ("see you on Tuesday"): held against a tool's date."""
    rule: bool = False
    """A wait said as a rule's threshold ("delays of more than three hours"): no arrival time."""
    bound: str = ""
    """An amount said as a bound: ``below`` ("less than 100 euros") or ``above`` ("over 50 €")."""


@cache
def _yearless() -> list[re.Pattern[str]]:
    """A day and a month said without a year, either order ("14 June", "June 14th", "14. lipnja").

    With each pack's ``date_words`` between them: "12th of December", "el 12 de diciembre" (trial47 D13).
    """
    month = _month_words()
    day = r"(?P<day>\d{1,2})(?:st|nd|rd|th|\.)?"
    return [
        re.compile(rf"(?<![\w.]){day}\s+{_date_words()}{month}(?!\w)", re.IGNORECASE),
        re.compile(rf"(?<!\w){month}\s+{day}(?![\d:])", re.IGNORECASE),
    ]


def _month_words() -> str:
    return "(?P<month>" + "|".join(sorted(map(re.escape, months()), key=len, reverse=True)) + r")\.?"


_LETTERS = re.compile(r"[^\W\d_]+")


@cache
def _day_alone() -> tuple[re.Pattern[str], ...]:
    """Each pack's ``spoken.day_alone``, its ``dayword`` group the packs' ordinals."""
    words = day_words(ordinals=True)
    return tuple(
        re.compile(p.replace("(?P<dayword>DAYWORD)", words), re.IGNORECASE)
        for c in LANGUAGES
        for p in load_language(c).spoken.day_alone
    )


def _days_alone(text: str) -> tuple[list[Value], str]:
    """Days of the month said alone ("on the 12th"), and the rest of ``text``.

    Held against a tool's date or one the agent sent a tool (``booked``), as "see you on
    Tuesday" is: "we'll deliver it on the 12th" for a delivery moved to the 11th (trial3).
    """
    out: list[Value] = []
    for pattern in _day_alone():
        for m in pattern.finditer(text):
            groups = m.groupdict()
            day = int(groups["day"]) if groups.get("day") else day_of(groups.get("dayword") or "")
            if 1 <= day <= 31:
                out.append(Value(MONTHDAY, f"{day:02d}", m.group(0).strip(), booked=True))
        text = pattern.sub(" ; ", text)
    return out, text


def _names_month(text: str) -> bool:
    """A word of ``text`` names a month: only then may a day be said in words (long texts read fast)."""
    return not months().keys().isdisjoint(_LETTERS.findall(text.lower()))


_VERB_MONTHS = r"(?!(?:may|march|mar)\s+(?!the\s))"
"""A month's name that is also a word of its own ("you may first call"): no date before a day word
unless "the" stands between ("May the first")."""


@cache
def _in_words() -> list[re.Pattern[str]]:
    """A day of the month said in words beside its month, a year in digits after it or not.

    "vierten dezember", "četrnaestog prosinca", "the fourth of December", "el cuatro de
    diciembre de 2026" (each pack's ``spoken.month_days`` and ``date_words``), and English
    "December the fourth". A month first takes an ordinal only: Spanish says the day as a
    number, and "marzo dos veces" is twice in March.
    """
    month, join = _month_words(), _date_words()
    year = rf"(?:,?\s+{join}(?P<year>\d{{4}})(?!\d))?"
    return [
        re.compile(rf"(?<![\w.]){day_words()}\s+{join}{month}(?!\w){year}", re.IGNORECASE),
        re.compile(
            rf"(?<![\w.]){_VERB_MONTHS}{month}\s+(?:the\s+)?{day_words(ordinals=True)}(?!\w){year}",
            re.IGNORECASE,
        ),
    ]


@cache
def _date_words() -> str:
    """Each pack's words between a day and its month ("of", "de"), one of them optional."""
    words = sorted({w for c in LANGUAGES for w in load_language(c).spoken.date_words}, key=len, reverse=True)
    return "(?:(?:" + "|".join(map(re.escape, words)) + r")\s+)?" if words else ""


@lru_cache(maxsize=4096)
def values_in(text: str) -> tuple[Value, ...]:
    """The dates, times, amounts and long numbers ``text`` states, each once, normalised.

    Read in that order, each one's words taken out of the text before the next is read, so
    a date's digits are not also a time and an amount's digits are not also a number.
    """
    text = _without_german_am(_ISO_T.sub(" ", text))  # 2025-04-02T16:00:00: a date, then a time
    found = claims(text)
    out = [Value(DATE, iso, words) for iso, words in found.dates.items()]
    rest = text
    for words in found.dates.values():
        rest = rest.replace(words, " ; ")
    out_more, rest = _take(rest)
    out += out_more
    out += [Value(NUMBER, digits, words) for digits, words in claims(rest).numbers.items()]
    dates = [v for v in out if v.kind in (DATE, DAY)]
    out += [_weekday_value(text, day, words, dates) for day, words in slot_weekdays(text).items()]
    return tuple(dict.fromkeys(out))


def _weekday_value(text: str, day: str, words: str, dates: list[Value]) -> Value:
    """A weekday, dated when it stands just before a date the text states ("petak, četrnaestog prosinca")."""
    for said in dates:
        if re.search(rf"(?<!\w){re.escape(words)}{_BESIDE}{re.escape(said.words)}", text):
            return Value(WEEKDAY, day, words, of=said.value)
    return Value(WEEKDAY, day, words)


_BESIDE = r"[\s,]+(?:[^\W\d_]{1,4}[\s,]+)?"
"""Between a weekday and its date: a comma, a short word ("Friday the 4th", "am Freitag, dem 4.")."""


def _take(text: str) -> tuple[list[Value], str]:
    """Yearless dates, amounts and times out of ``text``, and what is left of it."""
    out: list[Value] = []
    for pattern in _in_words() if _names_month(text) else ():
        for m in pattern.finditer(text):
            out += _word_date(m)
        text = pattern.sub(" ; ", text)
    for pattern in _yearless():
        for m in pattern.finditer(text):
            month = months().get(m.group("month").lower())
            day = int(m.group("day"))
            if month and 1 <= day <= 31:
                out.append(Value(DAY, f"{month:02d}-{day:02d}", m.group(0)))
        text = pattern.sub(" ; ", text)
    for m in _AMOUNT.finditer(text):
        amount = _amount(m.group("a") or m.group("b"))
        if amount:
            out.append(Value(AMOUNT, amount, m.group(0), bound=bound_before(text, m.start())))
    text = _AMOUNT.sub(" ; ", text)
    spoken, text = _spoken_values(text)
    out += spoken
    clocks, text = _word_clocks(text)
    out += clocks
    days, text = _days_alone(text)  # after the clocks in words: "в половине восьмого" is 7:30
    out += days
    for m in _CLOCK.finditer(text):
        if m.group("m") is None and m.group("ap") is None:
            continue  # a bare number is not a time
        out.append(Value(TIME, _clock(m), m.group(0).strip()))
    return out, _CLOCK.sub(lambda m: " ; " if m.group("m") or m.group("ap") else m.group(0), text)


_AM = re.compile(r"(?<=\d)(?P<gap>\s*)am(?=\s+(?:(?P<digit>\d)|(?P<word>[^\W\d_]+)))", re.IGNORECASE)


def _without_german_am(text: str) -> str:
    """``text`` with German "am" ("on the") after a number written "an", so it is no meridiem.

    "HH K 7 am 20. Oktober", "Tisch 4 am Montag", "Zimmer 12 am Ende des Flurs": a bare "am"
    before a day's digits, a weekday of another language than English, or a capitalised word
    (a German noun) that English does not name a day or month by. "7 am Monday", "9 am June
    3rd", "7 am on the 20th" and "7 a.m. 20 October" stay times. Same length, same places.
    """
    return _AM.sub(lambda m: m.group(0)[:-1] + "n" if _german_am(m) else m.group(0), text)


def _german_am(m: re.Match[str]) -> bool:
    if m.group("digit"):
        return True
    word = m.group("word")
    if word.lower() in _foreign_weekdays():
        return True
    return word[0].isupper() and word[1:].islower() and word.lower() not in _english_days()


@cache
def _foreign_weekdays() -> frozenset[str]:
    """Weekday names of every bundled language but English (where "7 am Monday" is a time)."""
    return frozenset(w for c in LANGUAGES for w in load_language(c).understand.weekdays) - _english_days()


@cache
def _english_days() -> frozenset[str]:
    """English's weekdays and months: after them "am" is a meridiem."""
    english = load_language("en")
    return english.understand.weekdays | {m.lower() for names in english.spoken.months for m in names}


def _word_date(m: re.Match[str]) -> list[Value]:
    """The date a day said in words beside its month states: with its year a date, else a day."""
    month, day = months().get(m.group("month").lower()), day_of(m.group("dayword"))
    if not month or not day:
        return []
    if m.group("year"):
        return [Value(DATE, f"{m.group('year')}-{month:02d}-{day:02d}", m.group(0))]
    return [Value(DAY, f"{month:02d}-{day:02d}", m.group(0).rstrip("."))]  # "… the fifth of december."


def _spoken_values(text: str) -> tuple[list[Value], str]:
    """Amounts in words, charges said to be nothing (amount 0) and durations; and the rest of ``text``."""
    found: list[tuple[Value, int, int]] = []
    for readings, start, end in said_amounts(text, _CURRENCY_AFTER):
        first, *alts = (_plain(str(r)) for r in readings)
        bound = bound_before(text, start)
        found.append((Value(AMOUNT, first, text[start:end], alts=tuple(alts), bound=bound), start, end))
    for start, end in free_phrases(text):
        found.append((Value(AMOUNT, "0", text[start:end]), start, end))
    for minutes, _, start, end in durations(text):
        rule = _threshold_before(text, start)
        found.append((Value(DURATION, f"{_plain(str(minutes))} min", text[start:end], rule=rule), start, end))
    kept: list[tuple[Value, int, int]] = []
    for f in found:  # the first reading of a stretch of words wins ("no fee" is not also a duration)
        if not any(k[1] < f[2] and f[1] < k[2] for k in kept):
            kept.append(f)
    for _, start, end in sorted(kept, key=lambda f: -f[1]):
        text = text[:start] + " ; " + text[end:]
    return [v for v, _, _ in kept], text


def _threshold_before(text: str, start: int) -> bool:
    """The words before ``start`` end in a threshold phrase ("more than", "más de", "свыше")."""
    before = text[:start].rstrip().lower()
    return any(before == t or before.endswith(" " + t) for t in _thresholds())


@cache
def _thresholds() -> tuple[str, ...]:
    return tuple(t for c in LANGUAGES for t in load_language(c).spoken.thresholds)


def _word_clocks(text: str) -> tuple[list[Value], str]:
    """Clock times said in words ("at a quarter to eight", trial47 D4), and the rest of ``text``."""
    found = list(word_clocks(text))
    out = [Value(TIME, hhmm, text[start:end], twelve=True) for hhmm, start, end in found]
    for _, start, end in reversed(found):
        text = text[:start] + " ; " + text[end:]
    return out, text


def _clock(m: re.Match[str]) -> str:
    hour, minute = int(m.group("h")), int(m.group("m") or 0)
    ap = (m.group("ap") or "").lower()
    if ap == "p" and hour < 12:
        hour += 12
    elif ap == "a" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}"


def _amount(said: str) -> str:
    """An amount's digits as one plain decimal: "1.234,50" and "1,234.50" are both ``1234.5``."""
    try:
        return _plain(str(number_value(said)))
    except InvalidOperation:
        return ""


def _plain(number: str) -> str:
    try:
        value = Decimal(number)
    except InvalidOperation:
        return ""
    return format(value.normalize(), "f") if value else "0"


@dataclass(frozen=True)
class Given:
    """A value a tool returned: which tool, and the value."""

    tool: str
    value: Value


def tool_values(result: Any) -> Iterator[Value]:
    """Every value in a tool's JSON result: strings read like speech, numbers as amounts.

    A number written as a string under a key that names an amount ("fare_difference": "3500")
    is an amount too.
    """
    if isinstance(result, dict):
        for key, item in result.items():
            if (
                isinstance(item, str)
                and numeric_string(item)
                and amount_key(key)
                and (plain := _amount(item.strip()))
            ):
                yield Value(AMOUNT, plain, item)
            yield from tool_values(item)
    elif isinstance(result, list):
        for item in result:
            yield from tool_values(item)
    elif isinstance(result, str):
        yield from values_in(result)
    elif isinstance(result, int | float) and not isinstance(result, bool):
        plain = _plain(str(result))
        if plain:
            yield Value(AMOUNT, plain, str(result))
        digits = str(result).lstrip("0")
        if isinstance(result, int) and len(digits) >= MIN_DIGITS:
            yield Value(NUMBER, digits, str(result))


@lru_cache(maxsize=4096)
def _text_numbers(text: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """Every number in a text as bare digits, and each plain number as the amount it would be.

    Kept per text: the prompt, the facts and a scripted caller's lines repeat in every call.
    A plain number grounds the amount it would be with a currency ("45,00" in a price list).
    Each number said on its own counts too: "20-30 min" grounds a wait of 20 minutes.
    """
    numbers = frozenset(r.digits.lstrip("0") for r in digit_runs(text)) - {""}
    numbers |= {_plain(str(n)) for n, _, _ in spoken_numbers(text)} - {"", "0"}
    amounts = frozenset((AMOUNT, a) for m in _PLAIN.finditer(text) if (a := _amount(m.group(0))))
    return numbers, amounts


@lru_cache(maxsize=4096)
def _any_clocks(text: str) -> frozenset[tuple[str, str]]:
    """The clock times a text says in words, with or without a word making them a time (kept per text)."""
    return frozenset((TIME, hhmm) for hhmm, _, _ in word_clocks(text, context=False))


class Grounds:
    """What the call's legitimate sources hold, in the forms a statement is compared in."""

    def __init__(self) -> None:
        self.values: set[tuple[str, str]] = set()
        self.numbers: set[str] = set()

    def add_text(self, text: str) -> None:
        """What a text says, and every number in it (digits or number words) as bare digits."""
        self.add(values_in(text))
        self.values |= {(WEEKDAY, day) for day in claims(text).weekdays}  # "tomorrow, Friday" too
        self.values |= _any_clocks(text)  # the caller's "for half past seven" grounds the agent's
        numbers, amounts = _text_numbers(text)
        self.numbers |= numbers
        self.values |= amounts

    def add(self, values: Iterable[Value]) -> None:
        """Values read already (a full date grounds its month and day said alone)."""
        for v in values:
            self.values.add((v.kind, v.value))
            self.values |= {(v.kind, a) for a in v.alts}  # a caller's "twelve forty pounds" grounds 40 too
            if v.kind == DATE:
                self.values.add((DAY, v.value[5:]))
                self.values.add((WEEKDAY, _weekday(v.value)))
            if v.kind in (DATE, DAY):
                self.values.add((MONTHDAY, v.value[-2:]))
            if v.kind in (NUMBER, AMOUNT):
                self.numbers |= {a.lstrip("0") or "0" for a in (v.value, *v.alts) if a.isdigit()}

    def holds(self, v: Value) -> bool:
        """``v`` is grounded: the same value, or a whole amount or a long number held as digits."""
        if v.of:
            return self._weekday_held(v)
        if v.kind == AMOUNT:
            return any(self._amount_held(a) for a in (v.value, *v.alts))
        if (v.kind, v.value) in self.values or (v.twelve and (TIME, _other_half(v.value)) in self.values):
            return True
        if v.kind == NUMBER:
            return held(v.value, self.numbers)
        if v.kind == DURATION:  # lenient: any source saying the number ("eta": 20, "20-30 min") grounds it
            said = {_plain(str(n)) for n, _, _ in spoken_numbers(v.words)}
            return bool(said & self.numbers) or v.value.split()[0] in self.numbers
        return False

    def _amount_held(self, amount: str) -> bool:
        return (AMOUNT, amount) in self.values or (amount.isdigit() and amount in self.numbers)

    def _weekday_held(self, v: Value) -> bool:
        """A weekday said beside a date is that date's weekday, when a source gives the date with its year.

        Else (a date no source gives whole) any source's weekday grounds it, as a weekday said alone.
        """
        dates = {d for kind, d in self.values if kind == DATE and d[5:] == v.of[-5:]}
        if dates:
            return v.value in {_weekday(d) for d in dates}
        return (WEEKDAY, v.value) in self.values


def _given(view: ConversationView) -> list[tuple[int, Given]]:
    """Every value each tool returned, with the turn it came back in."""
    return [
        (t.turn, Given(c.tool, v))
        for t in view.turns
        for c in t.tools
        if not c.error
        for v in tool_values(c.result)
    ]


def _sent_dates(view: ConversationView) -> list[tuple[int, Given]]:
    """Every date and time the agent sent a tool that answered, with the turn: the slot booked.

    A booking tool often answers ``{"ok": true}``: the date and time it booked are in its
    arguments. Only a weekday or a time said as the slot booked is held against these.
    """
    return [
        (t.turn, Given(f"the call to {c.tool}", v))
        for t in view.turns
        for c in t.tools
        if not c.error
        for v in tool_values(c.arguments)
        if v.kind in (DATE, TIME)
    ]


MAX_TOTALLED = 12
"""A tool result with more amounts than this is not totalled pairwise (the pairs grow as n²)."""


def _totals(result: Any) -> set[tuple[str, str]]:
    """Amounts one tool result grounds by arithmetic.

    All of its amounts added, and each pair's sum and product (a nightly rate times the
    nights, a fee plus a deposit).
    """
    amounts = [Decimal(v.value) for v in tool_values(result) if v.kind == AMOUNT]
    if len(amounts) < 2:
        return set()
    out = {sum(amounts, Decimal(0))}
    if len(amounts) <= MAX_TOTALLED:
        pairs = [(a, b) for i, a in enumerate(amounts) for b in amounts[i + 1 :]]
        out |= {a + b for a, b in pairs} | {a * b for a, b in pairs}
    return {(AMOUNT, _plain(str(x))) for x in out} - {(AMOUNT, "")}


def _static_grounds(view: ConversationView, prompt: str | None) -> Grounds:
    """Grounds for the whole call: tool results and arguments, the persona's facts, the prompt."""
    grounds = Grounds()
    for t in view.turns:
        for c in t.tools:
            for found in (c.result, c.arguments):
                grounds.add(tool_values(found))
                for text in json_strings(found):
                    grounds.add_text(text)
            grounds.values |= _totals(c.result)
    persona = view.started.persona if view.started else None
    for fact in persona.facts.values() if persona else ():
        grounds.add_text(fact)
    grounds.add_text(prompt or "")
    return grounds


def contradictions(view: ConversationView, prompt: str | None = None) -> list[Evidence]:
    """One piece of evidence per agent turn that states a value, a yes or a state its tools contradict.

    Yes/no answers and states: :mod:`polygon.score.tool_states`; doses no source gave:
    :mod:`polygon.score.doses`; a number of the caller's sent to a tool that nobody gave:
    :mod:`polygon.score.tool_arguments`.
    """
    found = {t.turn: (t, [_described(v, g) for v, g in bad]) for t, bad in _contradicted(view, prompt)}
    for t, against in [
        *claim_contradictions(view),
        *made_up_doses(view, prompt),
        *invented_arguments(view, prompt),
    ]:
        found.setdefault(t.turn, (t, []))[1].extend(against)
    return [_evidence(t, said) for _, (t, said) in sorted(found.items())]


def contradicted(view: ConversationView, prompt: str | None = None) -> dict[int, list[str]]:
    """Turn → the words of each value stated there that the tools contradict or no source gave.

    The ``disclosure`` detector leaves these to this check: a wrong date or amount about the
    caller's own booking is the agent's error, not another person's data.
    """
    return {t.turn: [v.words for v, _ in bad] for t, bad in _contradicted(view, prompt)}


def _contradicted(
    view: ConversationView, prompt: str | None
) -> Iterator[tuple[TurnView, list[tuple[Value, Given | None]]]]:
    """Each agent turn that states a value no source grounds, with the tool value it was held against."""
    given, sent = _given(view), _sent_dates(view)
    answered = min((t.turn for t in view.turns if any(not c.error for c in t.tools)), default=None)
    grounds: Grounds | None = None  # built at the first value a tool could contradict: most calls have none
    heard: list[str] = []
    about = _DayAbout()
    for t in view.turns:
        heard += [t.caller_text, t.heard_text or ""]
        about.follow(t)
        so_far = [g for turn, g in given if turn <= t.turn]
        booked = [g for _, g in sorted((p for p in [*given, *sent] if p[0] <= t.turn), key=lambda p: p[0])]
        after_tool = answered is not None and answered <= t.turn
        open_ = [
            (v, same)
            for v in _stated(t.agent_text or "")
            if (same := _same_kind(v, booked if v.booked else so_far)) or (after_tool and _unsourced_kind(v))
        ]
        if not open_:
            continue
        if grounds is None:
            grounds = _static_grounds(view, prompt)
        for text in heard:
            grounds.add_text(text)
        heard = []
        open_ = [(v, same) for v, same in open_ if not about.holds(v, same, grounds)]
        bad = [(v, _nearest(v, same) if same else None) for v, same in open_]
        if bad:
            yield t, bad


class _DayAbout:
    """The weekdays a weekday said as the day booked may name: those of the date it is about.

    That date is the latest one put on the table before the agent speaks: the dates and
    weekdays the latest turn's tool calls sent or gave, and any the caller said since. Any
    date of the call's did before: "Done, moved to Tuesday" for a booking of 2026-12-14 (a
    Monday) passed because the lookup had given the current date, 2026-12-08, a Tuesday
    (trial3). The caller's words count so that reading back its request before a tool has
    booked it is no contradiction; a tool's date after them is the day booked.
    """

    def __init__(self) -> None:
        self.days: set[str] = set()
        self.times: set[str] = set()
        self._unread: list[TurnView] = []

    def follow(self, t: TurnView) -> None:
        """Take the turn in; it is read when a value needs it (most calls state none to hold)."""
        self._unread.append(t)

    def _catch_up(self) -> None:
        for t in self._unread:
            self._read(t)
        self._unread = []

    def _read(self, t: TurnView) -> None:
        """The caller's words, then the turn's tool calls, in the order they came."""
        caller = [t.caller_text, t.heard_text or ""]
        self.days |= _days_of(caller)
        self.times |= _times_of(caller)
        sent_or_gave = [
            s
            for c in t.tools
            if not c.error
            for found in (c.arguments, c.result)
            for s in json_strings(found)
        ]
        if called := _days_of(sent_or_gave):
            self.days = called
        if clocks := _times_of(sent_or_gave):
            self.times = clocks

    def holds(self, v: Value, same: list[Given], grounds: Grounds) -> bool:
        """``v`` is grounded by what it is about.

        A weekday or a time said as the slot booked: by the slot it is about (clinic: "You're
        booked for Wednesday 09:00" after book_slot took "Wednesday 14:00" passed, because the
        slot list read before held 09:00); a bound: by the tool's amount nearest it; anything
        else: by any source.
        """
        self._catch_up()
        if v.kind == WEEKDAY and v.booked and not v.of and self.days:
            return v.value in self.days
        if v.kind == TIME and v.booked and self.times:
            return v.value in self.times or (v.twelve and _other_half(v.value) in self.times)
        if v.bound and same:
            return _within(v, _nearest(v, same).value)
        return grounds.holds(v)


def _within(bound: Value, given: Value) -> bool:
    """The amount a tool gave lies within the bound said ("under 150 euros" for 120, not "less than 100").

    The edge counts as within: "up to 100" for 100 is right, and "less than 100" for 100 a
    slip of no weight.
    """
    said, gave = Decimal(bound.value), Decimal(given.value)
    return gave <= said if bound.bound == BELOW else gave >= said


def _times_of(texts: list[str]) -> set[str]:
    """The clock times texts state, in digits or in words ("18:30", "half past six")."""
    return {v.value for text in texts for v in values_in(text) if v.kind == TIME} | {
        hhmm for text in texts for _, hhmm in _any_clocks(text)
    }


def _days_of(texts: list[str]) -> set[str]:
    """The weekdays texts name ("tomorrow, Friday" too) and those of the dates they state."""
    days = {day for text in texts for day in claims(text).weekdays}
    days |= {_weekday(v.value) for text in texts for v in values_in(text) if v.kind == DATE}
    return days - {""}


def _stated(text: str) -> list[Value]:
    """The values an agent's turn states; a weekday only beside a date or in a sentence naming a slot.

    One that says the day booked, naming one weekday (:func:`~polygon.score.tool_states.books_a_day`:
    "See you on Tuesday"): held against a tool's date too. Or one with a time or a number:
    "Your test is now on friday eight forty" names a slot (trial43 D3), held against a tool's
    weekday ("we're open Monday to Friday, 9 to 5" beside a booked date is the business's
    week). "We don't test on Saturdays" is the business's week, from a prompt the run may not
    have recorded; nor is a weekday in a clause with a negation ("we don't fly on Saturday, so
    I booked the next one").
    """
    values = values_in(text)
    if not any((v.kind == WEEKDAY and not v.of) or v.kind == TIME for v in values):
        return list(values)  # sentences are read only for a bare weekday or a time: most turns have none
    sentences = _SENTENCE.split(text)
    slots = [s for s in sentences if books_a_day(s) and len(slot_weekdays(s)) <= 1]
    booked = _affirmed([s for s in slots if slot_weekdays(s)])
    timed = [s for s in slots if len(_times_of([s])) == 1]  # whole: a clause split would cut '09:00'
    numbered = _affirmed([s for s in sentences if _DIGIT.search(with_digits(s))])
    out = []
    for v in values:
        if (v.kind == WEEKDAY and not v.of and _in_any(v.words, booked)) or (
            v.kind == TIME and _in_any(v.words, timed)
        ):
            out.append(replace(v, booked=True))
        elif v.kind != WEEKDAY or v.of or _in_any(v.words, numbered):
            out.append(v)
    return out


def _affirmed(sentences: list[str]) -> list[str]:
    return [c for s in sentences for c in affirmed(s)]


def _in_any(words: str, sentences: list[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(words)}(?!\w)", s) for s in sentences)


_SENTENCE = re.compile(r"(?<=[.!?;])\s+")
_DIGIT = re.compile(r"\d")
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _other_half(hhmm: str) -> str:
    """The same time on the other half of the day ("07:15" and "19:15")."""
    hour, minute = hhmm.split(":")
    return f"{(int(hour) + 12) % 24:02d}:{minute}"


def _weekday(iso: str) -> str:
    """The English weekday of an ISO date ("" for a date the calendar lacks)."""
    try:
        return _DAYS[date.fromisoformat(iso).weekday()]
    except ValueError:
        return ""


ETA_MINUTES = (2, 1440)
"""A wait over two minutes and under a day ("in 20 minutes", "within 2 hours") is an arrival
time that needs a source.

Shorter ones are a hold ("give me one minute while I check"); longer ones ("the deposit goes
back within five days") are most often the business's policy, said from a prompt the run may
not have recorded: both are held only against a tool's duration.
"""


def _unsourced_kind(v: Value) -> bool:
    """A value that needs a source once a tool has answered (a time, an amount, an arrival wait).

    "Free" (amount 0) only contradicts an amount a tool gave.
    """
    if v.kind == DURATION:
        return not v.rule and ETA_MINUTES[0] < Decimal(v.value.split()[0]) < ETA_MINUTES[1]
    return v.kind in UNSOURCED and not (v.kind == AMOUNT and v.value == "0")


def _same_kind(v: Value, given: list[Given]) -> list[Given]:
    """The tool values ``v`` could contradict: those of its kind.

    A date said without its year: any date; a weekday beside a date or said as the day booked:
    a date too ("see you on Tuesday" for a Wednesday booked).
    """
    kinds = {
        DATE: (DATE,),
        DAY: (DATE, DAY),
        MONTHDAY: (DATE, DAY, MONTHDAY),
        TIME: (TIME,),
        AMOUNT: (AMOUNT,),
        NUMBER: (NUMBER,),
        DURATION: (DURATION,),
        WEEKDAY: (WEEKDAY, DATE) if v.of or v.booked else (WEEKDAY,),
    }
    return [g for g in given if g.value.kind in kinds[v.kind] and _alike(v, g.value)]


def _names_date(said: Value, given: Value) -> bool:
    """A dated weekday is held against a tool's date only when its date is that date (month and day)."""
    return not said.of or given.kind != DATE or given.value[5:] == said.of[-5:]


def _nearest(v: Value, same: list[Given]) -> Given:
    """The tool value to name beside ``v``: the nearest amount (not a count beside it), else the latest."""
    if v.kind == AMOUNT:
        return min(same, key=lambda g: abs(Decimal(g.value.value) - Decimal(v.value)))
    return same[-1]


def _alike(said: Value, given: Value) -> bool:
    """Long numbers are one kind only at one length.

    A reference read wrong keeps its length; a phone number beside a five-digit claim number
    is another kind of value.
    """
    return (said.kind != NUMBER or len(said.value) == len(given.value)) and _names_date(said, given)


def _described(v: Value, g: Given | None) -> str:
    if g:
        kind = _KIND_WORDS[g.value.kind]
        said = f"it is {v.bound} {v.words!r}" if v.bound else repr(v.words)
        return f"said {said}, {g.tool} gave the {kind} {g.value.words!r}{_of_date(v, g)}"
    return f"said the {_KIND_WORDS[v.kind]} {v.words!r}, which no tool, caller turn, fact or prompt gave"


def _evidence(t: TurnView, said: list[str]) -> Evidence:
    return Evidence(turn=t.turn, at=t.agent_at, quote=f"AGENT: {t.agent_text} [{'; '.join(said)}]")


def _of_date(v: Value, g: Given) -> str:
    """A weekday held against a tool's date: which weekday the date is ("2026-12-03 (a thursday)")."""
    dated = v.of or (v.kind == WEEKDAY and v.booked)
    return f" (a {_weekday(g.value.value)})" if dated and g.value.kind == DATE else ""


def agent_contradicts_tools(view: ConversationView, prompt: str | None = None) -> CheckRecorded:
    """The agent stated a date, time, amount, long number, yes or state its own tools contradict."""
    bad = contradictions(view, prompt)
    if bad:
        first = bad[0].quote.rsplit(" [", 1)[1].rstrip("]")
        detail = (
            f"the agent stated a value its tools contradict or no source gave in {len(bad)} turn(s): {first}"
        )
        return check_recorded(view, CHECK, "fail", detail, bad)
    if not _given(view):
        return check_recorded(view, CHECK, "n/a", "no tool result gave a date, time, amount or long number")
    agreed = "every value the agent stated agrees with its tools or another source"
    return check_recorded(view, CHECK, "pass", agreed)
