"""A German outcome that names the head of the goal's compound noun settles the goal (trial6).

German joins nouns: a caller who came to report "einen Unfallschaden an meinem Auto melden"
is told "Erledigt — Ihr Schaden ist unter der Nummer KS-70412 aufgenommen." The crude stems
("unfal", "schad") share nothing, so the caller did not take the report: it volunteered
facts nobody asked for ("Mein Name ist …", "Kennzeichen: …") until a correct claims agent
was cut as a loop. "Schaden" is the head of "Unfallschaden", "Scheibe" of
"Windschutzscheibe": a word that ends a goal's word (or that a goal's word ends) names the
same thing in a language whose pack says it closes compounds (`understand.compounds`).
"""

from __future__ import annotations

import pytest

from polygon.languages import load_language, read_turn
from polygon.simulate.callers.understanding import settled

DE = load_language("de")
FACTS = {"versicherungsnummer": "KV-448812", "geburtsdatum": "1980-03-12"}


@pytest.mark.parametrize(
    ("goal", "report"),
    [
        ("einen Unfallschaden an meinem Auto melden", "Erledigt — Ihr Schaden ist unter der Nummer KS-70412 aufgenommen."),
        ("einen Glasschaden an meiner Windschutzscheibe melden", "Erledigt — die Scheibe ist als Schaden KS-1 aufgenommen."),
        ("einen Schaden an meinem Auto melden", "Erledigt — Ihr Hagelschaden ist unter KS-70412 aufgenommen."),
        ("einen Parkschaden melden", "Erledigt, die Meldung Ihres Schadens ist aufgenommen."),
    ],
)
def test_an_outcome_naming_the_compounds_head_settles_the_goal(goal: str, report: str) -> None:
    assert settled(read_turn(report, DE), goal, FACTS, DE)


@pytest.mark.parametrize(
    ("goal", "report"),
    [
        # A shared ending that is no noun of its own settles nothing.
        ("einen Unfallschaden an meinem Auto melden", "Erledigt — Ihre Adresse ist geändert."),
        # Not an outcome: a question naming the head.
        ("einen Unfallschaden an meinem Auto melden", "Wann ist der Schaden passiert?"),
    ],
)
def test_nothing_else_settles_it(goal: str, report: str) -> None:
    assert not settled(read_turn(report, DE), goal, FACTS, DE)


def test_english_closes_no_compounds() -> None:
    en = load_language("en")
    # "damage" ends no word of the goal in English; nothing changes there.
    assert not en.understand.compounds
    assert DE.understand.compounds
