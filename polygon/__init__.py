"""Polygon: test phone (voice) AI agents by simulating whole calls.

The public surface for code a suite points at (Python agents, their factories) is what this
module exports; it is pinned by ``tests/test_public_api.py``. Everything else is internal
and may move.
"""

__version__ = "0.1.0"

from polygon.simulate.agents import (  # noqa: E402  (the version first: modules below read it)
    Agent,
    AgentError,
    AgentReply,
    AgentStep,
    Message,
    ToolCall,
    ToolResult,
)

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
