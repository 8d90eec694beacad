"""Executors: where the unit of work (a whole conversation, or one call's scoring) runs.

The port is one async method: ``map(work, jobs, window=…)`` yields each job's result as it
finishes. The driver stays the single writer of the log: it commits whatever comes back
through one group-commit writer, so an executor never touches the log. A job function is an
``async def`` at module level taking one picklable job, so the same function runs here
(:class:`InProcessExecutor`, tasks in the driver's own event loop) or on a Ray worker
(``polygon.execute.ray``, each task in the worker's own event loop).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

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


@dataclass(frozen=True)
class _Ended(Generic[R]):
    """A worker's message to the driver: a result, an error, or that it has stopped."""

    result: R | None
    error: Exception | None = None
    last: bool = False


class InProcessExecutor:
    """Each job a task in the driver's event loop, at most ``window`` at once."""

    name = "local"

    async def map(self, work: Work[J, R], jobs: Iterable[J], *, window: int) -> AsyncGenerator[R, None]:
        """Results in the order jobs finish; when one fails, the others are cancelled first.

        ``window`` workers take jobs from one iterator, each starting its next job the moment
        it ends one, so calls interleave exactly as a plain bounded worker loop's (the log's
        commit order follows from that). A worker that never waits lets the driver catch up
        once ``window`` results are waiting.
        """
        import asyncio  # ~0.025 CPU s, loaded by the work that runs a loop, not at a start (issue 31)

        source = iter(jobs)
        ended: asyncio.Queue[_Ended[R]] = asyncio.Queue()

        async def worker() -> None:
            try:
                for job in source:
                    ended.put_nowait(_Ended(await work(job)))
                    if ended.qsize() >= window:
                        await asyncio.sleep(0)  # the driver handles what waits
            except Exception as exc:  # noqa: BLE001 - handed to the driver, raised there
                ended.put_nowait(_Ended(None, exc))
            finally:
                ended.put_nowait(_Ended(None, last=True))

        workers = [asyncio.ensure_future(worker()) for _ in range(max(1, window))]
        working = len(workers)
        try:
            while working:
                got = await ended.get()
                if got.error is not None:
                    raise got.error
                if got.last:
                    working -= 1
                    continue
                yield got.result  # type: ignore[misc]  # a result, not the sentinel
        finally:  # an error, or a driver that stopped early: nothing is left running
            for task in workers:
                task.cancel()
            await asyncio.gather(*workers, return_exceptions=True)

    def close(self) -> None:
        """Nothing was started."""


def make_executor(name: str, ray_address: str = "") -> Executor:
    """The executor a command asked for (``local`` or ``ray``), chosen once at the edge."""
    if name == "ray":
        from polygon.execute.ray import RayExecutor  # Ray is an optional extra: imported on demand

        return RayExecutor(ray_address or None)
    return InProcessExecutor()

__all__ = [
    "Executor",
    "InProcessExecutor",
    "Work",
    "make_executor",
]
