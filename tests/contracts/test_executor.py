"""The Executor contract (``polygon.execute``), checked against every implementation.

The tests live in :class:`ExecutorContract`; each implementation subclasses it and gives the
executor. The in-process executor is always checked; Ray's only where Ray is installed (one
local Ray, 2 CPUs, for the module). Job functions are module-level coroutines, as the port
asks, so a Ray worker imports them by name.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Iterator
from pathlib import Path
from typing import Any

import pytest

from polygon.errors import UserInputError
from polygon.execute import Executor, InProcessExecutor, make_executor


async def square(x: int) -> int:
    return x * x


async def refuse(x: int) -> int:
    raise UserInputError(f"item {x} is refused")


async def sleep_then_echo(seconds: float) -> float:
    await asyncio.sleep(seconds)
    return seconds


async def wait_for_the_other(job: tuple[str, str]) -> str:
    """``("first", marker)`` waits until the driver has *received* ``("second", marker)``'s result.

    Which one arrives first is decided by the jobs and the driver, not by a clock: on a loaded
    machine a worker may start more than a sleep's length late, and a result may take longer
    to reach the driver than the other job takes to notice a mark the second job left itself
    (both then arrive in one wait, in the order they were submitted).
    """
    name, marker = job
    if name == "second":
        return name
    mark = Path(marker)
    for _ in range(1200):  # 120 s: an executor that never runs the second job beside it fails
        if mark.exists():
            return name
        await asyncio.sleep(0.1)
    return name


async def collect_marking(results: AsyncGenerator[str, None], marker: Path) -> list[str]:
    """Every result, leaving ``marker`` once the second job's result is in the driver's hands."""
    got = []
    async for result in results:
        got.append(result)
        if result == "second":
            marker.write_text("received")
    return got


class Drawn:
    """Jobs handed out one by one, counting how many were taken."""

    def __init__(self, jobs: list[Any]) -> None:
        self.jobs = jobs
        self.taken = 0

    def __iter__(self) -> Iterator[Any]:
        for job in self.jobs:
            self.taken += 1
            yield job


async def collect(results: AsyncGenerator[Any, None]) -> list[Any]:
    return [r async for r in results]


class ExecutorContract:
    """What every executor does; a subclass provides the ``executor`` fixture."""

    @pytest.fixture
    def executor(self) -> Iterator[Executor]:
        raise NotImplementedError  # pragma: no cover - each implementation gives its own

    def test_every_job_returns_once(self, executor: Executor) -> None:
        results = asyncio.run(collect(executor.map(square, range(10), window=3)))
        assert sorted(results) == [x * x for x in range(10)]

    def test_no_jobs_no_results(self, executor: Executor) -> None:
        assert asyncio.run(collect(executor.map(square, [], window=3))) == []

    def test_results_come_as_they_finish(self, executor: Executor, tmp_path: Path) -> None:
        marker = tmp_path / "second-received"
        jobs = [("first", str(marker)), ("second", str(marker))]
        results = asyncio.run(collect_marking(executor.map(wait_for_the_other, jobs, window=2), marker))
        assert results == ["second", "first"]

    def test_a_job_error_goes_up_as_it_was_raised(self, executor: Executor) -> None:
        with pytest.raises(UserInputError, match="item 0 is refused"):
            asyncio.run(collect(executor.map(refuse, [0], window=1)))

    def test_a_driver_that_stops_draws_no_further_job(self, executor: Executor) -> None:
        jobs = Drawn([0.01] * 40)

        async def two() -> tuple[list[float], int]:
            got = []
            results = executor.map(sleep_then_echo, jobs, window=2)
            try:
                async for result in results:
                    got.append(result)
                    if len(got) == 2:
                        break
            finally:
                await results.aclose()
            taken = jobs.taken
            await asyncio.sleep(0.3)
            return got, taken

        got, taken_when_stopped = asyncio.run(two())
        assert got == [0.01, 0.01]
        assert jobs.taken == taken_when_stopped < 40  # nothing drawn once the driver stopped


class TestInProcessExecutor(ExecutorContract):
    @pytest.fixture
    def executor(self) -> Iterator[Executor]:
        made = make_executor("local")
        assert isinstance(made, InProcessExecutor)
        yield made
        made.close()

    def test_at_most_window_jobs_run_at_once(self) -> None:
        running, peak = 0, 0

        async def counted(x: int) -> int:
            nonlocal running, peak
            running += 1
            peak = max(peak, running)
            await asyncio.sleep(0.001)
            running -= 1
            return x

        results = asyncio.run(collect(InProcessExecutor().map(counted, range(50), window=4)))
        assert peak == 4 and sorted(results) == list(range(50))

    def test_jobs_that_never_wait_come_back_in_job_order(self) -> None:
        """The order a plain worker loop would finish them in: the log's commit order rests on it."""
        results = asyncio.run(collect(InProcessExecutor().map(square, range(30), window=8)))
        assert results == [x * x for x in range(30)]

    def test_a_failure_cancels_the_jobs_still_running(self) -> None:
        finished: list[float] = []

        async def slow_or_refused(x: float) -> float:
            if x < 0:
                raise UserInputError("refused")
            await asyncio.sleep(x)
            finished.append(x)
            return x

        async def go() -> None:
            with pytest.raises(UserInputError):
                await collect(InProcessExecutor().map(slow_or_refused, [0.2, -1.0], window=2))
            await asyncio.sleep(0.4)

        asyncio.run(go())
        assert finished == []  # nothing is still running once the error is up


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


class TestRayExecutor(ExecutorContract):
    @pytest.fixture
    def executor(self, ray_cluster: Any) -> Iterator[Executor]:
        made = make_executor("ray")
        assert made.name == "ray"
        yield made
        made.close()
        assert ray_cluster.is_initialized()  # an executor that joined a running Ray leaves it running
