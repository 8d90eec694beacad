"""Behaviour probe answers."""

from __future__ import annotations

from polygon.events.registry import Event, event_type


@event_type(version=1)
class ProbeAnswered(Event, frozen=True, kw_only=True, tag="probe.answered"):
    """A yes/no question about one behaviour, answered for one conversation."""

    conversation_id: str
    """Conversation id."""
    probe_id: str
    """Probe id."""
    probe_hash: str
    """Content hash of the probe's wording: trends join only equal hashes."""
    question: str
    """The wording asked."""
    polarity: str
    """``desired`` (yes is good) or ``guardrail`` (no is good)."""
    answer: str
    """``yes``, ``no`` or ``n/a``."""
    evidence: str = ""
    """Quote or reason."""
    answered_by: str = ""
    """Model reference or ``scripted/detector`` (a deterministic detector, not a model)."""
    heuristic: bool = False
    """True when a deterministic detector answered."""
