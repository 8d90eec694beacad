"""The Ray executor against local: per-conversation overhead, and the driver's ceiling.

- overhead: the clinic suite at ``trials`` per scenario, run locally and on a local Ray
  (2 CPUs; Ray started before timing), interleaved; (Ray − local) / calls;
- ceiling: tasks that return a recorded conversation's events at once (no work), so the
  driver does nothing but receive and commit: events per second it writes.

``python -m tests.bench.ray_exec`` (also part of ``make bench``).
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from polygon.app.jobs import group_commit
from polygon.app.run import RunOptions, run_suite
from polygon.events import EventLog, LmdbLog, Pending
from polygon.execute import Executor, make_executor
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path

REPEATS = 3


def _run(path: Path, executor: str, trials: int) -> tuple[float, int]:
    loaded = load_suite(clinic_suite_path())
    loaded = loaded.model_copy(update={"suite": loaded.suite.model_copy(update={"trials": trials})})
    made = make_executor(executor)
    with LmdbLog(path) as log:
        began = time.perf_counter()
        try:
            summary = run_suite(
                loaded, log, RunOptions(run_id="b", executor=made, concurrency=8), now=lambda: "t"
            )
        finally:
            made.close()
        return time.perf_counter() - began, summary.conversations


def _events_of_one_call() -> list[Pending]:
    tmp = Path(tempfile.mkdtemp())
    try:
        _run(tmp / "one", "local", 1)
        with LmdbLog(tmp / "one", readonly=True) as log:
            stream = next(iter(log.streams("conv/")))
            return [
                Pending(stream=e.stream, identity=e.identity, event=e.payload, recorded_at="t")
                for e in log.read_stream(stream)
            ]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def _echo(events: list[Pending]) -> list[Pending]:
    return events


async def _commit_all(log: EventLog, executor: Executor | None, jobs: list[list[Pending]]) -> None:
    """What the driver does with results: one group-commit writer (with no executor: the jobs as they are)."""
    async with group_commit(log) as writer:
        if executor is None:
            for job in jobs:
                writer.submit(job)
            return
        async for result in executor.map(_echo, jobs, window=64):
            writer.submit(result)


def _renamed(events: list[Pending], n: int) -> list[Pending]:
    """The call's events under another stream and identities (a distinct call to commit)."""
    return [
        Pending(
            stream=f"{p.stream}-{n}", identity=f"{p.identity[:24]}{n:08x}", event=p.event, recorded_at="t"
        )
        for p in events
    ]


def main(trials: int = 10, calls: int = 2000) -> None:
    import ray

    from polygon.execute.ray import RayExecutor

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    tmp = Path(tempfile.mkdtemp(prefix="polygon-ray-bench-"))
    try:
        times: dict[str, list[float]] = {"local": [], "ray": []}
        n = 0
        for r in range(REPEATS):
            for executor in ("local", "ray"):
                seconds, n = _run(tmp / f"{executor}{r}", executor, trials)
                times[executor].append(seconds)
        over = [(b - a) / n * 1000 for a, b in zip(times["local"], times["ray"], strict=True)]
        print(f"Ray executor, {n} calls (clinic × {trials} trials), 2 CPUs, min / median / max:")
        for executor, got in times.items():
            print(f"  {executor:<6} {min(got):6.2f} {statistics.median(got):6.2f} {max(got):6.2f} s")
        print(
            f"  overhead per conversation: {statistics.median(over):.1f} ms (min {min(over):.1f}, max {max(over):.1f})"
        )
        events = _events_of_one_call()
        jobs = [_renamed(events, i) for i in range(calls)]
        rates = []
        for r in range(REPEATS):
            executor = RayExecutor()
            with LmdbLog(tmp / f"ceiling{r}") as log:
                began = time.perf_counter()
                asyncio.run(_commit_all(log, executor, jobs))
                rates.append(calls * len(events) / (time.perf_counter() - began))
        alone = []
        for r in range(REPEATS):
            with LmdbLog(tmp / f"alone{r}") as log:
                began = time.perf_counter()
                asyncio.run(_commit_all(log, None, jobs))
                alone.append(calls * len(events) / (time.perf_counter() - began))
        print(f"  the driver's commit alone (same batches, no Ray): {statistics.median(alone):,.0f} events/s")
        print(
            f"  driver ceiling (receive + commit, {len(events)} events a call): "
            f"{statistics.median(rates):,.0f} events/s (min {min(rates):,.0f}, max {max(rates):,.0f})"
        )
    finally:
        ray.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
