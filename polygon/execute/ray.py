"""The Ray executor: each item a Ray task; the driver keeps a bounded window in flight.

A worker that dies mid-task is retried by Ray (``max_retries``); the work is deterministic
(identities follow from run, conversation, turn, seed and kind), and the driver only writes
what a task *returned*, so a retry can neither lose nor double an event. Keys reach workers
through their environment (``OPENAI_API_KEY`` on every node), never through task arguments
or the log.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import AsyncGenerator, Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from polygon.errors import InfrastructureError, PolygonError, UserInputError
from polygon.execute import Work

J = TypeVar("J")
R = TypeVar("R")

RAY_EXTRA_HINT = "the Ray executor needs the optional extra: pip install 'polygon-eval[ray]'"
RETRIES = 3
"""How often Ray runs a task again after its worker died."""
WAIT_S = 0.5
"""The longest one wait for a task's end blocks its thread."""


class RayExecutor:
    """Tasks on an existing cluster (``address``) or on a local Ray this process starts."""

    name = "ray"

    def __init__(self, address: str | None = None, *, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise UserInputError(RAY_EXTRA_HINT) from None
        self._ray: Any = ray
        self._started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.ERROR,  # start-up notices are not the run's output
            }
            if address:
                kwargs["address"] = address
            elif num_cpus:
                kwargs["num_cpus"] = num_cpus
            try:
                with _own_signals():
                    ray.init(**kwargs)
            except ConnectionError as exc:
                raise UserInputError(f"--ray-address {address}: no Ray cluster there ({exc})") from None
            except Exception as exc:  # noqa: BLE001 - Ray raises a bare Exception when its node times out
                where = f"the Ray cluster at {address}" if address else "a local Ray node"
                raise InfrastructureError(
                    f"could not start {where}: {_first_line(exc)} (a loaded machine can time Ray's start-up "
                    "out: try again, or run without --executor ray)"
                ) from None
            self._started = True
        self._remotes: dict[Callable[..., Any], Any] = {}

    async def map(self, work: Work[J, R], jobs: Iterable[J], *, window: int) -> AsyncGenerator[R, None]:
        """Results as tasks finish; at most ``window`` tasks submitted and not yet collected.

        Ray's own failures (a dead raylet or node, a worker that cannot import the job's
        module) are an :class:`InfrastructureError` in one line; an exception the task itself
        raised comes back as it was (a Polygon error as its own one line).
        """
        errors = self._ray.exceptions
        try:
            async for result in self._map(work, jobs, window=window):
                yield result
        except errors.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, PolygonError):
                raise cause from None
            if isinstance(cause, ImportError):
                raise InfrastructureError(
                    f"a Ray worker cannot import {cause.name or cause}: install it on every node"
                ) from None
            raise
        except errors.RayError as exc:
            raise InfrastructureError(f"Ray failed: {type(exc).__name__}: {_first_line(exc)}") from None

    async def _map(self, work: Work[J, R], jobs: Iterable[J], *, window: int) -> AsyncGenerator[R, None]:
        ray = self._ray
        remote = self._remotes.get(work)
        if remote is None:
            task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(_in_own_loop(work))
            remote = self._remotes[work] = task
        pending: list[Any] = []
        source = iter(jobs)
        exhausted = False
        try:
            while pending or not exhausted:
                while not exhausted and len(pending) < max(1, window):
                    try:
                        pending.append(remote.remote(next(source)))
                    except StopIteration:
                        exhausted = True
                if not pending:
                    break
                done: list[Any] = []
                while not done:
                    # ray.wait blocks: in a thread, so the driver's loop keeps committing meanwhile;
                    # for a while only, so a stopped run's loop (which joins that thread) ends soon
                    done, pending = await asyncio.to_thread(ray.wait, pending, num_returns=1, timeout=WAIT_S)
                yield ray.get(done[0])
        finally:  # a driver that stopped (Ctrl-C, a fault) wants none of the tasks still out
            self._cancel(pending)

    def _cancel(self, pending: list[Any]) -> None:
        for ref in pending:
            try:
                self._ray.cancel(ref)
            except Exception:  # noqa: BLE001 - a Ray that died has nothing left to cancel
                logging.getLogger(__name__).debug("ray.cancel failed", exc_info=True)

    def close(self) -> None:
        """Stop the local Ray this executor started (a cluster it joined keeps running)."""
        if self._started:
            self._started = False
            try:
                self._ray.shutdown()
            # a Ray that died cannot stop cleanly; the error that stopped the run is the one to show
            except Exception:  # noqa: BLE001
                logging.getLogger(__name__).debug("ray.shutdown failed", exc_info=True)


@contextmanager
def _own_signals() -> Iterator[None]:
    """Keep the command's SIGINT and SIGTERM handlers through ``ray.init``.

    A local Ray's node sets a SIGTERM handler that raises ``SystemExit`` wherever the
    driver is, which could leave the run's writer thread waiting forever at exit: the
    command's own (one line, end at once) is put back.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in kept.items():
            if handler is not None:
                signal.signal(sig, handler)


def _first_line(exc: BaseException) -> str:
    """An exception's first non-empty line (Ray's messages run to many)."""
    return next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)


def _in_own_loop(work: Work[J, R]) -> Callable[[J], R]:
    """The task Ray runs: the job function in the worker's own event loop.

    It carries the job function's name, so a worker's process title reads
    ``ray::simulate_one`` (what an operator looks for), not the wrapper's.
    """

    def task(job: J) -> R:
        return asyncio.run(_awaited(work, job))

    task.__name__ = task.__qualname__ = getattr(work, "__name__", "work")
    return task


async def _awaited(work: Work[J, R], job: J) -> R:
    return await work(job)
