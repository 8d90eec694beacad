"""Fault injection for the log: a real, small, offline run whose Nth commit fails.

``failing_append(n)`` replaces :meth:`LmdbLog.append_prepared` so that the n-th commit of the process
(counting from 1) raises the same :class:`StorageError` a full disk or ``ulimit -f`` gives;
``run_cli`` runs Polygon's CLI in this process, so the wrapper sees every commit of a run.
``log_contents`` reads a log back as each stream's (tag, payload) list, without the clock.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner, Result

from polygon.cli.main import cli
from polygon.events import LmdbLog, to_builtins
from polygon.events.errors import StorageError
from tests.support.examples import clinic_suite_path


def small_suite(folder: Path, personas: int = 3) -> Path:
    """The clinic suite cut to ``personas`` personas and one configuration (a run of a second)."""
    source = clinic_suite_path()
    folder.mkdir(parents=True, exist_ok=True)
    raw = yaml.safe_load(source.read_text())
    raw["personas"] = raw["personas"][:personas]
    raw["configs"] = {"v1": raw["configs"]["v1"]}
    shutil.copy(source.parent / "prompt_v1.md", folder / "prompt_v1.md")
    (folder / "suite.yaml").write_text(yaml.safe_dump(raw, sort_keys=False))
    return folder / "suite.yaml"


class Counter:
    """How many appends the process made (and at which one the injected fault fired)."""

    def __init__(self, fail_at: int) -> None:
        self.fail_at = fail_at
        self.calls = 0
        self.failed = False


@contextlib.contextmanager
def failing_append(fail_at: int) -> Iterator[Counter]:
    """Every commit of an ``LmdbLog`` counted; the ``fail_at``-th raises (0: none fails).

    Counted where every commit goes, ``append_prepared`` (``append`` prepares, then calls it;
    a run's writer calls it directly with what its scoring process prepared).
    """
    original = LmdbLog.append_prepared
    counter = Counter(fail_at)

    def append_prepared(self: LmdbLog, prepared: Any) -> Any:
        if prepared:
            counter.calls += 1
            if counter.calls == counter.fail_at:
                counter.failed = True
                raise StorageError(f"append to {self.path} failed: mdb_txn_commit: Input/output error")
        return original(self, prepared)

    LmdbLog.append_prepared = append_prepared  # type: ignore[method-assign]
    try:
        yield counter
    finally:
        LmdbLog.append_prepared = original  # type: ignore[method-assign]


def run_cli(log: Path, *args: str) -> Result:
    """``polygon --log LOG ARGS`` in this process (so a patched append sees its commits)."""
    return CliRunner().invoke(cli, ["--log", str(log), *args], catch_exceptions=True)


def log_contents(path: Path) -> dict[str, list[tuple[str, Any]]]:
    """Every stream's events as (tag, payload), in stream order; no clock, no sequence numbers."""
    out: dict[str, list[tuple[str, Any]]] = {}
    with LmdbLog(path, readonly=True) as log:
        for stream in log.streams():
            out[stream] = [(e.tag, to_builtins(e.payload)) for e in log.read_stream(stream)]
    return out


def holes(path: Path) -> list[str]:
    """Conversation streams that do not open with ``conversation.started``."""
    with LmdbLog(path, readonly=True) as log:
        return [
            s for s in log.streams("conv/") if next(iter(log.read_stream(s))).tag != "conversation.started"
        ]


def small_sweep(folder: Path, extra: str = "", parameters: str = "  patience: [1, 2]") -> Path:
    """A two-point grid over the small suite (``extra``: more top-level lines)."""
    small_suite(folder)
    text = (
        f"name: tiny\nsuite: suite.yaml\nbase: v1\nmode: grid\ntrials: 1\nparameters:\n{parameters}\n{extra}"
    )
    (folder / "sweep.yaml").write_text(text)
    return folder / "sweep.yaml"
