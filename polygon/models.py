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
