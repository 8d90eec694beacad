"""A new scoring pass after a run's snapshot (``polygon judge``) is folded onto the snapshot,
never afresh, and gives what a fresh fold gives; more of a pass already reduced is folded
afresh."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
import pytest

from polygon.app import snapshots as snap
from polygon.app.run import RunOptions, run_suite
from polygon.events import CheckRecorded, Envelope, EventLog, JudgeScored, MemoryLog, Pending, digest
from polygon.events.snapshots import MemorySnapshots, NullSnapshots
from polygon.projections.report import make_report
from polygon.render import RENDERERS
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path

NEW = "v5/scripted/heuristic/k1/again"


@pytest.fixture(scope="module")
def source() -> list[Envelope]:
    """A clinic run's events (judged once, probed) in log order."""
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="g"), now=lambda: "")
    return list(log.read_all())


def _append(log: EventLog, events: Iterable[Envelope]) -> None:
    """Each call's events in one batch, as a scoring pass commits them."""
    by_stream: dict[str, list[Pending]] = {}
    for env in events:
        by_stream.setdefault(env.stream, []).append(
            Pending(stream=env.stream, identity=env.identity, event=env.payload)
        )
    for batch in by_stream.values():
        log.append(batch)


def _again(source: list[Envelope], kinds: tuple[type, ...], pass_id: str = NEW) -> list[Envelope]:
    """Each call's scores or checks (``kinds``) once more, under ``pass_id`` (new identities)."""
    return [
        msgspec.structs.replace(
            e,
            identity=digest(f"{e.identity}/{pass_id}".encode()),
            payload=msgspec.structs.replace(e.payload, pass_id=pass_id),
        )
        for e in source
        if isinstance(e.payload, kinds)
    ]


def _no_fresh_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snap, "_folded", lambda *a: pytest.fail("folded afresh"))


def _reports(fold: snap.RunFold) -> list[str]:
    """Every format of the report of each call's latest pass, and of the first pass."""
    first = make_report(fold.verdicts, None, pass_id="v5/scripted/heuristic/k1")
    latest = make_report(fold.verdicts, None)
    return [RENDERERS[fmt](r) for r in (first, latest) for fmt in RENDERERS if fmt != "json"]


@pytest.mark.parametrize("chunk", [snap.CHUNK, 7, 40])
def test_a_new_pass_over_every_call_folds_onto_the_snapshot(
    source: list[Envelope], monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    # With a small chunk, the tail is folded a few calls at a time (each call's batch whole).
    monkeypatch.setattr(snap, "CHUNK", chunk)
    log, store = MemoryLog(), MemorySnapshots()
    _append(log, source)
    snap.fold_run(log, "g", store)
    _append(log, _again(source, (CheckRecorded, JudgeScored)))
    expected = snap.fold_run(log, "g", NullSnapshots())
    with monkeypatch.context() as m:
        _no_fresh_fold(m)
        resumed = snap.fold_run(log, "g", store)
    assert resumed == expected
    assert _reports(resumed) == _reports(expected)
    assert make_report(resumed.verdicts, None).selection.used_passes == [NEW]  # type: ignore[union-attr]


def test_a_pass_whose_checks_came_before_a_view_and_scores_after_it_is_whole(
    source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A view between a pass's checks and its scores: the checks wait in the state for them.
    log, store = MemoryLog(), MemorySnapshots()
    _append(log, source)
    snap.fold_run(log, "g", store)
    _append(log, _again(source, (CheckRecorded,)))
    with monkeypatch.context() as m:
        _no_fresh_fold(m)
        snap.fold_run(log, "g", store)
        _append(log, _again(source, (JudgeScored,)))
        resumed = snap.fold_run(log, "g", store)
    expected = snap.fold_run(log, "g", NullSnapshots())
    assert resumed == expected
    assert _reports(resumed) == _reports(expected)
    failing = [r for r in make_report(resumed.verdicts, None).conversations if r.checks]
    assert failing and all(r.pass_id == NEW for r in failing)  # its checks are the new pass's


def test_more_of_a_pass_already_reduced_is_folded_afresh(
    source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _append(log, source)
    _append(log, _again(source, (JudgeScored,)))
    snap.fold_run(log, "g", store)
    more = _again(source, (JudgeScored,), "repeat")  # a second repeat of the pass NEW
    _append(
        log,
        [msgspec.structs.replace(e, payload=msgspec.structs.replace(e.payload, pass_id=NEW)) for e in more],
    )
    rebuilt: list[int] = []
    real = snap._folded
    monkeypatch.setattr(snap, "_folded", lambda *a: rebuilt.append(1) or real(*a))
    assert snap.fold_run(log, "g", store) == snap.fold_run(log, "g", NullSnapshots())
    assert rebuilt == [1, 1]  # the resume refused, then the fresh fold the test compares with


def test_a_long_tail_of_whole_calls_is_folded_a_chunk_at_a_time(
    source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    streams = sorted({e.stream for e in source if e.stream.startswith("conv/")})
    late = set(streams[len(streams) // 3 :])
    log, store = MemoryLog(), MemorySnapshots()
    _append(log, [e for e in source if e.stream not in late])
    snap.fold_run(log, "g", store)
    _append(log, [e for e in source if e.stream in late])
    chunks: list[int] = []
    real = snap._extend
    monkeypatch.setattr(snap, "CHUNK", 30)
    monkeypatch.setattr(snap, "_extend", lambda f, h, c: chunks.append(1) or real(f, h, c))
    with monkeypatch.context() as m:
        _no_fresh_fold(m)
        resumed = snap.fold_run(log, "g", store)
    assert len(chunks) > 3  # ~36 events a call: a chunk or so a call
    assert resumed == snap.fold_run(log, "g", NullSnapshots())
