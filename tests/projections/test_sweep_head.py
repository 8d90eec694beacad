"""The sweep head: one fold answers which points ran or were refused, stopped, finished."""

from __future__ import annotations

import msgspec

from polygon.events import PointRan, PointRefused, SweepFinished, SweepStarted, SweepStopped
from polygon.projections import SweepHead, fold_sweep_head
from tests.golden.event_samples import SAMPLES
from tests.support.views import env

STARTED = next(e for e in SAMPLES if isinstance(e, SweepStarted))
RAN = next(e for e in SAMPLES if isinstance(e, PointRan))
REFUSED = next(e for e in SAMPLES if isinstance(e, PointRefused))
STOPPED = next(e for e in SAMPLES if isinstance(e, SweepStopped))
FINISHED = next(e for e in SAMPLES if isinstance(e, SweepFinished))


def _fold(*payloads: object) -> SweepHead | None:
    return fold_sweep_head(env(i, p) for i, p in enumerate(payloads, 7))


def test_a_started_sweep_has_decided_nothing() -> None:
    head = _fold(STARTED)
    assert head is not None
    assert (head.started, head.seq, dict(head.ran), dict(head.refused)) == (STARTED, 7, {}, {})
    assert head.stopped is None and not head.finished
    assert head.runs == {p.run_id for p in STARTED.points}


def test_points_stop_and_finish_show_on_the_head() -> None:
    other_stop = msgspec.structs.replace(STOPPED, floor=99.0)
    elsewhere = msgspec.structs.replace(RAN, index=5, run_id="borrowed")
    head = _fold(STARTED, RAN, REFUSED, STOPPED, other_stop, elsewhere, FINISHED)
    assert head is not None
    assert dict(head.ran) == {RAN.index: RAN, 5: elsewhere}
    assert dict(head.refused) == {REFUSED.index: REFUSED}
    assert head.stopped == STOPPED and head.finished
    assert "borrowed" in head.runs


def test_no_events_or_a_stream_not_opened_by_a_start_have_no_head() -> None:
    assert _fold() is None
    assert _fold(RAN, STARTED) is None
