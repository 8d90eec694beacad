"""The run head: one fold answers started, finished (and when), hidden, for every run query."""

from __future__ import annotations

import msgspec

from polygon.app.passes import read_run_head, start_run
from polygon.app.queries import run_heads
from polygon.app.runs import hide_run
from polygon.events import (
    RUBRIC,
    RUN_FINISHED,
    MemoryLog,
    Pending,
    RubricRecorded,
    RunFinished,
    RunHidden,
    RunStarted,
    identity,
    keyed,
    run_stream,
)
from polygon.projections import fold_run_head
from tests.golden.event_samples import SAMPLES

STARTED = next(e for e in SAMPLES if isinstance(e, RunStarted))


def _finish(log: MemoryLog, run_id: str) -> None:
    event = RunFinished(run_id=run_id, conversations=0, end_reasons={})
    log.append(
        [
            Pending(
                stream=run_stream(run_id),
                identity=identity(run=run_id, kind=RUN_FINISHED),
                event=event,
                recorded_at="t3",
            )
        ]
    )


def test_a_started_run_is_unfinished_and_visible() -> None:
    log = MemoryLog()
    start_run(log, STARTED, now=lambda: "t1")
    head = read_run_head(log, STARTED.run_id)
    assert head is not None
    assert (head.started, head.started_at, head.finished, head.hidden) == (STARTED, "t1", False, False)


def test_finishing_and_hiding_show_on_the_head() -> None:
    log = MemoryLog()
    start_run(log, STARTED, now=lambda: "t1")
    _finish(log, STARTED.run_id)
    assert hide_run(log, STARTED.run_id, reason="old", now=lambda: "t4")
    assert not hide_run(log, STARTED.run_id, reason="again", now=lambda: "t5")
    head = read_run_head(log, STARTED.run_id)
    assert head is not None and head.finished and head.hidden
    assert head.finished_seq == 2
    assert [h.started.run_id for h in run_heads(log)] == [STARTED.run_id]


def test_no_run_and_a_stream_not_opened_by_a_start_have_no_head() -> None:
    log = MemoryLog()
    assert read_run_head(log, "nope") is None
    hide_run(log, "ghost", reason="", now=lambda: "t")
    assert fold_run_head(log.read_stream(run_stream("ghost"))) is None
    assert run_heads(log) == []
    assert any(isinstance(e.payload, RunHidden) for e in log.read_stream(run_stream("ghost")))


def test_rubrics_recorded_with_the_run_show_on_the_head_in_log_order() -> None:
    first = next(e for e in SAMPLES if isinstance(e, RubricRecorded))
    second = msgspec.structs.replace(first, version="v9", rubric_hash="f" * 32)
    log = MemoryLog()
    start_run(log, STARTED, now=lambda: "t1")
    for rubric in (first, second):
        ident = identity(run=STARTED.run_id, kind=keyed(RUBRIC, rubric.version, rubric.rubric_hash))
        log.append(
            [Pending(stream=run_stream(STARTED.run_id), identity=ident, event=rubric, recorded_at="t2")]
        )
    head = read_run_head(log, STARTED.run_id)
    assert head is not None and head.rubrics == (first, second)
