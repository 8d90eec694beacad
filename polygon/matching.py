"""Conditions on values: what stub rules answer on, and what a scenario's ``expect`` checks.

A condition is a plain value (equality) or one operator: ``{eq: v}``, ``{ne: v}``,
``{in: [..]}``, ``{gt: n}``, ``{lt: n}``, ``{exists: bool}``, ``{matches: regex}``. In
``expect`` a condition may also be ``{fact: key}``: equal to the persona's fact, compared
as a person would read it back (case, spacing and punctuation aside).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

OPERATORS = frozenset({"eq", "ne", "in", "gt", "lt", "exists", "matches"})
"""The operators of stub rules."""
FACT = "fact"
"""The operator only ``expect`` has: the value of one of the persona's facts."""
REGEX_SECONDS = 0.1
"""Budget of one ``matches`` (a suite's regex could backtrack for minutes)."""

_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


class MatchTimeout(Exception):
    """A ``matches`` regex ran past :data:`REGEX_SECONDS`."""


def normal(value: Any) -> str:
    """A value as a person reads it back: lower case, words only, single spaces."""
    return _NOT_WORD.sub(" ", str(value).lower()).strip()


def holds(values: Mapping[str, Any], name: str, cond: Any, facts: Mapping[str, str] | None = None) -> bool:
    """Whether ``values[name]`` meets ``cond`` (validated: a value or exactly one operator)."""
    present = name in values
    value = values.get(name)
    if not isinstance(cond, dict):
        return bool(present and value == cond)
    ((op, ref),) = cond.items()
    if op == "exists":
        return present == bool(ref)
    if not present:
        return False
    if op == FACT:
        return facts is not None and ref in facts and read_back(value, facts[ref])
    return compare(op, value, ref)


def read_back(value: Any, fact: Any) -> bool:
    """``value`` is the fact as a person reads it back: case, spacing and punctuation aside.

    Spacing wholly aside: a number's groups may be written together ("0171 2345678" is
    "01712345678", "KV-448812" is "KV448812"), as an agent passes a number it heard read out
    digit by digit. Before, a correct agent's callback failed ``{fact: telefon}`` for it.
    """
    said, known = normal(value), normal(fact)
    return said == known or said.replace(" ", "") == known.replace(" ", "")


def compare(op: str, value: Any, ref: Any) -> bool:
    """One operator applied to a present value."""
    if op == "eq":
        return bool(value == ref)
    if op == "ne":
        return bool(value != ref)
    if op == "in":
        return isinstance(ref, list) and value in ref
    if op == "gt":
        return _num(value) > _num(ref)
    if op == "lt":
        return _num(value) < _num(ref)
    if op == "matches":
        import regex  # only a `matches` condition needs it: ~0.01 CPU s of every start otherwise

        try:
            return regex.search(str(ref), str(value), timeout=REGEX_SECONDS) is not None
        except TimeoutError:
            raise MatchTimeout(
                f"the regex {str(ref)!r} ran past its {REGEX_SECONDS * 1000:.0f} ms budget"
            ) from None
    return False


def describe(cond: Any, facts: Mapping[str, str] | None = None) -> str:
    """A condition in words, for a check's detail (``= 'medium veggie' (fact request)``)."""
    if not isinstance(cond, dict):
        return f"= {cond!r}"
    ((op, ref),) = cond.items()
    if op == FACT:
        known = (facts or {}).get(ref)
        return f"= {known!r} (fact {ref})" if known is not None else f"= fact {ref}"
    return f"{op} {ref!r}"


def _num(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")
