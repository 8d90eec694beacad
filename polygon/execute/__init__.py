"""Executors: where the unit of work (a whole conversation, or one call's scoring) runs.

The port is one async method: ``map(work, jobs, window=…)`` yields each job's result as it
finishes. The driver stays the single writer of the log: it commits whatever comes back
through one group-commit writer, so an executor never touches the log. A job function is an
``async def`` at module level taking one picklable job, so the same function runs here
(:class:`InProcessExecutor`, tasks in the driver's own event loop) or on a Ray worker
(``polygon.execute.ray``, each task in the worker's own event loop).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable
from typing import Protocol, TypeVar

J = TypeVar("J")
R = TypeVar("R")

Work = Callable[[J], Awaitable[R]]
"""A job function: module level (a Ray worker imports it by name), one job in, one result out."""


class Executor(Protocol):
    """Runs a job function over jobs; results come back as they finish (any order)."""

    name: str

    def map(self, work: Work[J, R], jobs: Iterable[J], *, window: int) -> AsyncGenerator[R, None]:
        """``work(job)`` for every job, at most ``window`` in flight; a failing job raises here.

        Jobs are drawn from ``jobs`` only as room opens, so a driver that stops iterating
        starts no further job.
        """
        ...

    def close(self) -> None:
        """Release what the executor started."""
        ...


class InProcessExecutor:
    """Each job a task in the driver's event loop, at most ``window`` at once."""

    name = "local"

    async def map(self, work: Work[J, R], jobs: Iterable[J], *, window: int) -> AsyncGenerator[R, None]:
        """Results in the order the tasks finish; when one fails, the others are cancelled first.

        Finishing order is kept exactly (a queue fed as tasks end), so work that never waits
        comes back in job order and the log's commit order stays what it was. The next job is
        drawn after the driver has handled a result, as a worker loop takes its next item.
        """
        source = iter(jobs)
        running: set[asyncio.Task[R]] = set()
        ended: asyncio.Queue[asyncio.Task[R]] = asyncio.Queue()

        def start(job: J) -> None:
            task = asyncio.ensure_future(work(job))
            task.add_done_callback(ended.put_nowait)
            running.add(task)

        try:
            for job in itertools.islice(source, max(1, window)):
                start(job)
            while running:
                task = await ended.get()
                running.discard(task)
                yield task.result()
                for job in itertools.islice(source, 1):
                    start(job)
        finally:  # an error, or a driver that stopped early: nothing is left running
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    def close(self) -> None:
        """Nothing was started."""


def make_executor(name: str, ray_address: str = "") -> Executor:
    """The executor a command asked for (``local`` or ``ray``), chosen once at the edge."""
    if name == "ray":
        from polygon.execute.ray import RayExecutor  # Ray is an optional extra: imported on demand

        return RayExecutor(ray_address or None)
    return InProcessExecutor()


__all__ = ["Executor", "InProcessExecutor", "Work", "make_executor"]
