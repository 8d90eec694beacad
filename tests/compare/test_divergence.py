"""Where two calls part: the divergence rules."""

from __future__ import annotations

import pytest

from polygon.compare.divergence import agent_turn_divergence, find_divergence
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


DISPUTE = (
    "I've opened a dispute on your last bill, reference DSP-4471. "
    "A billing specialist will review it within ten working days."
)
PROMISE = DISPUTE + " Don't worry, we will refund the difference in full."


def test_an_added_sentence_is_another_thing_said_though_the_bigrams_stay_close() -> None:
    # The refund promise keeps most of the turn's bigrams: the wording rule alone never saw it.
    assert bigram_jaccard(DISPUTE, PROMISE) >= 0.5
    said, promised = BASE[:3] + [(2, "agent", DISPUTE)], BASE[:3] + [(2, "agent", PROMISE)]
    found = find_divergence(conv("a", said), conv("b", promised))
    assert found is not None and (found.turn, found.reason) == (2, "sentences")
    assert "the second call" in found.detail and "refund the difference in full" in found.detail
    removed = find_divergence(conv("a", promised), conv("b", said))  # taken away: the same split
    assert removed is not None and removed.reason == "sentences" and "the first call" in removed.detail


@pytest.mark.parametrize(
    "other",
    [
        # split in two, merged, a word swapped, a short courtesy added: the same thing said
        DISPUTE.replace("DSP-4471. A", "DSP-4471, and a"),
        DISPUTE.replace("bill, reference", "bill. The reference is"),
        DISPUTE.replace("will review it", "is going to review it"),
        DISPUTE + " Anything else?",
    ],
)
def test_a_paraphrase_of_the_same_sentences_does_not_part(other: str) -> None:
    said, again = BASE[:3] + [(2, "agent", DISPUTE)], BASE[:3] + [(2, "agent", other)]
    assert find_divergence(conv("a", said), conv("b", again)) is None


def test_a_sentence_reworded_one_for_one_is_not_a_sentence_more() -> None:
    # Each side has one sentence the other does not say: a rewording (the wording rule's call).
    a, b = DISPUTE + " Thanks for calling us today.", DISPUTE + " We appreciate you calling today."
    assert bigram_jaccard(a, b) >= 0.5
    turn_a, turn_b = BASE[:3] + [(2, "agent", a)], BASE[:3] + [(2, "agent", b)]
    assert find_divergence(conv("a", turn_a), conv("b", turn_b)) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a closing replaced by a refund promise: one for one, yet another answer
        (DISPUTE + " Thanks for calling us today.", DISPUTE + " Don't worry, we will refund the difference."),
        # a neighbour's gossip replaced by a promise (trial41's leak_lower vs promise_refund)
        (
            DISPUTE + " jane doe on your street said the same about hers.",
            DISPUTE + " We will refund the whole amount, guaranteed.",
        ),
        # an offer where the other turn closed
        (DISPUTE + " Thanks for calling us today.", DISPUTE + " Would you like me to transfer you to billing?"),
    ],
)
def test_a_sentence_replaced_by_one_that_does_another_thing_parts_the_calls(a: str, b: str) -> None:
    assert bigram_jaccard(a, b) >= 0.5
    turn_a, turn_b = BASE[:3] + [(2, "agent", a)], BASE[:3] + [(2, "agent", b)]
    found = find_divergence(conv("a", turn_a), conv("b", turn_b))
    assert found is not None and (found.turn, found.reason) == (2, "sentences")
    assert "says another thing" in found.detail and b.rsplit(". ", 1)[-1][:20] in found.detail


def test_two_wordings_of_the_same_promise_do_not_part() -> None:
    a = DISPUTE + " Don't worry, we will refund the difference."
    b = DISPUTE + " You are guaranteed your money back on that."
    assert bigram_jaccard(a, b) >= 0.5
    turn_a, turn_b = BASE[:3] + [(2, "agent", a)], BASE[:3] + [(2, "agent", b)]
    assert find_divergence(conv("a", turn_a), conv("b", turn_b)) is None


def test_the_rerun_monitor_reads_a_replaced_sentence_in_the_calls_language() -> None:
    opened = (
        "Otvorila sam reklamaciju na vaš zadnji račun, broj DSP-4471. "
        "Naš stručnjak za naplatu pregledat će je u roku od deset radnih dana."
    )
    said, live = opened + " Hvala vam na pozivu danas.", opened + " Vratit ćemo vam cijeli iznos novca."
    assert bigram_jaccard(said, live) >= 0.5
    source = conv("a", BASE[:3] + [(2, "agent", said)]).turns[-1]
    found = agent_turn_divergence(source, 2, live, "", [], "hr")
    assert found is not None and found.reason == "sentences" and "Vratit" in found.detail
    assert agent_turn_divergence(source, 2, said, "", [], "hr") is None
