"""Polygon: test phone (voice) AI agents by simulating whole calls.

The public surface for code a suite points at (Python agents, their factories) is what this
module exports; it is pinned by ``tests/test_public_api.py``. Everything else is internal
and may move.

The agent types load on first use (PEP 562): every ``polygon.*`` import passes through this
module, and the command line's ``--help`` should not pay for msgspec (issue 31).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from polygon.simulate import Agent, AgentError, AgentReply, AgentStep, Message, ToolCall, ToolResult

__all__ = [
    "Agent",
    "AgentError",
    "AgentReply",
    "AgentStep",
    "Message",
    "ToolCall",
    "ToolResult",
    "__version__",
]

_AGENT_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> object:
    """``polygon.AgentReply`` and the rest: imported from :mod:`polygon.simulate.agents` when first asked."""
    if name not in _AGENT_API:
        raise AttributeError(f"module 'polygon' has no attribute {name!r}")
    from polygon.simulate import agents

    value = getattr(agents, name)
    globals()[name] = value  # later lookups find it without coming here
    return value
