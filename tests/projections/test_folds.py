"""Folds: incremental equals full rebuild; the order of unrelated streams does not matter;
a golden report pins the output byte for byte."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polygon.app.queries import run_events
from polygon.app.run import RunOptions, run_suite
from polygon.events import Envelope, MemoryLog
from polygon.projections import probes, verdicts
from polygon.projections.report import make_report
from polygon.render import render_json, render_text
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path

GOLDEN = Path(__file__).parents[1] / "golden" / "reports"


@pytest.fixture(scope="module")
def events() -> list[Envelope]:
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="g"), now=lambda: "")
    return list(run_events(log, "g"))


def _report(evs: list[Envelope]) -> str:
    return render_json(make_report(verdicts.build_run_record("g", evs), None))


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False))
def test_order_of_unrelated_streams_does_not_matter(events: list[Envelope], rnd) -> None:
    by_stream: dict[str, list[Envelope]] = {}
    for env in events:
        by_stream.setdefault(env.stream, []).append(env)
    names = sorted(by_stream)
    rnd.shuffle(names)
    # Interleave streams randomly while keeping each stream's own order.
    queues = [list(by_stream[n]) for n in names]
    mixed: list[Envelope] = []
    while any(queues):
        q = rnd.choice([q for q in queues if q])
        mixed.append(q.pop(0))
    assert _report(mixed) == _report(events)
    assert probes.build(mixed).counts == probes.build(events).counts


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_incremental_fold_equals_full_rebuild(events: list[Envelope], cut: int) -> None:
    cut = cut % (len(events) + 1)
    state = verdicts.build_run_record("g", events[:cut])
    for env in events[cut:]:
        state = verdicts.apply(state, env)
    assert render_json(make_report(state, None)) == _report(events)


def test_golden_report(events: list[Envelope]) -> None:
    text = render_text(make_report(verdicts.build_run_record("g", events), None))
    path = GOLDEN / "clinic.txt"
    if os.environ.get("POLYGON_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), "report changed: check it, then POLYGON_UPDATE_GOLDEN=1 to accept"
