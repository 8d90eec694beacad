"""Recorded answers reused for identical requests (``--cache``, ``--resume``)."""

from __future__ import annotations

from typing import Any

from polygon.models import ModelAnswer, ModelClient, answer_from_body, request_hash


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

    async def aclose(self) -> None:
        """Nothing of its own to release: the hub closes the client it wraps."""
