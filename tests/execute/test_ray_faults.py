"""Infrastructure faults on a real local Ray (issue 26, item 9): workers started without the
driver's OPENAI_API_KEY, and workers that cannot import the agent's module, stop the run in
one line with a resume hint; none of their calls is recorded as the agent's error."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import ConversationEnded
from tests.support.fault_server import serve
from tests.support.runs import pizza
from tests.support.text import without_rubric_warning

ray = pytest.importorskip("ray")
PIZZA_AGENTS = Path(__file__).parents[1] / "app" / "fixtures" / "pizza" / "pizza_agents.py"


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    # the workers' environment is fixed here: a key the driver sets later never reaches them
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("OPENAI_API_KEY", raising=False)
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def _fault_ends(log: Path) -> list[str]:
    if not (log / "data.mdb").exists():
        return []
    with LmdbLog(log, readonly=True) as opened:
        return [
            e.payload.reason
            for e in opened.read_all()
            if isinstance(e.payload, ConversationEnded)
            and e.payload.reason in ("agent_error", "simulator_error")
        ]


def _run(log: Path, suite: Path, *extra: str) -> tuple[int, str]:
    args = ["--log", str(log), "run", str(suite), "--config", "good", "--run-id", "r", "--no-progress"]
    res = CliRunner().invoke(cli, [*args, "--executor", "ray", *extra])
    return res.exit_code, without_rubric_warning(res.output)


def test_workers_without_the_key(cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-only-the-driver-has-it")
    suite = pizza(tmp_path, **{"caller: {model: scripted/caller}": "caller: {model: openai/caller}"})
    with serve(["401echo"]) as (url, _):
        code, out = _run(tmp_path / "log", suite, "--base-url", url)
    assert code == 2 and len(out.splitlines()) == 1, out
    assert "answered 401" in out and "OPENAI_API_KEY is not set there" in out and "--resume r" in out
    assert _fault_ends(tmp_path / "log") == []


def test_workers_without_the_agents_module(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    only_here = tmp_path / "driver_only"
    only_here.mkdir()
    (only_here / "driver_only_agents.py").write_text(PIZZA_AGENTS.read_text())
    monkeypatch.setattr(sys, "path", [str(only_here), *sys.path])  # the driver's path alone
    suite = pizza(tmp_path, **{"python:pizza_agents:make_good": "python:driver_only_agents:make_good"})
    code, out = _run(tmp_path / "log", suite)
    assert code == 2 and len(out.splitlines()) == 1, out
    assert "cannot make the agent" in out and "driver_only_agents" in out and "--resume r" in out
    assert _fault_ends(tmp_path / "log") == []


def test_a_ray_node_that_times_out_starting_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a loaded machine Ray's own start-up raised a bare Exception: the run printed a traceback."""
    import ray

    from polygon.errors import InfrastructureError
    from polygon.execute.ray import RayExecutor

    def timed_out(**_: object) -> None:
        raise Exception("The current node timed out during startup. This could happen because ...")  # noqa: TRY002

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", timed_out)
    with pytest.raises(InfrastructureError, match="could not start a local Ray node: The current node timed out"):
        RayExecutor()
