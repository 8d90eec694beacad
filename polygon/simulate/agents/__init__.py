"""Agents under test, behind one step protocol.

Each step the agent sees what it *heard* (the caller's text after ASR noise), the history
so far and the results of any tool calls it asked for in this turn, and returns either tool
calls (Polygon runs the stubs and steps it again) or a reply, optionally ending the call.
The shapes follow OpenAI chat messages so that a model-driven agent fits without a shim.

Adapters: a Python callable (``python:module:factory``) and an HTTP endpoint (POST JSON).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
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
    if fault := shape_fault(out):
        raise AgentError(f"agent answered {fault}")
    try:
        return msgspec.convert(out, AgentReply)
    except (msgspec.ValidationError, TypeError, ValueError, RecursionError) as exc:
        raise AgentError(f"agent answered something that is not a reply: {exc}") from None


_WITHOUT_REPLY = frozenset({"tool_calls", "end"})
_SHOWN_FIELDS = 8


def shape_fault(out: object) -> str:
    """What in an answer object is not the protocol's shape and would be lost, or ``""``.

    Fields a reply does not know are dropped when it is decoded, so an answer in another shape
    (an OpenAI message's ``content``) became an empty reply: the caller heard nothing, and
    nothing said why. Without ``reply``, a field beside ``tool_calls`` and ``end`` is where the
    text went; beside ``reply``, other fields are the agent's own (a trace id) and are ignored.
    ``{}`` and ``{"tool_calls": [...]}`` stay valid (``reply`` defaults to ``""``).
    """
    if not isinstance(out, Mapping):
        return ""
    if "reply" not in out and out.keys() - _WITHOUT_REPLY:
        hint = " (the OpenAI message shape? put the text in `reply`)" if "content" in out else ""
        return f"{_fields(out)}: no `reply` field{hint}; a reply is {{reply, tool_calls, end}}"
    return _openai_call(out.get("tool_calls"))


def _fields(out: Mapping[Any, Any]) -> str:
    """The answer's field names as JSON strings (escaped: an endpoint chose them), a few."""
    names = [json.dumps(str(k)[:40]) for k in list(out)[:_SHOWN_FIELDS]]
    more = ", ..." if len(out) > _SHOWN_FIELDS else ""
    return "{" + ", ".join(names) + more + "}"


def _openai_call(calls: object) -> str:
    """A tool call in OpenAI's ``{type, function: {name, arguments: "..."}}`` shape, named."""
    if not isinstance(calls, list):
        return ""
    for i, call in enumerate(calls):
        if isinstance(call, Mapping) and "function" in call and "name" not in call:
            return (
                f"tool_calls[{i}] in OpenAI's shape {{id, type, function: {{name, arguments: \"...\"}}}}:"
                " a tool call is {id, name, arguments: {...}}"
            )
    return ""
