"""Executors: where the unit of work (a whole conversation, or one call's scoring) runs.

The driver stays the single writer of the log: an executor only runs picklable work and
hands its results back, in whatever order they finish. ``local`` runs each item in this
process (the reference, and what the contract suite checks every executor against); the
in-process asyncio path of ``polygon run`` is the fast local case and does not go through
here. ``ray`` runs items as Ray tasks (``polygon.execute.ray``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TypeVar

A = TypeVar("A")
R = TypeVar("R")

EXECUTORS = ("local", "ray")


class Executor(Protocol):
    """Runs a function over items; results come back as they finish (any order)."""

    name: str

    def map(self, fn: Callable[[A], R], items: Iterable[A], *, window: int) -> Iterator[R]:
        """``fn(item)`` for every item, at most ``window`` in flight; a failing item raises here."""
        ...

    def close(self) -> None:
        """Release what the executor started."""
        ...


class LocalExecutor:
    """Each item in this process, one after another (the reference executor)."""

    name = "local"

    def map(self, fn: Callable[[A], R], items: Iterable[A], *, window: int) -> Iterator[R]:
        """Results in item order."""
        for item in items:
            yield fn(item)

    def close(self) -> None:
        """Nothing was started."""


__all__ = ["EXECUTORS", "Executor", "LocalExecutor"]
