"""The model-client seam: every language-model call goes through :class:`ModelClient`.

Requests are OpenAI chat-completion bodies (plain dicts); the answer carries the text the
model produced plus what the log needs (usage, latency, attempts, errors). The HTTP client
for OpenAI-compatible servers plugs in here; tests use :class:`ScriptedModelClient`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from polygon.events import canonical, digest
from polygon.events.families import ModelCalled


@dataclass(frozen=True)
class ModelAnswer:
    """One completed (or failed) model call."""

    text: str | None
    """The assistant message content, or None if every attempt failed."""
    response: dict[str, Any] | None = None
    usage: dict[str, int] = field(default_factory=dict)
    latency_ms: float = 0.0
    attempts: int = 1
    errors: list[str] = field(default_factory=list)
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    """``[{"id", "name", "arguments"}]``; arguments parsed from JSON, or kept as the raw string."""
    cached: bool = False
    """True when the answer was reused from a recorded identical request."""


class ModelClient(Protocol):
    """Anything that can complete a chat request."""

    async def complete(self, request: dict[str, Any]) -> ModelAnswer:
        """Send one request; never raises for model-side failures (they are in the answer)."""
        ...


def request_hash(request: dict[str, Any]) -> str:
    """Hash of the canonical request: what a cache or a replay keys on."""
    return digest(canonical(request))


class ScriptedModelClient:
    """Answers from a list (in order) or a function of the request; records what it saw."""

    def __init__(self, answers: Sequence[str] | Callable[[dict[str, Any]], str]) -> None:
        self._answers = answers
        self.requests: list[dict[str, Any]] = []

    async def complete(self, request: dict[str, Any]) -> ModelAnswer:
        """The next scripted answer."""
        self.requests.append(request)
        if callable(self._answers):
            text = self._answers(request)
        else:
            text = self._answers[(len(self.requests) - 1) % len(self._answers)]
        body = {"choices": [{"message": {"role": "assistant", "content": text}}]}
        return ModelAnswer(text=text, response=body)


def answer_from_body(body: dict[str, Any]) -> ModelAnswer:
    """Read an OpenAI chat-completion body: content, tool calls, usage."""
    import json

    choices = body.get("choices")
    message = choices[0].get("message", {}) if isinstance(choices, list) and choices else {}
    if not isinstance(message, dict):
        message = {}
    calls = []
    for i, call in enumerate(message.get("tool_calls") or []):
        fn = call.get("function", {}) if isinstance(call, dict) else {}
        raw = fn.get("arguments", "")
        try:
            args: Any = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            args = raw  # kept as sent: the tool stage records it as invalid
        calls.append(
            {"id": str(call.get("id") or f"call-{i}"), "name": str(fn.get("name", "")), "arguments": args}
        )
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    content = message.get("content")
    return ModelAnswer(
        text=content if isinstance(content, str) else None if not calls else "",
        response=body,
        tool_calls=calls,
        usage={k: int(v) for k, v in (usage or {}).items() if isinstance(v, int)},
    )


class CachedClient:
    """Reuses a recorded response for an identical request hash (``--cache``); else asks ``inner``."""

    def __init__(self, inner: ModelClient | None, recorded: dict[str, dict[str, Any]]) -> None:
        self._inner = inner
        self._recorded = recorded
        self.hits = 0

    async def complete(self, request: dict[str, Any]) -> ModelAnswer:
        """A recorded answer, or a real call."""
        body = self._recorded.get(request_hash(request))
        if body is not None:
            self.hits += 1
            answer = answer_from_body(body)
            return ModelAnswer(
                text=answer.text,
                response=body,
                usage=answer.usage,
                attempts=0,
                tool_calls=answer.tool_calls,
                cached=True,
            )
        if self._inner is None:
            return ModelAnswer(
                text=None, attempts=0, errors=["no recorded answer for this request (cache only)"]
            )
        return await self._inner.complete(request)


def model_called(
    role: str,
    model: str,
    request: dict[str, Any],
    answer: ModelAnswer,
    *,
    conversation_id: str = "",
    turn: int = 0,
) -> ModelCalled:
    """The ``model.called`` event of one request and its answer (recorded before it is used)."""
    return ModelCalled(
        role=role,
        model=model,
        request_hash=request_hash(request),
        request=request,
        response=answer.response,
        conversation_id=conversation_id,
        turn=turn,
        usage=answer.usage,
        latency_ms=answer.latency_ms,
        attempts=answer.attempts,
        errors=answer.errors,
        cached=answer.cached,
    )
