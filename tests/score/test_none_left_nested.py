"""An outcome reported over a record nested in a tool's answer that counts none left (trial4).

The none-left reading (``spoken.none_left_keys``, ``available_keys``) read a result's top-level
keys only: a search by birth date answered ``{"prescriptions": [{…, "refills_left": 0}, …]}``
and "Done, your refill has been ordered" over it, with nothing ordered, passed.
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.score.swallowed import swallowed
from tests.support.tool_calls import call

FACTS = {"name": "Ruth Hahn", "prescription": "RX-310957", "date_of_birth": "1975-11-02"}
BY_BIRTH = {"date_of_birth": "1975-11-02"}
RUTH_EMPTY = {"rx": "RX-310957", "patient": "Ruth Hahn", "drug": "Metformin", "refills_left": 0}
PETRA_TWO = {"rx": "RX-661203", "patient": "Petra Vogel", "drug": "Tamoxifen", "refills_left": 2}
DONE = "Done, your refill has been ordered."


def _found(result: Any, said: str = DONE, args: dict[str, Any] | None = None) -> list[str]:
    view = call([("I need my refill.", [("find_prescription", args or BY_BIRTH, result)], said)], FACTS)
    return [s.why for s in swallowed(view)]


@pytest.mark.parametrize(
    "result",
    [
        {"prescriptions": [RUTH_EMPTY, PETRA_TWO]},  # the caller's record among another patient's
        [PETRA_TWO, RUTH_EMPTY],  # a list at the top
        {"prescription": RUTH_EMPTY},  # one record, nested
        {"prescriptions": [{**RUTH_EMPTY, "patient": "X"}, {**PETRA_TWO, "rx": "RX-1", "refills_left": 0}]},
        {"rooms": [{"room": "101", "available": False}, {"room": "102", "available": False}]},  # none at all
    ],
)
def test_an_outcome_over_a_nested_record_with_none_left_fails(result: Any) -> None:
    (why,) = _found(result)
    assert ": 0" in why or ": false" in why


def test_the_record_named_by_the_calls_arguments_is_the_one_read() -> None:
    by_rx = {"prescriptions": [PETRA_TWO, {**RUTH_EMPTY, "patient": "R. Hahn"}]}
    assert _found(by_rx, args={"rx": "RX-310957"}) == ["it answered refills_left: 0"]


@pytest.mark.parametrize(
    "result",
    [
        # the caller's record has refills; another patient's has none
        {"prescriptions": [{**RUTH_EMPTY, "refills_left": 2}, {**PETRA_TWO, "refills_left": 0}]},
        # no record the call is about, and one of them has some left
        {"rooms": [{"room": "101", "available": False}, {"room": "102", "available": True}]},
        # no count at all
        {"prescriptions": [{"rx": "RX-310957", "drug": "Metformin"}]},
    ],
)
def test_a_nested_record_with_some_left_is_not_flagged(result: Any) -> None:
    assert _found(result) == []


def test_none_left_told_is_not_flagged() -> None:
    told = "I'm sorry, there are no refills left on your Metformin; please ask your doctor."
    assert _found({"prescriptions": [RUTH_EMPTY, PETRA_TWO]}, said=told) == []
