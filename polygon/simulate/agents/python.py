"""Python agents: a factory from a suite's ``python:module:factory`` reference."""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable
from typing import Any

from polygon.errors import UserInputError
from polygon.simulate.agents import Agent, AgentError, AgentFactory, AgentReply, AgentStep, coerce_reply


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
