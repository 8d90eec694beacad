"""The Ray executor: the same log as a local run, a worker killed mid-run, a driver killed and
resumed (across executors); the executor contract is tests/contracts/test_executor.py. One local Ray (2 CPUs, no dashboard)
serves the module; subprocess drivers join it by address."""

from __future__ import annotations

import glob
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from tests.support.runs import wait_for_conversations

ray = pytest.importorskip("ray")

EXAMPLES = Path(__file__).parents[2] / "examples" / "clinic"
FIXTURES = Path(__file__).parents[1] / "app" / "fixtures"
SLOW = str(FIXTURES / "slow_suite.yaml")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def contents(path: Path) -> set[tuple[str, str, str]]:
    """Every event as (stream, identity, content hash): the payloads, never the times."""
    with LmdbLog(path, readonly=True) as log:
        assert log.verify().ok
        return {(e.stream, e.identity, e.content_hash) for e in log.read_all()}


def _run(log: Path, suite: str, *extra: str) -> None:
    res = CliRunner().invoke(cli, ["--log", str(log), "run", suite, "--run-id", "r", "--no-progress", *extra])
    assert res.exit_code == 0, res.output


def test_a_ray_run_writes_the_same_log_as_a_local_run(cluster: str, tmp_path: Path) -> None:
    suite = str(EXAMPLES / "suite.yaml")
    _run(tmp_path / "local", suite)
    _run(tmp_path / "ray", suite, "--executor", "ray", "--concurrency", "4")
    assert contents(tmp_path / "local") == contents(tmp_path / "ray")
    # a new judge pass and a probe pass on Ray append the same events as locally
    for log, executor in ((tmp_path / "local", "local"), (tmp_path / "ray", "ray")):
        for args in (["judge", "r", "--rubric", "v2", "--repeats", "2"], ["probe", "r"]):
            res = CliRunner().invoke(cli, ["--log", str(log), *args, "--executor", executor])
            assert res.exit_code == 0, res.output
    assert contents(tmp_path / "local") == contents(tmp_path / "ray")


def _kill_a_worker(title: bytes, stop: threading.Event, killed: list[int]) -> None:
    while not stop.is_set() and not killed:
        for path in glob.glob("/proc/[0-9]*/cmdline"):
            try:
                with open(path, "rb") as f:
                    cmdline = f.read()
            except OSError:
                continue
            if cmdline.startswith(title):
                pid = int(path.split("/")[2])
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
        time.sleep(0.02)


def test_a_worker_killed_mid_run_loses_and_doubles_nothing(cluster: str, tmp_path: Path) -> None:
    stop, killed = threading.Event(), []
    hunter = threading.Thread(target=_kill_a_worker, args=(b"ray::simulate_one", stop, killed))
    hunter.start()
    try:
        _run(tmp_path / "ray", SLOW, "--executor", "ray", "--concurrency", "2")
    finally:
        stop.set()
        hunter.join()
    assert killed, "no worker was running a conversation to kill"
    _run(tmp_path / "local", SLOW)
    assert contents(tmp_path / "ray") == contents(tmp_path / "local")


@pytest.mark.parametrize(("first", "then"), [("ray", "ray"), ("local", "ray"), ("ray", "local")])
def test_a_killed_driver_resumes_on_either_executor(
    cluster: str, tmp_path: Path, first: str, then: str
) -> None:
    killed = tmp_path / "killed"
    cmd = [
        sys.executable,
        "-m",
        "polygon",
        "--log",
        str(killed),
        "run",
        SLOW,
        "--run-id",
        "r",
        "--no-progress",
    ]
    cmd += ["--concurrency", "2", "--executor", first, "--ray-address", cluster]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for_conversations(killed, 3, timeout=90)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    partial = contents(killed)
    res = CliRunner().invoke(
        cli,
        [
            "--log",
            str(killed),
            "run",
            SLOW,
            "--resume",
            "r",
            "--no-progress",
            "--executor",
            then,
            "--ray-address",
            cluster,
        ],
    )
    assert res.exit_code == 0, res.output
    _run(tmp_path / "whole", SLOW)
    assert partial < contents(killed) == contents(tmp_path / "whole")


def test_a_rerun_on_ray_writes_what_a_local_rerun_writes(cluster: str, tmp_path: Path) -> None:
    suite = str(EXAMPLES / "suite.yaml")
    for log, executor in ((tmp_path / "local", "local"), (tmp_path / "ray", "ray")):
        _run(log, suite)
        args = [
            "--log",
            str(log),
            "rerun",
            "r.v2.coop-booking.0",
            "--suite",
            suite,
            "--config",
            "v1",
            "--run-id",
            "x",
        ]
        res = CliRunner().invoke(cli, [*args, "--continue", "--executor", executor])
        assert res.exit_code == 0, res.output
    assert contents(tmp_path / "local") == contents(tmp_path / "ray")


def test_a_dead_model_server_stops_a_ray_run_with_one_clear_error(cluster: str, tmp_path: Path) -> None:
    from tests.support.runs import pizza

    suite = pizza(
        tmp_path,
        **{"caller: {model: scripted/caller}": "caller: {model: openai/caller}", "trials: 1": "trials: 4"},
    )
    args = ["--log", str(tmp_path / "log"), "run", str(suite), "--config", "good", "--run-id", "d"]
    args += [
        "--concurrency",
        "1",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--executor",
        "ray",
        "--no-progress",
    ]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    assert "is unreachable" in res.output and "--resume d" in res.output
    with LmdbLog(tmp_path / "log", readonly=True) as log:
        called = sum(1 for _ in log.streams("conv/d."))
    assert 1 <= called < 4  # it stopped starting calls once the server was known to be down


def test_ctrl_c_stops_a_ray_run_at_a_safe_point_and_it_resumes_whole(cluster: str, tmp_path: Path) -> None:
    """The driver's wait on Ray is bounded and its tasks still out are cancelled: no hang."""
    stopped = tmp_path / "stopped"
    cmd = [sys.executable, "-m", "polygon", "--log", str(stopped), "run", SLOW, "--run-id", "r"]
    cmd += ["--no-progress", "--concurrency", "2", "--executor", "ray", "--ray-address", cluster]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_for_conversations(stopped, 3, timeout=90)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)  # a hang detector
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("error: interrupted: at least "), err
    assert err.strip().endswith(f"resume with `polygon run {SLOW} --resume r`"), err
    res = CliRunner().invoke(cli, ["--log", str(stopped), "run", SLOW, "--resume", "r", "--no-progress"])
    assert res.exit_code == 0, res.output
    _run(tmp_path / "whole", SLOW)
    assert contents(stopped) == contents(tmp_path / "whole")


def test_a_local_ray_leaves_the_commands_signal_handlers_as_they_were() -> None:
    """A local Ray's node sets a SIGTERM handler raising SystemExit anywhere: it is undone."""
    from polygon.execute.ray import _own_signals

    ours = signal.getsignal(signal.SIGTERM)
    with _own_signals():
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))  # as Ray's node does
    assert signal.getsignal(signal.SIGTERM) is ours
