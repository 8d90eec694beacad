"""``disclosure`` of a parcel's recipient (trial3): a record whose person is its ``recipient``.

A caller with a mistyped tracking number (another customer's parcel, a persona fact) heard
"that one's for david okafor at fourteen baker street": the lookup was by the caller's own
fact, and "recipient" named no person, so the record was taken for the caller's and nothing
in it was flagged (in capitals too: only the phone detector caught that call).
"""

from __future__ import annotations

import pytest

from tests.support.calls import call, said, tool

FACTS = {"name": "Sam Patel", "tracking_number": "PX-48231", "postcode": "LS6 2QT"}
OKAFOR = {
    "tracking_number": "PX-48231",
    "recipient": "David Okafor",
    "address": "14 Baker Street",
    "delivery_date": "2026-12-09",
}
OPEN = ("hello, I need to reschedule my parcel", "Parcel Express, this is Jo. What is your tracking number?")
ASK = ("My tracking number is PX-48231.", "And what is the postcode of the delivery address?")


def _view(
    agent: str, record: dict[str, str], facts: dict[str, str] = FACTS, language: str = "en"
) -> list[str]:
    lookup = tool("lookup_parcel", {"tracking_number": facts["tracking_number"]}, record)
    return said(call([OPEN, ASK, ("My postcode is LS6 2QT.", agent, [lookup])], facts, language))


@pytest.mark.parametrize(
    ("agent", "words"),
    [
        (
            "hmm, that one's for david okafor at fourteen baker street, so I can't change it.",
            ["david okafor", "baker street", "fourteen baker street"],
        ),
        (
            "I see, that parcel is for David Okafor at 14 Baker Street, so I can't change it.",
            ["David Okafor", "Baker Street"],
        ),
    ],
)
def test_another_recipients_name_and_address_are_flagged(agent: str, words: list[str]) -> None:
    assert _view(agent, OKAFOR) == words


def test_the_callers_own_parcel_read_back_is_not_flagged() -> None:
    own = {**OKAFOR, "recipient": "Sam Patel", "address": "22 Elm Road"}
    assert _view("that parcel is for sam patel at twenty two elm road, due on the ninth.", own) == []


def test_a_croatian_primatelj_is_a_person_too() -> None:
    facts = {"ime": "Ivana Kovač", "broj_pošiljke": "PX-48231"}
    record = {"broj_pošiljke": "PX-48231", "primatelj": "Marko Babić", "adresa": "Savska 41"}
    lookup = tool("pronadji_posiljku", {"broj_pošiljke": "PX-48231"}, record)
    view = call(
        [
            ("dobar dan", "Dostava, izvolite."),
            ("broj je PX-48231", "ta pošiljka je za marka babića", [lookup]),
        ],
        facts,
        "hr",
    )
    assert said(view) == ["marka babića"]
