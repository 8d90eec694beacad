"""Deterministic check results."""

from __future__ import annotations

import msgspec

from polygon.events.registry import Event, event_type


class Evidence(msgspec.Struct, frozen=True, kw_only=True):
    """A pointer into the conversation."""

    turn: int
    """Exchange number."""
    at: int = 0
    """Position of the quoted event in the conversation's stream (its stream version), 0 if
    none. Unlike the global sequence number it is the same in every run of the same call."""
    quote: str = ""
    """The words quoted."""


@event_type(version=1)
class CheckRecorded(Event, frozen=True, kw_only=True, tag="check.recorded"):
    """One deterministic check over a conversation."""

    conversation_id: str
    """Conversation id."""
    check: str
    """Check id (``forbidden_phrase``, ``invalid_tool_args`` …)."""
    outcome: str
    """``pass``, ``fail`` or ``n/a``."""
    detail: str = ""
    """One line of explanation."""
    evidence: list[Evidence] = []
    """Where in the conversation."""
    simulator: bool = False
    """True for checks on the simulated caller, reported apart from the agent's score."""
    pass_id: str = ""
    """The scoring pass that ran the check (checks are re-run with every pass)."""
