"""Python agents: a factory from a suite's ``python:module:factory`` reference."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from polygon.simulate.agents import Agent, AgentError, AgentFactory, AgentReply, AgentStep, coerce_reply


class PythonAgent:
    """Wraps an object with ``step(AgentStep)`` (sync or async) or a plain callable."""

    def __init__(self, target: Any) -> None:
        self._step: Callable[[AgentStep], Any] = target.step if hasattr(target, "step") else target

    async def step(self, request: AgentStep) -> AgentReply:
        """Call the wrapped step; coerce dicts; wrap every failure in :class:`AgentError`."""
        try:
            out = self._step(request)
            if type(out) is not AgentReply and inspect.isawaitable(out):  # a plain reply skips the ABC check
                out = await out
        except Exception as exc:
            raise AgentError(f"agent raised {type(exc).__name__}: {exc}") from exc
        return coerce_reply(out)

    async def aclose(self) -> None:
        """Nothing to release."""


def python_factory(factory: Callable[..., Any], *, prompt: str, params: dict[str, Any]) -> AgentFactory:
    """A resolved ``factory(prompt=..., params=...)`` → one fresh :class:`PythonAgent` per call."""

    def make() -> Agent:
        try:
            return PythonAgent(factory(prompt=prompt, params=params))
        except Exception as exc:  # the user's factory failed: that call is the agent's error
            return _Unmade(f"the agent factory raised {type(exc).__name__}: {exc}")

    return make


class _Unmade:
    """An agent whose factory failed: every step says why (the call ends as ``error``)."""

    def __init__(self, reason: str) -> None:
        self._reason = reason

    async def step(self, request: AgentStep) -> AgentReply:
        """Fail with the factory's error."""
        raise AgentError(self._reason)

    async def aclose(self) -> None:
        """Nothing to release."""
