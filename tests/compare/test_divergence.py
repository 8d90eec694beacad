"""Where two calls part: the divergence rules."""

from __future__ import annotations

import pytest

from polygon.compare.divergence import find_divergence
from polygon.similarity import bigram_jaccard
from tests.support.views import BASE, conv


def test_identical_calls_never_part() -> None:
    assert find_divergence(conv("a", BASE), conv("b", BASE)) is None


def test_divergence_by_tool_calls() -> None:
    other = BASE[:3] + [
        (2, "agent", "Thanks, let me check the calendar for you", {"tools": [("find", {"d": 1})]})
    ]
    d = find_divergence(conv("a", BASE), conv("b", other))
    assert d is not None and (d.turn, d.reason) == (2, "tool_calls")


def test_divergence_by_ending() -> None:
    other = BASE[:3] + [(2, "agent", "Thanks, let me check the calendar for you", {"end": "transfer"})]
    d = find_divergence(conv("a", BASE), conv("b", other))
    assert d is not None and (d.turn, d.reason) == (2, "ending") and "transfer" in d.detail


def test_divergence_by_speakers_when_one_call_ends() -> None:
    d = find_divergence(conv("a", BASE), conv("b", BASE[:3]))
    assert d is not None and (d.turn, d.reason, d.speaker) == (2, "speakers", "agent")


def test_divergence_by_wording_and_the_half_boundary() -> None:
    # "a b c d e" has bigrams ab bc cd de; sharing 2 of 6 distinct → 1/3; sharing 4 of 6 → 2/3.
    assert bigram_jaccard("a b c d e", "a b c x y") == pytest.approx(2 / 6)
    assert bigram_jaccard("a b c", "a b d") == pytest.approx(1 / 3)
    assert bigram_jaccard("w1 w2 w3 w4", "w1 w2 w3 x") == pytest.approx(0.5)  # exactly 0.5: not below
    at_half = BASE[:3] + [(2, "agent", "w1 w2 w3 x")]
    base_half = BASE[:3] + [(2, "agent", "w1 w2 w3 w4")]
    assert find_divergence(conv("a", base_half), conv("b", at_half)) is None
    below = BASE[:3] + [(2, "agent", "w1 w2 x y")]  # 1/5 < 0.5
    d = find_divergence(conv("a", base_half), conv("b", below))
    assert d is not None and d.reason == "wording" and d.similarity == pytest.approx(0.2)
    assert bigram_jaccard("Yes.", "Yes.") == 1.0 and bigram_jaccard("Yes.", "No.") == 0.0


def test_another_amount_in_the_same_words_is_a_divergence() -> None:
    said = BASE[:3] + [(2, "agent", "Done: a medium veggie for 18:30, 12 euros. Anything else?")]
    other = BASE[:3] + [(2, "agent", "Done: a medium veggie for 18:30, 14 euros. Anything else?")]
    found = find_divergence(conv("a", said), conv("b", other))
    assert found is not None and (found.reason, found.turn) == ("values", 2)
    assert find_divergence(conv("a", said), conv("b", said)) is None
    # One number written in pieces is the same number; digits inside a word are a name, not a value.
    pieces = BASE[:3] + [(2, "agent", "Done: a medium veggie for 18 30, 12 euros. Anything else?")]
    assert find_divergence(conv("a", said), conv("b", pieces)) is None
