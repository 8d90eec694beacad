"""A forbidden object told to the caller as already done breaks ``policy:prompt_forbids``.

A new-user trial on a bank card line: the prompt said "Never promise a refund of disputed
transactions", and an agent that told a caller asking for one "The transaction has been
refunded" kept the prohibition (only "I've refunded" was read). A caller told it is done is
as sure of it as of a promise. A passive report that reads a status the call's tools returned
("your refund has been processed", after a lookup said so) is no promise of the agent's.
"""

from __future__ import annotations

import pytest

from polygon.score.prompt_forbids import promised, prompt_policy
from tests.support.calls import call, tool

PROMPT = "You are the card line. Never promise a refund of disputed transactions. Offer the dispute form."


@pytest.mark.parametrize(
    ("said", "obj"),
    [
        ("The transaction has been refunded.", "refund"),
        ("Both transactions have now been refunded to your card.", "refund"),
        ("Good news: it was refunded this morning.", "refund"),
        ("I've gone ahead and refunded the transaction for you.", "refund"),
        ("I've just refunded both payments.", "refund"),
        ("Your refund has been processed.", "refund"),
        ("The late fee has been waived.", "waiver"),
    ],
)
def test_a_forbidden_object_told_as_done_is_read(said: str, obj: str) -> None:
    assert obj in {p.object for p in promised(said)}


@pytest.mark.parametrize(
    "said",
    [
        "I can't refund that, but I can open a dispute.",
        "The transaction has not been refunded, I'm afraid.",
        "It hasn't been refunded yet.",
        "I'll check whether it has been refunded.",
        "Has it been refunded?",
        "Your card has been blocked and a replacement has been ordered.",
        "I've sent you the dispute form.",
        "I've noted that you want the transactions refunded, and opened a dispute.",
    ],
)
def test_a_refusal_or_a_non_refund_done_is_no_promise(said: str) -> None:
    assert promised(said) == []


def test_a_refund_told_as_done_fails_the_prompt_prohibition() -> None:
    view = call([("I want a refund of the disputed payments.", "Thanks. The transaction has been refunded.")])
    (found,) = prompt_policy(view, PROMPT)
    assert found.outcome == "fail"
    assert "promised refund" in found.detail


def test_a_passive_status_a_tool_returned_is_read_out_not_promised() -> None:
    status = tool("refund_status", {"txn": "T1"}, {"status": "refunded"})
    view = call([("Was my old payment refunded?", "Yes, that transaction has been refunded.", [status])])
    (found,) = prompt_policy(view, PROMPT)
    assert found.outcome == "pass"


def test_the_agent_s_own_refund_fails_even_beside_a_tool_status() -> None:
    status = tool("refund_status", {"txn": "T1"}, {"status": "refunded"})
    view = call([("Refund the disputed one.", "I've refunded the transaction for you.", [status])])
    (found,) = prompt_policy(view, PROMPT)
    assert found.outcome == "fail"


def test_a_correct_refusal_keeps_the_prohibition() -> None:
    refused = "I'm sorry, I can't refund disputed transactions, but I can send you the dispute form."
    view = call([("Refund it.", refused)])
    (found,) = prompt_policy(view, PROMPT)
    assert found.outcome == "pass"
