"""A scripted model client: answers from a list or a function (tests, offline plumbing)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from polygon.models import ModelAnswer


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

    async def aclose(self) -> None:
        """Nothing to release."""
