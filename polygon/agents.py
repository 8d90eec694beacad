"""Agents under test, behind one step protocol.

Each step the agent sees what it *heard* (the caller's text after ASR noise), the history
so far and the results of any tool calls it asked for in this turn, and returns either tool
calls (Polygon runs the stubs and steps it again) or a reply, optionally ending the call.
The shapes follow OpenAI chat messages so that a model-driven agent fits without a shim.

Adapters: a Python callable (``python:module:factory``) and an HTTP endpoint (POST JSON).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable
from typing import Any, Protocol

import httpx
import msgspec

from polygon.events.errors import UserInputError


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
    """What the agent answers: tool calls, or a reply (maybe ending the call)."""

    reply: str = ""
    tool_calls: list[ToolCall] = msgspec.field(default_factory=list)
    end: str = ""
    """``hangup`` or ``transfer`` to end the call after this reply."""


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


class PythonAgent:
    """Wraps an object with ``step(AgentStep)`` (sync or async) or a plain callable."""

    def __init__(self, target: Any) -> None:
        self._step: Callable[[AgentStep], Any] = target.step if hasattr(target, "step") else target

    async def step(self, request: AgentStep) -> AgentReply:
        """Call the wrapped step; coerce dicts; wrap every failure in :class:`AgentError`."""
        try:
            out = self._step(request)
            if inspect.isawaitable(out):
                out = await out
        except Exception as exc:
            raise AgentError(f"agent raised {type(exc).__name__}: {exc}") from exc
        return coerce_reply(out)

    async def aclose(self) -> None:
        """Nothing to release."""


def coerce_reply(out: Any) -> AgentReply:
    """Accept an AgentReply, a plain string or a dict of its fields."""
    if isinstance(out, AgentReply):
        return out
    if isinstance(out, str):
        return AgentReply(reply=out)
    try:
        return msgspec.convert(out, AgentReply)
    except (msgspec.ValidationError, TypeError) as exc:
        raise AgentError(f"agent answered something that is not a reply: {exc}") from None


def python_factory(ref: str, *, prompt: str, params: dict[str, Any], search_path: str = "") -> AgentFactory:
    """``module:factory`` → a factory giving one fresh agent per call.

    ``search_path`` (the suite's directory) is put on ``sys.path`` so that an agent module
    kept beside the suite file imports without installing anything.
    """
    module_name, _, attr = ref.partition(":")
    if not module_name or not attr:
        raise UserInputError(f"agent {ref!r}: expected python:module:factory")
    if search_path and search_path not in sys.path:
        sys.path.insert(0, search_path)
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise UserInputError(f"agent python:{ref}: cannot import ({exc})") from None

    def make() -> Agent:
        return PythonAgent(factory(prompt=prompt, params=params))

    return make


class HttpAgent:
    """POSTs each step as JSON to an endpoint; the answer is an :class:`AgentReply` object."""

    def __init__(self, url: str, client: httpx.AsyncClient, timeout_s: float = 30.0) -> None:
        self._url = url
        self._client = client
        self._timeout = timeout_s

    async def step(self, request: AgentStep) -> AgentReply:
        """One HTTP round trip."""
        try:
            response = await self._client.post(
                self._url,
                content=msgspec.json.encode(request),
                timeout=self._timeout,
                headers={"content-type": "application/json"},
            )
        except httpx.HTTPError as exc:
            raise AgentError(f"agent endpoint {self._url}: {type(exc).__name__}: {exc}") from None
        if response.status_code != 200:
            raise AgentError(f"agent endpoint {self._url} answered HTTP {response.status_code}")
        try:
            return msgspec.json.decode(response.content, type=AgentReply)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise AgentError(f"agent endpoint {self._url} answered malformed JSON: {exc}") from None

    async def aclose(self) -> None:
        """The shared client is closed by its owner."""
