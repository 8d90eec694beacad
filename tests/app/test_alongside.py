"""A run's scoring pass beside its simulation (``polygon.app.alongside``).

A forked process scores each call as it ends; the log must hold exactly what a pass after the
simulation writes, a failure there must stop the run with one clear error, and the process
must never outlive the run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from polygon.app import alongside, jobs, scoring_process
from polygon.app.explain import explain_conversation
from polygon.app.replay import broken_policies, load_conversation
from polygon.app.report import report_run
from polygon.app.run import RunOptions, run_suite
from polygon.errors import InfrastructureError, UserInputError
from polygon.events import LmdbLog, Prepared
from polygon.models import ModelHub
from polygon.render import (
    explain_data,
    explain_lines,
    replay_data,
    replay_ending_lines,
    replay_policy_lines,
    replay_turn_lines,
)
from polygon.suite.loading import load_suite
from polygon.transcript import ConversationView
from tests.bench import pipeline
from tests.support.examples import clinic_suite_path
from tests.support.runs import contents

pytestmark = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="a run scores beside its simulation only with a second core"
)


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The pids of the scoring processes the runs fork (small runs too)."""
    monkeypatch.setattr(alongside, "MIN_CALLS", 1)
    pids: list[int] = []
    real = os.fork

    def fork() -> int:
        pid = real()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(alongside.os, "fork", fork)
    yield pids


@pytest.fixture
def read_back(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The streams the driver reads back from the log to send to the scoring process."""
    streams: list[str] = []
    real = LmdbLog.stream_records

    def counted(self: LmdbLog, stream: str, *, page_size: int = 512) -> list[bytes]:
        streams.append(stream)
        return real(self, stream, page_size=page_size)

    monkeypatch.setattr(LmdbLog, "stream_records", counted)
    return streams


def _clinic(path: Path, monkeypatch: pytest.MonkeyPatch, *, beside: bool) -> str:
    return _reports(path, monkeypatch, beside=beside)[0]


def _reports(path: Path, monkeypatch: pytest.MonkeyPatch, *, beside: bool) -> tuple[str, str]:
    """The run's text and JSON reports."""
    monkeypatch.setattr(alongside, "ENABLED", beside)
    with LmdbLog(path) as log:
        run_id = run_suite(load_suite(clinic_suite_path()), log, RunOptions(), now=lambda: "t").run_id
        text, data = ("".join(report_run(log, run_id, fmt)[1]) for fmt in ("text", "json"))
        return text, data


def _explained_and_replayed(path: Path) -> dict[str, list[str]]:
    """Each call's ``explain`` and ``replay``, as text and as JSON."""
    shown: dict[str, list[str]] = {}
    with LmdbLog(path, readonly=True) as log:
        for stream in log.streams("conv/"):
            cid = stream.removeprefix("conv/")
            found = explain_conversation(log, cid, None)
            view = load_conversation(log, cid)
            broken = broken_policies(log, cid)
            shown[cid] = [
                *explain_lines(found.row, found.rubric, found.view),
                json.dumps(explain_data(found.row, found.rubric), sort_keys=True),
                *_replayed(view),
                *replay_policy_lines(broken),
                json.dumps(replay_data(view, broken), sort_keys=True),
            ]
    return shown


def _replayed(view: ConversationView) -> Iterator[str]:
    """``replay``'s turns and ending."""
    for t in view.turns:
        yield from replay_turn_lines(t)
    yield from replay_ending_lines(view)


def test_scored_beside_the_simulation_the_log_and_report_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    after, after_json = _reports(tmp_path / "after", monkeypatch, beside=False)
    assert forks == []
    beside, beside_json = _reports(tmp_path / "beside", monkeypatch, beside=True)
    assert len(forks) == 1  # it did go beside
    assert contents(tmp_path / "beside") == contents(tmp_path / "after")  # every event, by identity and hash
    assert beside == after
    assert "pass" in beside
    assert beside_json == after_json  # the log's numbering differs, each call's stream does not


def test_scored_beside_the_simulation_explain_and_replay_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    """They cite each event by its place in the call's stream, which the log's numbering is not."""
    _reports(tmp_path / "after", monkeypatch, beside=False)
    _reports(tmp_path / "beside", monkeypatch, beside=True)
    assert len(forks) == 1
    after, beside = _explained_and_replayed(tmp_path / "after"), _explained_and_replayed(tmp_path / "beside")
    assert len(after) == 24 and after.keys() == beside.keys()
    assert any("#" in line for lines in after.values() for line in lines)  # positions are shown
    for cid, lines in after.items():
        assert beside[cid] == lines, cid


def test_calls_the_scoring_process_simulates_are_the_calls_the_run_would_make(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    simulated: list[str] = []
    take = alongside.Alongside._simulated

    def noted(self: alongside.Alongside, answer: scoring_process.Simulated) -> None:
        simulated.append(answer.conversation_id)
        take(self, answer)

    monkeypatch.setattr(alongside.Alongside, "_simulated", noted)
    loaded = pipeline.suite(40, 4)
    for name, beside in (("after", False), ("beside", True)):
        monkeypatch.setattr(alongside, "ENABLED", beside)
        with LmdbLog(tmp_path / name) as log:
            summary = run_suite(loaded, log, RunOptions(run_id="r", concurrency=4), now=lambda: "t")
        assert summary.end_reasons == {"max_turns": 40}, summary  # every call counted once, either process
        assert summary.scoring is not None and summary.scoring.scored == 40
    assert simulated  # some calls were made beside
    assert len(set(simulated)) == len(simulated) < 40
    assert contents(tmp_path / "beside") == contents(tmp_path / "after")


def test_a_new_runs_calls_go_from_memory_and_none_is_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int], read_back: list[str]
) -> None:
    loaded = pipeline.suite(40, 4)
    for name, beside in (("after", False), ("beside", True)):
        monkeypatch.setattr(alongside, "ENABLED", beside)
        with LmdbLog(tmp_path / name) as log:
            summary = run_suite(loaded, log, RunOptions(run_id="r", concurrency=4), now=lambda: "t")
        assert summary.scoring is not None and summary.scoring.scored == 40
    assert len(forks) == 1
    assert read_back == []  # every call was sent as the driver (or the process) made it
    assert contents(tmp_path / "beside") == contents(tmp_path / "after")


