"""``{fact: key}`` compares "spacing aside": a number's groups may be written together (trial6).

A callback persona's fact was ``telefon: "0171 2345678"``; the caller said it with the digits
read out ("null eins sieben eins zwei drei …"), and a correct agent passed
``schedule_callback(phone="01712345678")``. ``expect.calls: {schedule_callback.phone: {fact:
telefon}}`` failed it: ``normal`` kept the space ("0171 2345678" is not "01712345678"), so
every call where the noise read the number out was a false fail. The docs promised spacing
and punctuation aside; now a value written with no spaces at all meets the fact too.
"""

from __future__ import annotations

import pytest

from polygon.matching import holds

FACTS = {"telefon": "0171 2345678", "police": "KV-448812", "name": "Anna Schmidt"}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("telefon", "01712345678"),
        ("telefon", "0171-234 5678"),
        ("telefon", "0171 2345678"),
        ("police", "KV448812"),
        ("police", "kv 448812"),
        ("name", "anna schmidt"),
    ],
)
def test_the_fact_as_read_back(key: str, value: str) -> None:
    assert holds({"v": value}, "v", {"fact": key}, FACTS)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("telefon", "0171234567"),  # a digit short
        ("telefon", "01712345679"),
        ("police", "KV-448813"),
        ("name", "Anna Schmitt"),
    ],
)
def test_another_value_does_not_hold(key: str, value: str) -> None:
    assert not holds({"v": value}, "v", {"fact": key}, FACTS)
