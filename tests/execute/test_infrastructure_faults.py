"""A worker that lacks what a job needs, or a Ray that fails, stops the run (issue 26, item 9).

A worker without OPENAI_API_KEY (the server answers 401) or without the agent's module is an
infrastructure fault: one line naming the worker and the fix, exit 2, a resume hint, and none
of the calls it hit recorded as the agent's (or the caller's) error. A dead raylet is one line
too. These run without a cluster (an executor that runs jobs in this process with the key
hidden, and a stand-in ``ray`` whose calls fail); tests/execute/test_ray_faults.py repeats the
first two on a real local Ray.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.errors import InfrastructureError, SuiteError
from polygon.events import LmdbLog
from polygon.events.families import ConversationEnded, ConversationStarted
from polygon.execute.ray import RayExecutor
from tests.support.fault_server import serve
from tests.support.runs import pizza
from tests.support.text import without_rubric_warning

A = TypeVar("A")
R = TypeVar("R")
FAULT_ENDS = {"agent_error", "simulator_error"}


@contextmanager
def _env_without(name: str) -> Iterator[None]:
    saved = os.environ.pop(name, None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ[name] = saved


async def _as_on_a_worker(fn: Callable[[A], Awaitable[R]], item: A) -> R:
    """A job as a worker runs it: in a fresh context (it does not see the driver's hub)."""
    return await asyncio.create_task(fn(item), context=contextvars.Context())  # type: ignore[arg-type]


class KeylessWorkers:
    """An executor whose "workers" (this process, one job at a time) lack OPENAI_API_KEY."""

    name = "ray"

    def __init__(self, address: str | None = None, **kwargs: Any) -> None:
        pass

    async def map(
        self, fn: Callable[[A], Awaitable[R]], items: Iterable[A], *, window: int
    ) -> AsyncGenerator[R, None]:
        for item in items:
            with _env_without("OPENAI_API_KEY"):
                result = await _as_on_a_worker(fn, item)
            yield result

    def close(self) -> None:
        pass


def _ends(log: Path) -> list[str]:
    with LmdbLog(log, readonly=True) as opened:
        return [e.payload.reason for e in opened.read_all() if isinstance(e.payload, ConversationEnded)]


def _started(log: Path) -> int:
    with LmdbLog(log, readonly=True) as opened:
        return sum(1 for e in opened.read_all() if isinstance(e.payload, ConversationStarted))


def test_a_worker_without_the_key_stops_the_run_and_a_resume_runs_every_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("polygon.execute.ray.RayExecutor", KeylessWorkers)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-driver-secret-123")  # the driver has a key
    suite = pizza(tmp_path, **{"caller: {model: scripted/caller}": "caller: {model: openai/caller}"})
    log = tmp_path / "log"
    args = ["--log", str(log), "run", str(suite), "--config", "good", "--run-id", "k", "--no-progress"]
    with serve(["401echo"]) as (url, server):
        res = CliRunner().invoke(cli, [*args, "--base-url", url, "--executor", "ray"])
        assert res.exit_code == 2, res.output
        line = without_rubric_warning(res.output)
        assert len(line.splitlines()) == 1 and "Traceback" not in line, line
        assert "answered 401" in line and "OPENAI_API_KEY is not set there" in line and "--resume k" in line
        assert "sk-driver-secret-123" not in line
        assert not set(_ends(log)) & FAULT_ENDS  # never the agent's (or the caller's) error
        assert _started(log) == 0  # nothing of a call the fault hit is recorded
        # with the key where it is needed, the resume runs every call
        server.behaviours = ["ok:Hello, one medium veggie pizza for 18:30 please."]
        monkeypatch.setattr("polygon.execute.ray.RayExecutor", _KeyedWorkers)
        res = CliRunner().invoke(
            cli,
            ["--log", str(log), "run", str(suite), "--config", "good", "--resume", "k", "--no-progress",
             "--base-url", url, "--executor", "ray"],
        )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert _started(log) == 2 and len(_ends(log)) == 2


class _KeyedWorkers(KeylessWorkers):
    async def map(
        self, fn: Callable[[A], Awaitable[R]], items: Iterable[A], *, window: int
    ) -> AsyncGenerator[R, None]:
        for item in items:
            yield await _as_on_a_worker(fn, item)


def test_a_worker_that_cannot_make_the_agent_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("polygon.execute.ray.RayExecutor", _KeyedWorkers)
    suite = pizza(tmp_path)
    log = tmp_path / "log"

    def missing(path: Path, field: str, ref: str) -> Any:
        raise SuiteError(
            f"{path}: {field}: cannot import module 'pizza_agents' (No module named 'pizza_agents')"
        )

    monkeypatch.setattr("polygon.simulate.plan.resolve_factory", missing)  # only the "worker" makes agents
    args = ["--log", str(log), "run", str(suite), "--config", "good", "--run-id", "m", "--no-progress"]
    res = CliRunner().invoke(cli, [*args, "--executor", "ray"])
    assert res.exit_code == 2, res.output
    line = without_rubric_warning(res.output)
    assert len(line.splitlines()) == 1 and "cannot make the agent" in line and "--resume m" in line, line
    assert _started(log) == 0


class _Refs:
    def remote(self, item: Any) -> str:
        return "ref"


class _FailingRay:
    """A stand-in for the ``ray`` module whose wait fails as Ray does."""

    def __init__(self, failure: BaseException) -> None:
        import ray

        self.exceptions = ray.exceptions
        self._failure = failure

    def remote(self, **kwargs: Any) -> Callable[[Any], _Refs]:
        return lambda fn: _Refs()

    def wait(self, pending: list[Any], num_returns: int, timeout: float | None = None) -> Any:
        raise self._failure

    def cancel(self, ref: Any) -> None:
        """Nothing runs: nothing to cancel."""

    def get(self, ref: Any) -> Any:
        raise AssertionError("never reached")

    def shutdown(self) -> None:
        raise RuntimeError("a dead Ray does not shut down cleanly")


async def _echo(item: Any) -> str:
    return str(item)


def _drain(results: AsyncGenerator[Any, None]) -> list[Any]:
    async def go() -> list[Any]:
        return [r async for r in results]

    return asyncio.run(go())


def _executor(failure: BaseException) -> Any:
    executor = RayExecutor.__new__(RayExecutor)
    executor._ray = _FailingRay(failure)
    executor._started = True
    executor._remotes = {}
    return executor


def test_a_dead_raylet_is_one_line() -> None:
    ray = pytest.importorskip("ray")
    executor = _executor(ray.exceptions.LocalRayletDiedError())
    with pytest.raises(InfrastructureError) as caught:
        _drain(executor.map(_echo, [1, 2], window=2))
    assert str(caught.value).startswith("Ray failed: LocalRayletDiedError: The task's local raylet died")
    assert "\n" not in str(caught.value)
    executor.close()  # a Ray that died cannot shut down: that is not the error to show


def test_a_worker_that_cannot_import_the_job_is_one_line() -> None:
    ray = pytest.importorskip("ray")
    cause = ModuleNotFoundError("No module named 'polygon'", name="polygon")
    failure = ray.exceptions.RayTaskError("simulate_one", "Traceback …\nModuleNotFoundError", cause)
    with pytest.raises(
        InfrastructureError, match="a Ray worker cannot import polygon: install it on every node"
    ):
        _drain(_executor(failure).map(_echo, [1], window=1))
    said = SuiteError("suite.yaml: configs.good.agent: cannot import module 'x'")
    polygon_error = ray.exceptions.RayTaskError("simulate_one", "Traceback …", said)
    with pytest.raises(SuiteError) as caught:
        _drain(_executor(polygon_error).map(_echo, [1], window=1))
    assert caught.value is said  # the worker's own one-line error, not Ray's many lines


def test_a_dead_raylet_stops_a_run_with_a_resume_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ray = pytest.importorskip("ray")

    class DeadRaylet(_KeyedWorkers):
        def map(  # type: ignore[override]
            self, fn: Callable[[A], Awaitable[R]], items: Iterable[A], *, window: int
        ) -> AsyncGenerator[R, None]:
            return _executor(ray.exceptions.LocalRayletDiedError()).map(fn, items, window=window)  # type: ignore[no-any-return]

    monkeypatch.setattr("polygon.execute.ray.RayExecutor", DeadRaylet)
    log = tmp_path / "log"
    res = CliRunner().invoke(
        cli,
        [
            "--log",
            str(log),
            "run",
            str(pizza(tmp_path)),
            "--run-id",
            "d",
            "--no-progress",
            "--executor",
            "ray",
        ],
    )
    assert res.exit_code == 2 and res.exception is not None and isinstance(res.exception, SystemExit)
    line = without_rubric_warning(res.output)
    assert len(line.splitlines()) == 1 and "LocalRayletDiedError" in line and "--resume d" in line, line