def test_calls_past_the_keep_are_read_back_and_scored_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int], read_back: list[str]
) -> None:
    loaded = pipeline.suite(20, 4)
    for name, beside, budget in (("after", False, jobs.KEEP_BYTES), ("beside", True, 0)):
        monkeypatch.setattr(alongside, "ENABLED", beside)
        monkeypatch.setattr(jobs, "KEEP_BYTES", budget)  # nothing held: the driver's calls read back
        with LmdbLog(tmp_path / name) as log:
            summary = run_suite(loaded, log, RunOptions(run_id="r", concurrency=4), now=lambda: "t")
        assert summary.scoring is not None and summary.scoring.scored == 20
    assert len(forks) == 1
    assert read_back  # once durable (the process's own calls are scored where they were made)
    assert contents(tmp_path / "beside") == contents(tmp_path / "after")


def test_an_error_scoring_a_call_stops_the_run_with_it_and_ends_the_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    async def refused(job: jobs.VisitJob, hub: object) -> jobs.VisitResult:
        raise UserInputError("rubric criterion 'tone' cannot be read")

    monkeypatch.setattr(jobs, "visit_events", refused)  # the forked process inherits it
    with pytest.raises(UserInputError, match="criterion 'tone' cannot be read"), LmdbLog(tmp_path / "log") as log:
        run_suite(pipeline.suite(6, 3), log, RunOptions(run_id="r"), now=lambda: "t")
    [pid] = forks
    with pytest.raises(ChildProcessError):  # reaped: no zombie, no process left
        os.waitpid(pid, os.WNOHANG)


def test_a_scoring_process_that_dies_is_one_clear_error_and_the_resume_scores_every_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    driver, real = os.getpid(), jobs.visit_events

    async def dies(job: jobs.VisitJob, hub: ModelHub) -> jobs.VisitResult:
        if os.getpid() == driver:  # the driver scores the last calls too (it helps): as ever
            return await real(job, hub)
        os._exit(9)

    monkeypatch.setattr(jobs, "visit_events", dies)
    loaded = pipeline.suite(6, 3)
    with pytest.raises(InfrastructureError, match="scoring process ended"), LmdbLog(tmp_path / "log") as log:
        run_suite(loaded, log, RunOptions(run_id="r"), now=lambda: "t")
    monkeypatch.undo()
    with LmdbLog(tmp_path / "log") as log:
        summary = run_suite(loaded, log, RunOptions(resume="r"), now=lambda: "t")
    # The calls it was making died with it (it scores them before it sends them): made again.
    assert summary.ran_now <= alongside.SIMULATING
    assert summary.scoring is not None and summary.scoring.scored == 6


