"""Tool events: every call the agent made to a stub tool."""

from __future__ import annotations

from typing import Any

from polygon.events.registry import Event, event_type


@event_type(version=1)
class ToolCalled(Event, frozen=True, kw_only=True, tag="tool.called"):
    """The agent called a tool; the stub's answer, fault and latency are recorded."""

    conversation_id: str
    """Conversation id."""
    turn: int
    """Exchange number."""
    index: int
    """Order of the call within the turn, from 0."""
    call_id: str
    """The agent's id for the call."""
    tool: str
    """Tool name."""
    arguments: dict[str, Any]
    """Arguments as the agent sent them."""
    valid: bool
    """Whether the arguments matched the tool's JSON schema."""
    validation_errors: list[str] = []
    """Schema violations, one line each."""
    result: Any = None
    """What the stub returned (None when it failed)."""
    error: str = ""
    """Error text returned to the agent, if any."""
    fault: str = ""
    """Injected fault: ``timeout``, ``server_error``, ``malformed`` or empty."""
    latency_ms: float = 0.0
    """Simulated latency."""
    state_hash: str = ""
    """Hash of a stateful stub's state after the call."""
    stub_broken: bool = False
    """The stub itself failed (its template does not render): the simulator's fault."""
    validated: bool = True
    """False when no schema was known (an imported call without a suite): ``valid`` says nothing."""
    unpaired: str = ""
    """An imported call with no partner in the export: ``no result in the export`` (a call
    nothing answered) or ``no call in the export`` (a result for an id never called)."""
