"""``expect.before`` needs the prerequisite to have succeeded (trial39 defect 3).

An agent that called verify_owner, got ``{"verified": false}`` and booked anyway passed at
100 under ``before: [[verify_owner, book_appointment]]``. A refused call (an error, an
invalid call, a false success/permission flag, a failed status) is no prerequisite; an
answer about the world (``found: false``) is not a refusal, and a retry that succeeds is.
"""

from __future__ import annotations

from typing import Any

import pytest

from polygon.events import ConversationEnded, Expectation
from polygon.score.checks import unmet
from polygon.score.denial import refusal
from polygon.transcript import ConversationView, ToolView, TurnView

ORDER = Expectation(before=[["verify_owner", "book_appointment"]])


def tool(name: str, result: Any = None, *, error: str = "", valid: bool = True) -> ToolView:
    return ToolView(
        at=0, index=0, tool=name, arguments={}, valid=valid, validation_errors=[],
        result=result, error=error, fault="", latency_ms=0.0,
    )  # fmt: skip


def view(*tools: ToolView) -> ConversationView:
    turns = [TurnView(turn=n, tools=[t]) for n, t in enumerate(tools, 1)]
    ended = ConversationEnded(conversation_id="c", reason="caller_done", by="caller", turns=len(turns))
    return ConversationView(conversation_id="c", turns=turns, ended=ended)


BOOK = tool("book_appointment", {"ok": True})


@pytest.mark.parametrize(
    ("verification", "why"),
    [
        (tool("verify_owner", {"verified": False}), "verified: false"),
        (tool("verify_owner", {"ok": False, "reason": "no match"}), "ok: false"),
        (tool("verify_owner", {"error": "owner not found"}), "error: owner not found"),
        (tool("verify_owner", {"status": "DENIED"}), "status: DENIED"),
        (tool("verify_owner", None, error="500 Internal Server Error"), "an error: 500"),
        (tool("verify_owner", None, error="invalid arguments", valid=False), "arguments were invalid"),
    ],
)
def test_an_action_after_a_refused_prerequisite_misses_before(verification: ToolView, why: str) -> None:
    [miss] = unmet(view(verification, BOOK), ORDER, {})
    assert miss.startswith("book_appointment was called after verify_owner was refused") and why in miss


@pytest.mark.parametrize(
    "verification",
    [
        tool("verify_owner", {"verified": True}),
        tool("verify_owner", {"found": False}),  # an answer about the world, not a refusal
        tool("verify_owner", {"available": False, "error": None}),
        tool("verify_owner", {"status": "active"}),
        tool("verify_owner", "ok"),
    ],
)
def test_an_answer_that_is_no_refusal_is_a_prerequisite(verification: ToolView) -> None:
    assert refusal(verification) == ""
    assert unmet(view(verification, BOOK), ORDER, {}) == []


def test_a_retry_that_succeeds_before_the_action_is_enough() -> None:
    denied, accepted = tool("verify_owner", {"verified": False}), tool("verify_owner", {"verified": True})
    assert unmet(view(denied, accepted, BOOK), ORDER, {}) == []
    assert unmet(view(denied, BOOK, accepted), ORDER, {})  # the success came too late


def test_order_and_absence_read_as_before() -> None:
    assert unmet(view(BOOK, tool("verify_owner", {"verified": True})), ORDER, {}) == [
        "book_appointment was called before verify_owner"
    ]
    assert unmet(view(BOOK), ORDER, {}) == [
        "verify_owner was not called, expected verify_owner before book_appointment"
    ]