def test_a_pass_that_asks_a_model_server_or_a_small_run_is_not_forked(tmp_path: Path) -> None:
    many = alongside.MIN_CALLS
    with LmdbLog(tmp_path / "log") as log:
        assert alongside.possible(log, offline=True, here=True, calls=many)
        assert not alongside.possible(log, offline=False, here=True, calls=many)  # it would need the key
        assert not alongside.possible(log, offline=True, here=False, calls=many)  # Ray's workers score
        assert not alongside.possible(log, offline=True, here=True, calls=many - 1)
    with LmdbLog(tmp_path / "log", readonly=True) as log:
        assert not alongside.possible(log, offline=True, here=True, calls=many)


def test_a_small_run_scores_after_its_simulation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    monkeypatch.setattr(alongside, "MIN_CALLS", 13)
    with LmdbLog(tmp_path / "log") as log:
        run_suite(pipeline.suite(12, 3), log, RunOptions(run_id="r"), now=lambda: "t")
    assert forks == []


def test_a_scoring_process_that_answers_nothing_stops_the_run_instead_of_hanging_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    driver, real = os.getpid(), jobs.visit_events

    async def stuck(job: jobs.VisitJob, hub: ModelHub) -> jobs.VisitResult:
        import time

        if os.getpid() == driver:  # the driver scores the last calls too (it helps): as ever
            return await real(job, hub)
        time.sleep(3600)
        raise AssertionError("never")

    monkeypatch.setattr(jobs, "visit_events", stuck)
    monkeypatch.setattr(alongside, "SILENT_S", 0.5)
    with pytest.raises(InfrastructureError, match="answered nothing for"), LmdbLog(tmp_path / "log") as log:
        run_suite(pipeline.suite(6, 3), log, RunOptions(run_id="r"), now=lambda: "t")
    [pid] = forks
    with pytest.raises(ChildProcessError):  # killed and reaped
        os.waitpid(pid, os.WNOHANG)


def test_a_driver_ahead_of_the_process_scores_calls_itself_and_the_wait_stays_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forks: list[int]
) -> None:
    """A process slower than the driver: the calls waiting for it stay a few, the log the same.

    Without the help, every call the driver made would wait for the slow process (at 100,000
    calls, 50,000 waited when the simulation ended: megabytes of heap and a long tail).
    """
    driver, real = os.getpid(), jobs.visit_events

    async def slow(job: jobs.VisitJob, hub: ModelHub) -> jobs.VisitResult:
        import time

        if os.getpid() != driver:
            time.sleep(0.005)
        return await real(job, hub)

    waited: list[int] = []
    helped: list[int] = []
    ended, finish = alongside.Alongside.ended, alongside.Alongside.finish

    def noted(self: alongside.Alongside, conversation_id: str, made: list[Prepared] | None) -> None:
        ended(self, conversation_id, made)
        waited.append(len(self.todo) + len(self.waiting))

    async def finished(self: alongside.Alongside, earlier: Iterable[str]) -> jobs.VisitResult:
        result = await finish(self, earlier)
        helped.append(self.helped)
        return result

    monkeypatch.setattr(alongside.Alongside, "ended", noted)
    monkeypatch.setattr(alongside.Alongside, "finish", finished)
    monkeypatch.setattr(alongside, "HELP_ABOVE", 6)
    monkeypatch.setattr(alongside, "HELP_DOWN_TO", 3)
    loaded = pipeline.suite(60, 4)
    for name, beside in (("after", False), ("beside", True)):
        monkeypatch.setattr(alongside, "ENABLED", beside)
        monkeypatch.setattr(jobs, "visit_events", slow if beside else real)
        with LmdbLog(tmp_path / name) as log:
            summary = run_suite(loaded, log, RunOptions(run_id="r", concurrency=4), now=lambda: "t")
        assert summary.scoring is not None and summary.scoring.scored == 60
    assert len(forks) == 1
    [count] = helped
    assert 0 < count < 60  # the driver scored some, the process the rest
    assert max(waited) <= 6 + 2 * 4  # the help's mark, and the calls the driver ended meanwhile
    assert contents(tmp_path / "beside") == contents(tmp_path / "after")
