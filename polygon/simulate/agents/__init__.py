"""Agents under test, behind one step protocol.

Each step the agent sees what it *heard* (the caller's text after ASR noise), the history
so far and the results of any tool calls it asked for in this turn, and returns either tool
calls (Polygon runs the stubs and steps it again) or a reply, optionally ending the call.
The shapes follow OpenAI chat messages so that a model-driven agent fits without a shim.

Adapters: a Python callable (``python:module:factory``) and an HTTP endpoint (POST JSON).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import msgspec


class ToolCall(msgspec.Struct, frozen=True, kw_only=True):
    """A tool call requested by the agent."""

    id: str
    name: str
    arguments: Any = msgspec.field(default_factory=dict)


class ToolResult(msgspec.Struct, frozen=True, kw_only=True):
    """What a stub answered to one tool call."""

    call_id: str
    name: str
    result: Any = None
    error: str = ""


class Message(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of the history (``user`` = caller as heard, ``assistant`` = agent)."""

    role: str
    content: str = ""
    tool_calls: list[ToolCall] = msgspec.field(default_factory=list)
    tool_call_id: str = ""
    name: str = ""


class AgentStep(msgspec.Struct, frozen=True, kw_only=True):
    """What the agent is given at each step."""

    conversation_id: str
    turn: int
    heard: str
    history: list[Message]
    tool_results: list[ToolResult] = msgspec.field(default_factory=list)
    tools: list[dict[str, Any]] = msgspec.field(default_factory=list)


class AgentReply(msgspec.Struct, frozen=True, kw_only=True):
    """What the agent answers: tool calls, a reply, or both; either may end the call."""

    reply: str = ""
    tool_calls: list[ToolCall] = msgspec.field(default_factory=list)
    end: str = ""
    """``hangup`` or ``transfer`` to end the call after this reply; beside tool calls, after
    they have run, in order (the agent is not stepped again)."""


class Agent(Protocol):
    """The agent under test."""

    async def step(self, request: AgentStep) -> AgentReply:
        """Answer one step."""
        ...

    async def aclose(self) -> None:
        """Release resources."""
        ...


class AgentError(Exception):
    """The agent failed (raised, answered garbage, the endpoint died): ends the call."""


AgentFactory = Callable[[], Agent]


def coerce_reply(out: Any) -> AgentReply:
    """Accept an AgentReply, a plain string or a dict of its fields."""
    if isinstance(out, AgentReply):
        return out
    if isinstance(out, str):
        return AgentReply(reply=out)
    try:
        return msgspec.convert(out, AgentReply)
    except (msgspec.ValidationError, TypeError, ValueError, RecursionError) as exc:
        raise AgentError(f"agent answered something that is not a reply: {exc}") from None
