"""Amounts, doses and measures: numbers that say how much, not whose.

:mod:`polygon.score.disclosure` takes a number of three digits or more for somebody's data
(a room, an account, a card's tail). A number that says how much is nobody's: an amount
with its cents ("184.20", "1.250,00", "€1,250.00"), a number with a currency ("€120",
"350 kn"), a unit of measure ("500 mg", "250 ml", "120 kWh", "100%") or a wait ("120
minutes", the language packs' ``durations``). Only a number standing whole beside its mark
is one: the digit string of a phone or a card around it ("098 555 0101 mg") is still read
as a number, and so is a bare number of seven digits or more (an account: "40311872 EUR").
Whose an amount is, the trace tells: :mod:`polygon.score.others` keeps the amounts of the
records that were not the caller's.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from polygon.score.spoken_values import durations, word_amounts

SIGNS = r"[$€£₽¥]"
"""Currency signs, before or after a number."""
CURRENCY_WORDS = (
    r"eur|euro|euros|eura|usd|dollars?|gbp|pounds?|hrk|kn|kuna|kune|rub|руб|рубл\w*|р\.|евро|доллар\w*"
    r"|фунт\w*"
)
"""Currency words and codes, after a number (and a code before one: "EUR 120")."""
_UNITS = r"mg|mcg|µg|μg|g|kg|ml|km|kwh|kw|%"
"""Units of measure written the same in every language: doses, weights, energy, a share."""
_NUM = r"\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,2})?|\d{1,6}(?:[.,]\d{1,2})?"
"""One number: grouped by thousands with "." or ",", or six digits at most (seven is an account)."""
_EDGE_BEFORE, _EDGE_AFTER = r"(?<![\w.,/-])", r"(?![.,]?\d)"
_CENTS = re.compile(rf"{_EDGE_BEFORE}(?:\d{{1,3}}(?:[.,]\d{{3}})+|\d{{1,6}})[.,]\d{{2}}{_EDGE_AFTER}")
"""An amount with its cents; thousands grouped by a space are not read ("214 250.00" is a room
and an amount)."""
_MARKED = re.compile(
    rf"(?:{SIGNS}|\b(?:eur|usd|gbp|hrk|rub)\b)\s?(?P<a>{_NUM}){_EDGE_AFTER}"
    rf"|{_EDGE_BEFORE}(?P<b>{_NUM})\s?(?:{SIGNS}|(?:{CURRENCY_WORDS}|{_UNITS})(?!\w))",
    re.IGNORECASE,
)
"""A number with a currency before or after it, or a unit after it."""
_MONEY = re.compile(
    rf"(?:{SIGNS}|\b(?:eur|usd|gbp|hrk|rub)\b)\s?(?P<a>{_NUM}){_EDGE_AFTER}"
    rf"|{_EDGE_BEFORE}(?P<b>{_NUM})\s?(?:{SIGNS}|(?:{CURRENCY_WORDS})(?!\w))",
    re.IGNORECASE,
)
"""A number with a currency before or after it (no unit: "35,5 mg" is no money)."""


def written_amounts(text: str) -> list[Decimal]:
    """Each amount of money ``text`` writes in digits beside its currency ("35,5 €", "€35.50", "EUR 35")."""
    return [number_value(m.group("a") or m.group("b")) for m in _MONEY.finditer(text)]


CURRENCY_AFTER = re.compile(rf"\s?(?:{SIGNS}|(?:{CURRENCY_WORDS})(?!\w))", re.IGNORECASE)
"""A currency right after a number said in words ("forty five pounds")."""
_PLAIN = re.compile(rf"{_EDGE_BEFORE}(?:\d{{1,3}}(?:[.,]\d{{3}})+|\d+)(?:[.,]\d{{1,2}})?{_EDGE_AFTER}")
"""Any number a record writes: a balance as "1,250.00", "1250.0" (a float) or "1250"."""

Span = tuple[int, int, Decimal]
"""Where a quantity starts and ends, and how much it is."""


def number_value(said: str) -> Decimal:
    """A number's digits as one value: "1.234,50" and "1,234.50" are both 1234.50, "1,250" 1250."""
    text = said.replace(" ", "")
    marks = [i for i, ch in enumerate(text) if ch in ".,"]
    if marks and len(text) - marks[-1] - 1 in (1, 2):  # the last mark has cents after it
        text = re.sub(r"[.,]", "", text[: marks[-1]]) + "." + text[marks[-1] + 1 :]
    else:
        text = re.sub(r"[.,]", "", text)
    return Decimal(text)


@lru_cache(maxsize=4096)
def quantities(text: str) -> tuple[Span, ...]:
    """Every amount, dose, measure and wait ``text`` says, in digits or (money, waits) in words."""
    spans = [(m.start(), m.end(), number_value(m.group(0))) for m in _CENTS.finditer(text)]
    for m in _MARKED.finditer(text):
        spans.append((m.start(), m.end(), number_value(m.group("a") or m.group("b"))))
    spans += [(start, end, value) for value, start, end in word_amounts(text, CURRENCY_AFTER)]
    spans += [(start, end, value) for _, value, start, end in durations(text)]
    return tuple(spans)


def measured(start: int, end: int, spans: tuple[Span, ...]) -> Decimal | None:
    """How much the number written from ``start`` to ``end`` is, when all of it is a quantity."""
    return next((v for s, e, v in spans if s <= start and end <= e), None)


@lru_cache(maxsize=8192)
def numbers(text: str) -> frozenset[Decimal]:
    """Every number a record's text writes in digits, as its value (amounts with their cents)."""
    return frozenset(number_value(m.group(0)) for m in _PLAIN.finditer(text))
