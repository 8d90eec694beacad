"""``caller_outside_facts`` judges fairly (issue 27): normalised values, never the persona's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from polygon.app.run import RunOptions, run_suite
from polygon.events import MemoryLog
from polygon.events.families import CheckRecorded
from polygon.score.spoken import allowed_by, claims, invented, invented_against
from polygon.suite.loading import load_suite

FACTS = ["Ana Horvat", "1980-03-12", "4111 1111 1111 1111", "+385 91 234 5678"]


@pytest.mark.parametrize(
    "said",
    [
        "My date of birth is 1980-03-12.",
        "My date of birth is 12 March 1980.",
        "It's March 12, 1980.",
        "12.03.1980",
        "12th of March 1980",
        "12/03/1980",
        "No — 1980-03-12, not 4111111111111111.",
        "card four one one one one one one one one one one one one one one one",
        "the last four are 1111",
        "call me on 091 234 5678",
        "+385-91-234-5678",
        "MY NAME IS ANA HORVAT",
    ],
)
def test_a_value_the_persona_holds_is_never_flagged(said: str) -> None:
    assert invented(said, FACTS) == []


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("born 1980-03-15", ["1980-03-15"]),
        ("born 15 March 1980", ["15 March 1980"]),
        ("my number is 555 1234 567", ["555 1234 567"]),
        ("on Friday please", ["Friday"]),
    ],
)
def test_an_invented_value_is_flagged_by_its_words(said: str, words: list[str]) -> None:
    assert invented(said, FACTS) == words


def test_echoing_the_agent_is_not_straying() -> None:
    assert invented("No — 18:30 on Friday, not 18:00", ["Ana", "Agent: Friday 18:00 then?"]) == []


def test_dates_normalise_to_one_form() -> None:
    forms = [
        "1980-03-12",
        "12 March 1980",
        "March 12, 1980",
        "12.03.1980",
        "12 марта 1980",
        "12. ožujka 1980",
    ]
    assert {next(iter(claims(f).dates)) for f in forms} == {"1980-03-12"}


EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.mark.parametrize("example", ["clinic", "pizza", "starter"])
def test_no_false_positive_on_any_bundled_example(example: str) -> None:
    """The scripted caller keeps to its facts on every bundled suite: 0 flagged calls."""
    log = MemoryLog()
    run_suite(load_suite(EXAMPLES / example / "suite.yaml"), log, RunOptions(run_id="e"), now=lambda: "")
    found = [
        e.payload
        for s in log.streams("conv/")
        for e in log.read_stream(s)
        if isinstance(e.payload, CheckRecorded) and e.payload.check == "caller_outside_facts"
    ]
    assert found and [c.evidence for c in found if c.outcome == "fail"] == []


@pytest.mark.parametrize(
    "said",
    ["born 1980-03-15 on Friday", "card 4111 1111 1111 1111", "12 March 1980", "my number is 555 1234 567"],
)
def test_the_values_of_several_texts_are_the_union_of_each_texts(said: str) -> None:
    # caller_outside_facts reads each text once and keeps the union as the call goes on
    allowed = set().union(*(allowed_by(text) for text in FACTS))
    assert invented_against(said, allowed) == invented(said, FACTS)
    assert invented_against(said, set()) == invented(said, [])
