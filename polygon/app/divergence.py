"""``polygon divergence``: the first turn at which two logged calls part, and why."""

from __future__ import annotations

from polygon.app.replay import load_conversation
from polygon.compare import Divergence, find_divergence
from polygon.events import EventLog


def divergence_between(log: EventLog, a: str, b: str) -> Divergence | None:
    """Where conversations ``a`` and ``b`` part (None when they never do); unknown ids are user errors."""
    return find_divergence(load_conversation(log, a), load_conversation(log, b))
