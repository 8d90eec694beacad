"""A run eases the cyclic collector while it runs (issue 31) and leaves it as it found it."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from polygon.app.run import YOUNG_GC_EVERY, RunOptions, run_suite
from polygon.events import MemoryLog
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path


@pytest.fixture
def collector() -> Iterator[tuple[int, int, int]]:
    """The collector as the process had it, put back whatever a test does to it."""
    before = gc.get_threshold()
    gc.unfreeze()
    yield before
    gc.set_threshold(*before)
    gc.unfreeze()


def _run_seeing_collector() -> list[tuple[int, int]]:
    """Run the clinic suite; (young threshold, frozen objects) as each call ended."""
    seen: list[tuple[int, int]] = []

    def ended(reason: str) -> None:
        seen.append((gc.get_threshold()[0], gc.get_freeze_count()))

    run_suite(
        load_suite(clinic_suite_path()), MemoryLog(), RunOptions(run_id="gc"), now=lambda: "", on_end=ended
    )
    return seen


def test_a_run_freezes_what_was_alive_and_collects_young_objects_less_often(
    collector: tuple[int, int, int],
) -> None:
    seen = _run_seeing_collector()
    assert seen
    assert all(young == max(collector[0], YOUNG_GC_EVERY) and frozen > 0 for young, frozen in seen)
    assert gc.get_threshold() == collector
    assert gc.get_freeze_count() == 0  # the oldest generation took it back


def test_a_collector_switched_off_stays_off(collector: tuple[int, int, int]) -> None:
    gc.set_threshold(0, collector[1], collector[2])
    seen = _run_seeing_collector()
    assert seen and all(young == 0 for young, _ in seen)
    assert gc.get_threshold() == (0, collector[1], collector[2])


_FROZEN = """
import gc, json, sys
from polygon.app.run import RunOptions, run_suite
from polygon.events import MemoryLog
from polygon.suite import load_suite
from tests.support.examples import clinic_suite_path
seen = set()
real = gc.freeze
def freeze():
    seen.update(sys.modules)
    real()
gc.freeze = freeze
run_suite(load_suite(clinic_suite_path()), MemoryLog(), RunOptions(run_id="gc"), now=lambda: "")
print(json.dumps(sorted(m for m in json.loads(sys.argv[1]) if m not in seen)))
"""


def test_the_runs_loop_and_scoring_pass_are_loaded_before_the_freeze() -> None:
    """A command's start no longer imports them (issue 31): the run loads them before it freezes
    what is alive, or every full collection of the run would walk their modules' objects."""
    wanted = ["asyncio", "polygon.score.conversation", "polygon.score.judges.heuristic"]
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _FROZEN, json.dumps(wanted)],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
    )
    assert json.loads(done.stdout.splitlines()[-1]) == []
