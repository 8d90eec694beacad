"""Model-call events: every request to a language model, recorded before it is used."""

from __future__ import annotations

from typing import Any

from polygon.events.registry import Event, event_type


@event_type(version=1)
class ModelCalled(Event, frozen=True, kw_only=True, tag="model.called"):
    """A model was asked something. Replay reads this instead of calling again."""

    role: str
    """``agent``, ``caller``, ``judge``, ``probe`` or ``persona``."""
    model: str
    """Model reference, ``provider/model``."""
    request_hash: str
    """Hash of the canonical request (never includes keys)."""
    request: dict[str, Any]
    """The canonical request."""
    response: dict[str, Any] | None = None
    """The response body, or None if every attempt failed."""
    conversation_id: str = ""
    """Conversation id, if the call belongs to one."""
    turn: int = 0
    """Exchange number, if any."""
    usage: dict[str, int] = {}
    """Token counts as the server reported them."""
    latency_ms: float = 0.0
    """Wall time of the successful attempt."""
    attempts: int = 1
    """Attempts made, retries included."""
    errors: list[str] = []
    """One line per failed attempt."""
    cached: bool = False
    """True when the response was reused from an identical recorded request."""
