"""A run's scoring pass reads the calls the run kept, and logs exactly what it logs reading the log.

The keep is bounded (``jobs.KEEP_BYTES``): past it, calls are read back from the log, and a
run with the keep, with a small one or with none writes the same events. These runs score after
simulating (``alongside.ENABLED`` off), so the log's order is the same run to run; a run that
scores beside its simulation keeps its calls too (tests/app/test_alongside.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from polygon.app import alongside, jobs
from polygon.app.run import RunOptions, run_suite
from polygon.events import Envelope, LmdbLog
from polygon.events.kept import KeptRecords
from tests.bench import pipeline

CALLS = 12
_KEEPING = LmdbLog.keeping


def _run(tmp: Path, budget: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Envelope], list[KeptRecords]]:
    monkeypatch.setattr(jobs, "KEEP_BYTES", budget)
    monkeypatch.setattr(alongside, "ENABLED", False)
    keeps: list[KeptRecords] = []

    @contextmanager
    def noted(self: LmdbLog, budget: int) -> Iterator[KeptRecords]:
        with _KEEPING(self, budget) as kept:
            keeps.append(kept)
            yield kept

    monkeypatch.setattr(LmdbLog, "keeping", noted)
    with LmdbLog(tmp / "log") as log:
        run_suite(pipeline.suite(CALLS, 4), log, RunOptions(run_id="k", concurrency=4), now=lambda: "T")
        return list(log.read_all()), keeps


def test_the_pass_reads_every_kept_call_and_logs_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_back, none = _run(tmp_path / "off", 0, monkeypatch)
    kept_all, [kept] = _run(tmp_path / "on", 1 << 24, monkeypatch)
    assert none == []  # no keep at all
    assert kept.served == CALLS  # no call was read back from the log
    assert len(kept) == kept.held == 0  # and nothing is left held
    assert kept_all == read_back  # every event, seq, time and payload


def test_past_its_budget_the_pass_reads_calls_from_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_back, _ = _run(tmp_path / "off", 0, monkeypatch)
    some_kept, [kept] = _run(tmp_path / "small", 30_000, monkeypatch)  # a few calls' worth
    assert 0 < kept.served < CALLS
    assert some_kept == read_back
