"""The model-client seam: every language-model call goes through :class:`ModelClient`.

Requests are OpenAI chat-completion bodies (plain dicts); the answer carries the text the
model produced plus what the log needs (usage, latency, attempts, errors). The HTTP client
for OpenAI-compatible servers plugs in here; tests use :class:`ScriptedModelClient`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from polygon.boundary import log_safe
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
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    """``[{"id", "name", "arguments"}]``; arguments parsed from JSON, or kept as the raw string."""
    cached: bool = False
    """True when the answer was reused from a recorded identical request."""


class ModelClient(Protocol):
    """Anything that can complete a chat request.

    Implementations: ``openai`` (any OpenAI-compatible server), ``llama`` (in process),
    ``scripted`` (tests), ``cache`` (recorded answers first) and ``recorded`` (writes each
    call to the log). All run the contract suite in ``tests/contracts/test_model_client.py``.
    """

    async def complete(self, request: dict[str, Any]) -> ModelAnswer:
        """Send one request; never raises for model-side failures (they are in the answer)."""
        ...

    async def aclose(self) -> None:
        """Release connections (a no-op for clients that hold none)."""
        ...


def request_hash(request: dict[str, Any]) -> str:
    """Hash of the canonical request: what a cache or a replay keys on."""
    return digest(canonical(request))


def answer_from_body(body: Any) -> ModelAnswer:
    """Read an OpenAI chat-completion body: content, tool calls, usage.

    Any shape is accepted: what is not where the format puts it is simply absent (no text,
    no tool call), and the body is kept as :func:`~polygon.boundary.log_safe` values, so a
    server's garbage becomes an unreadable answer, never an exception.
    """
    body = log_safe(body) if isinstance(body, dict) else {"unexpected": log_safe(body)}
    choices = body.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else {}
    message = first.get("message", {}) if isinstance(first, dict) else {}
    if not isinstance(message, dict):
        message = {}
    calls = _tool_calls(message.get("tool_calls"))
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    content = message.get("content")
    return ModelAnswer(
        text=content if isinstance(content, str) else None if not calls else "",
        response=body,
        tool_calls=calls,
        usage={str(k): v for k, v in (usage or {}).items() if isinstance(v, int) and not isinstance(v, bool)},
    )


def _tool_calls(raw: Any) -> list[dict[str, Any]]:
    calls = []
    for i, call in enumerate(raw if isinstance(raw, list) else []):
        fn = call.get("function") if isinstance(call, dict) else None
        if not isinstance(fn, dict):
            continue  # a tool call without a function object names nothing to call
        args_raw = fn.get("arguments", "")
        try:
            args: Any = json.loads(args_raw) if isinstance(args_raw, str) else args_raw
        except (ValueError, RecursionError):
            args = args_raw  # kept as sent: the tool stage records it as invalid
        call_id = call.get("id") if isinstance(call, dict) else None
        calls.append(
            {"id": str(call_id or f"call-{i}"), "name": str(fn.get("name", "")), "arguments": log_safe(args)}
        )
    return calls

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.models.hub import ModelHub as ModelHub
    from polygon.models.hub import ModelSettings as ModelSettings
    from polygon.models.hub import is_scripted as is_scripted
    from polygon.models.llama import open_llama as open_llama
    from polygon.models.llama import packaged_model_path as packaged_model_path
    from polygon.models.recorded import RecordedClient as RecordedClient
    from polygon.models.recorded import Recorder as Recorder

_FACE = {
    "ModelHub": "polygon.models.hub",
    "ModelSettings": "polygon.models.hub",
    "RecordedClient": "polygon.models.recorded",
    "Recorder": "polygon.models.recorded",
    "is_scripted": "polygon.models.hub",
    "open_llama": "polygon.models.llama",
    "packaged_model_path": "polygon.models.llama",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = [
    "ModelClient",
    "ModelHub",
    "ModelSettings",
    "RecordedClient",
    "Recorder",
    "is_scripted",
    "open_llama",
    "packaged_model_path",
]
