"""The offline personas' names are package data, read through one checked loader.

The names and their order are part of the generator's output: a persona's name is picked by
index, so the file is pinned here exactly as the list was when it was code.
"""

from __future__ import annotations

from importlib import resources

import pytest

from polygon.errors import PolygonError
from polygon.suite.personas import NAMES_FILE, coverage, offline_persona, parse_persona_names, persona_names

PINNED = (
    "Ana Kovac",
    "Ivan Horvat",
    "Marta Novak",
    "Luka Babic",
    "Petra Juric",
    "Marko Vuk",
    "Sara Maric",
    "Tomislav Kos",
    "Iva Pavic",
    "Dario Radic",
    "Nina Bilic",
    "Josip Ilic",
)


def test_the_file_lists_the_names_in_the_order_the_generator_has_always_picked_from() -> None:
    assert persona_names() == PINNED
    assert persona_names() is persona_names()  # read once per process


def test_offline_personas_get_the_same_names_as_before_the_move() -> None:
    prompt = "We book appointments and cancel bookings."
    names = [offline_persona(slot, prompt, "a" * 64).facts["name"] for slot in coverage(12)]
    # as the generator named them when the list was a tuple in personas.py
    assert names == [
        "Josip Ilic",
        "Luka Babic",
        "Dario Radic",
        "Luka Babic",
        "Josip Ilic",
        "Petra Juric",
        "Luka Babic",
        "Petra Juric",
        "Josip Ilic",
        "Marko Vuk",
        "Iva Pavic",
        "Nina Bilic",
    ]


def test_the_file_is_package_data_beside_the_generator() -> None:
    text = resources.files("polygon.suite").joinpath(NAMES_FILE).read_text("utf-8")
    assert parse_persona_names(text) == PINNED


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("names: []", "a list of one or more names"),
        ("names: Ana Kovac", "a list of one or more names"),
        ("names: [Ana Kovac, 7]", "a list of one or more names"),
        ("names: [Ana Kovac, ' Ivan Horvat']", "a list of one or more names"),
        ("names: [Ana Kovac, '']", "a list of one or more names"),
        ("name: [Ana Kovac]", "expected only `names:`"),
        ("names: [Ana Kovac]\nextra: 1", "expected only `names:`"),
        ("- Ana Kovac", "expected only `names:`"),
        ("names: [Ana Kovac, Ivan Horvat, Ana Kovac]", "listed twice: Ana Kovac"),
        ("names: [Ana", "persona_names.yaml"),
    ],
)
def test_a_broken_names_file_fails_to_load_and_says_why(text: str, message: str) -> None:
    with pytest.raises(PolygonError, match=message.replace("[", r"\[")):
        parse_persona_names(text)
