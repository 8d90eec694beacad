"""``expect.says`` / ``expect.says_before``: speech one scenario requires of the agent.

Policies are suite-wide, so a ``must_say`` would fail every other scenario; a motorway caller
who is never told to call emergency services passed (trial40 D4). A phrase is matched as
policies match phrases (:func:`polygon.score.policies.said`: case aside, in any language,
umlauts spelled either way, a number however it is said), in the agent's turns only.
Findings join ``goal_reached``'s, one phrase each.
"""

from __future__ import annotations

from collections.abc import Sequence

from polygon.events import Expectation, SaidBefore
from polygon.score.policies import Speech, said
from polygon.transcript import ConversationView


def unsaid(view: ConversationView, expect: Expectation) -> list[str]:
    """What of ``expect.says`` and ``expect.says_before`` the agent did not say (in time)."""
    out = [f"the agent never said {_named(p)}" for p in expect.says if _first_turn(view, p) is None]
    return out + [miss for order in expect.says_before if (miss := _late(view, order))]


def _first_turn(view: ConversationView, phrases: Sequence[str]) -> int | None:
    """The first agent turn holding one of ``phrases``."""
    speech = Speech(phrases=list(phrases))
    return next((t.turn for t in view.turns if said(t.agent_text or "", speech)), None)


def _late(view: ConversationView, order: SaidBefore) -> str:
    """The phrase unsaid, or said only from the tool's first call on ("" when kept).

    An agent turn's reply follows that turn's tool calls, so only an earlier turn counts —
    or, in the same turn, text said beside a call (the caller hears it as the tools run),
    which counts before that call and the ones after it.
    """
    spoken = _first_said(view, order.phrase)
    called = next(
        ((t.turn, c.index) for t in view.turns for c in t.tools if c.tool == order.tool), None
    )
    if spoken is None:
        return f"the agent never said {_named(order.phrase)}" + (
            f" (expected before {order.tool}, called at turn {called[0]})" if called is not None else ""
        )
    if called is not None and called < spoken:
        return f"{order.tool} was called at turn {called[0]} before the agent said {_named(order.phrase)}"
    return ""


def _first_said(view: ConversationView, phrases: Sequence[str]) -> tuple[int, float] | None:
    """(turn, tool index) where one of ``phrases`` was first said.

    Said beside the call at that index, or (turn, inf): in the reply after the turn's tools.
    """
    speech = Speech(phrases=list(phrases))
    for t in view.turns:
        beside = next((x.index for x in t.beside_tools if said(x.text, speech)), None)
        if beside is not None:
            return t.turn, beside
        if said(t.agent_text or "", speech):
            return t.turn, float("inf")
    return None


def _named(phrases: Sequence[str]) -> str:
    return " or ".join(repr(p) for p in phrases)
