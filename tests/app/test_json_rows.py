"""The JSON report's rows kept between views: byte-identical to rows read from the log, only
the calls with something new are read again, and a snapshot that does not fit is ignored."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from polygon.app import json_rows
from polygon.app import report as report_app
from polygon.app import snapshots as snap
from polygon.app.report import report_run
from polygon.app.run import RunOptions, run_suite
from polygon.cli.main import cli
from polygon.events import Envelope, EventLog, LmdbLog, MemoryLog, Pending
from polygon.events.snapshots import SNAPSHOT_DIR, LmdbSnapshots, MemorySnapshots, NullSnapshots, Snapshot
from polygon.projections import ConversationVerdict, RunRecord, RunReport
from polygon.projections.report import make_report
from polygon.render import json_chunks, json_document
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path


@pytest.fixture(scope="module")
def source() -> list[Envelope]:
    """A clinic run's events (two configurations, judged and probed) in log order."""
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="g"), now=lambda: "")
    return list(log.read_all())


def _copy(events: list[Envelope], into: EventLog) -> None:
    batch: list[Pending] = []
    for env in events:
        if batch and batch[-1].stream != env.stream:
            into.append(batch)
            batch = []
        batch.append(Pending(stream=env.stream, identity=env.identity, event=env.payload))
    if batch:
        into.append(batch)


WHOLE = report_app.whole_rows


class Reads:
    """``whole_rows`` that notes which calls it was asked to read from the log."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, log: EventLog, state: RunRecord, report: RunReport) -> Iterator[ConversationVerdict]:
        self.calls += [r.record.conversation_id for r in report.conversations]
        return WHOLE(log, state, report)


def _report(log: EventLog) -> tuple[RunRecord, RunReport]:
    state = snap.fold_run(log, "g", NullSnapshots()).verdicts
    return state, make_report(state, None)


def _plain(log: EventLog) -> str:
    """The document as it was written before rows were kept: every row read from the log."""
    state, report = _report(log)
    return "".join(json_chunks(report, WHOLE(log, state, report)))


def _kept(log: EventLog, store: MemorySnapshots, reads: Reads | None = None) -> str:
    state, report = _report(log)
    whole = reads if reads is not None else Reads()
    return "".join(json_document(report, json_rows.row_texts(log, state, report, whole, store)))


def test_rows_kept_are_the_rows_read_and_a_second_view_reads_none(source: list[Envelope]) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    first, second = Reads(), Reads()
    plain = _plain(log)
    assert _kept(log, store, first) == plain
    assert len(first.calls) == len(_report(log)[1].conversations) > 10
    assert _kept(log, store, second) == plain
    assert second.calls == []


class Weighing(MemorySnapshots):
    """A store that notes what the rows' module holds when their snapshot is saved."""

    def __init__(self) -> None:
        super().__init__()
        self.held: list[tuple[int, int]] = []

    def save(self, snapshot: Snapshot) -> None:
        kept = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(True, json_rows.__file__)])
        self.held.append((sum(s.size for s in kept.statistics("filename")), len(snapshot.state)))
        super().save(snapshot)


def test_kept_rows_hold_their_compressed_size_not_the_compressor_s_buffer(source: list[Envelope]) -> None:
    # zstandard returns a frame in a buffer sized for the worst case: ~7x the frame here
    log, store = MemoryLog(), Weighing()
    _copy(source, log)
    state, report = _report(log)
    rows = json_rows.row_texts(log, state, report, WHOLE, store)
    tracemalloc.start()
    try:
        for _text in rows:
            pass  # each row dropped once written, as the CLI writes them
    finally:
        tracemalloc.stop()
    [(held, saved)] = store.held
    assert saved > 20_000  # the rows' frames, encoded
    assert held < 3 * saved  # the kept frames and the state encoded from them (~2.3x)


def test_the_document_is_the_same_whatever_order_the_log_holds_the_calls_in(source: list[Envelope]) -> None:
    # A run scored beside its simulation (or on Ray) commits its calls in no fixed order:
    # the log's numbering differs from run to run, each call's own stream does not.
    by_stream: dict[str, list[Envelope]] = {}
    for env in source:
        by_stream.setdefault(env.stream, []).append(env)
    calls = sorted(s for s in by_stream if s.startswith("conv/"))
    others = [s for s in by_stream if not s.startswith("conv/")]
    one, other = MemoryLog(), MemoryLog()
    _copy(source, one)
    _copy([e for s in [*others, *reversed(calls)] for e in by_stream[s]], other)
    assert [e.seq for e in one.read_stream(calls[0])] != [e.seq for e in other.read_stream(calls[0])]
    assert _plain(one) == _plain(other)
    assert '"at": ' in _plain(one) and '"seq": ' not in _plain(one)


def test_appended_calls_alone_are_read(source: list[Envelope]) -> None:
    streams = sorted({e.stream for e in source if e.stream.startswith("conv/")})
    late = set(streams[len(streams) // 2 :])
    log, store = MemoryLog(), MemorySnapshots()
    _copy([e for e in source if e.stream not in late], log)
    _kept(log, store)
    first = _saved_rows(store).dictionary
    _copy([e for e in source if e.stream in late], log)
    reads = Reads()
    assert _kept(log, store, reads) == _plain(log)
    assert first and _saved_rows(store).dictionary == first  # the new rows are packed with it
    assert sorted(f"conv/{c}" for c in reads.calls) == sorted(late)


@pytest.mark.parametrize("cut", [0.2, 0.5, 0.77, 0.95])
def test_a_view_after_any_cut_of_the_log_is_the_plain_one(source: list[Envelope], cut: float) -> None:
    # Interleaved streams, scores of calls already kept, rubrics recorded late: any tail.
    at = int(len(source) * cut)
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source[:at], log)
    if any(e.tag == "judge.scored" for e in source[:at]):
        _kept(log, store)
    _copy(source[at:], log)
    touched = {e.stream.removeprefix("conv/") for e in source[at:]}
    reads = Reads()
    assert _kept(log, store, reads) == _plain(log)
    shown = {r.record.conversation_id for r in _report(log)[1].conversations}
    assert set(reads.calls) >= touched & shown  # every call with anything new is read again


def _lie(store: MemorySnapshots, **change: object) -> None:
    """The saved snapshot with every row's text replaced by a lie (trusted, it would show)."""
    saved = store.load(json_rows.PROJECTION, "g", next(iter(_versions(store))))
    assert saved is not None
    rows = msgspec.msgpack.decode(saved.state, type=json_rows.KeptRows).rows
    lying = {k: msgspec.structs.replace(r, text=_squeezed(b"    {}")) for k, r in rows.items()}
    state = msgspec.msgpack.encode(json_rows.KeptRows(rows=lying))
    store.save(msgspec.structs.replace(saved, **{"state": state, **change}))


def _squeezed(text: bytes) -> bytes:
    return json_rows.zstandard.ZstdCompressor().compress(text)


def _versions(store: MemorySnapshots) -> list[str]:
    return [k.split("\x00")[2] for k in store.raw if k.startswith(json_rows.PROJECTION)]


def test_kept_rows_are_what_a_view_shows(source: list[Envelope]) -> None:
    # The lie shows: the second view really reads its rows from the snapshot.
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    _kept(log, store)
    _lie(store)
    assert '"conversations": [\n    {},\n    {}' in _kept(log, store)


@pytest.mark.parametrize(
    "change",
    [
        {"version": "verdicts-1.row-000000000000.1"},
        {"anchor": "0" * 32},  # another log's snapshot
        {"position": 10**9},
        {"state": b"\xc1 not msgpack"},
    ],
    ids=["wrong version", "another log", "past the end", "undecodable state"],
)
def test_a_snapshot_that_does_not_fit_is_ignored_and_replaced(
    source: list[Envelope], change: dict[str, object]
) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    _kept(log, store)
    _lie(store, **change)
    reads = Reads()
    assert _kept(log, store, reads) == _plain(log)
    assert reads.calls  # read again from the log
    assert _kept(log, store, Reads()) == _plain(log)  # and the replacement is good


def _saved_rows(store: MemorySnapshots) -> json_rows.KeptRows:
    saved = store.load(json_rows.PROJECTION, "g", _versions(store)[0])
    assert saved is not None
    return msgspec.msgpack.decode(saved.state, type=json_rows.KeptRows)


def test_rows_are_packed_with_a_dictionary_trained_on_the_first_ones(source: list[Envelope]) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    _kept(log, store)
    kept = _saved_rows(store)
    alone = json_rows.zstandard.ZstdCompressor(level=json_rows.LEVEL).compress
    texts = [json_rows._Packer(kept.dictionary).unpack(r.text) for r in kept.rows.values()]
    assert kept.dictionary and len(kept.rows) > 10
    assert sum(len(r.text) for r in kept.rows.values()) < 0.7 * sum(len(alone(t)) for t in texts)


@pytest.mark.parametrize(
    ("sample", "by_bytes"),
    [(1, False), (12, False), (10_000, False), (10_000, True)],
    ids=["one row: none trained", "trained mid-way", "trained after the last row", "on the bytes held"],
)
def test_rows_held_for_the_dictionary_are_all_kept(
    source: list[Envelope], sample: int, by_bytes: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    state, report = _report(log)
    texts = list(json_rows.row_texts(log, state, report, WHOLE, NullSnapshots()))
    trained: list[int] = []
    train = json_rows._trained
    monkeypatch.setattr(json_rows, "_trained", lambda samples: trained.append(len(samples)) or train(samples))
    monkeypatch.setattr(json_rows, "SAMPLE", sample)
    if by_bytes:
        monkeypatch.setattr(json_rows, "SAMPLE_BYTES", sum(map(len, texts)) // 2)
    plain = _plain(log)
    assert _kept(log, store) == plain
    kept = _saved_rows(store)
    assert len(kept.rows) == len(texts) > 20
    assert trained == [min(sample, len(texts))] if not by_bytes else 8 <= trained[0] < len(texts) - 8
    assert bool(kept.dictionary) == (trained[0] >= 8)  # a dictionary is trained on 8 rows or more
    reads = Reads()
    assert _kept(log, store, reads) == plain and reads.calls == []


def _resaved(store: MemorySnapshots, kept: json_rows.KeptRows) -> None:
    """The saved rows replaced by ``kept`` (sealed afresh: only their meaning changes)."""
    saved = store.load(json_rows.PROJECTION, "g", _versions(store)[0])
    assert saved is not None
    store.save(msgspec.structs.replace(saved, state=msgspec.msgpack.encode(kept)))


def test_rows_with_a_dictionary_not_theirs_are_not_kept(source: list[Envelope]) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    _kept(log, store)
    other = json_rows.zstandard.train_dictionary(4096, [b"%d a dictionary %d" % (k, k * k) for k in range(300)])
    _resaved(store, msgspec.structs.replace(_saved_rows(store), dictionary=other.as_bytes()))
    reads = Reads()
    assert _kept(log, store, reads) == _plain(log)
    assert reads.calls  # read again from the log, not an error in the middle of the document


def test_a_row_of_another_pass_is_read_again(source: list[Envelope]) -> None:
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    _kept(log, store)
    kept = _saved_rows(store)
    one = next(iter(kept.rows))
    kept.rows[one] = json_rows.KeptRow(pass_id="another", text=_squeezed(b"    {}"))
    _resaved(store, kept)
    reads = Reads()
    assert _kept(log, store, reads) == _plain(log)
    assert reads.calls == [one]


def test_the_cli_path_keeps_rows_beside_the_log_and_shows_the_same(
    tmp_path: Path, source: list[Envelope], monkeypatch: pytest.MonkeyPatch
) -> None:
    with LmdbLog(tmp_path / "log") as log:
        _copy(source, log)
        monkeypatch.setenv(snap.SWITCH, "0")
        plain = "".join(report_run(log, "g", "json")[1])
        monkeypatch.setenv(snap.SWITCH, "1")
        cold = "".join(report_run(log, "g", "json")[1])
        monkeypatch.setattr(report_app, "whole_rows", Reads())
        warm = "".join(report_run(log, "g", "json")[1])
        assert report_app.whole_rows.calls == []  # type: ignore[attr-defined]
    assert cold == warm == plain
    store = LmdbSnapshots(tmp_path / "log" / SNAPSHOT_DIR)
    assert sorted(k.split("\x00")[0] for k, _ in store.entries()) == [json_rows.PROJECTION, snap.PROJECTION]
    store.close()


def _frame_claiming(size: int) -> bytes:
    """A zstd frame whose header says it holds ``size`` bytes: one block, "x" 1,000 times."""
    return b"\x28\xb5\x2f\xfd\xe0" + size.to_bytes(8, "little") + (1 | 1 << 1 | 1000 << 3).to_bytes(3, "little") + b"x"


@pytest.mark.parametrize(
    "text",
    [_frame_claiming(1 << 40), _frame_claiming(200), b"\x28\xb5\x2f\xfd garbage"],
    ids=["claims 1 TB", "holds more than it says", "not a frame"],
)
def test_a_damaged_row_past_the_first_is_read_again_not_an_error(source: list[Envelope], text: bytes) -> None:
    """Sealed with a good hash (a forger's, or a bug's): the row is read from the log instead."""
    log, store = MemoryLog(), MemorySnapshots()
    _copy(source, log)
    _kept(log, store)
    kept = _saved_rows(store)
    last = list(kept.rows)[-1]
    kept.rows[last] = msgspec.structs.replace(kept.rows[last], text=text)
    _resaved(store, kept)
    reads = Reads()
    assert _kept(log, store, reads) == _plain(log)
    assert reads.calls == [last]
    reads = Reads()
    assert _kept(log, store, reads) == _plain(log) and reads.calls == []  # kept again, mended


@pytest.mark.parametrize("last", [False, True], ids=["first row", "last row"])
def test_log_verify_names_a_row_that_does_not_decompress(
    tmp_path: Path, source: list[Envelope], monkeypatch: pytest.MonkeyPatch, last: bool
) -> None:
    monkeypatch.setenv(snap.SWITCH, "1")
    path = tmp_path / "log"
    with LmdbLog(path) as log:
        _copy(source, log)
        "".join(report_run(log, "g", "json")[1])
    assert CliRunner().invoke(cli, ["--log", str(path), "log", "verify"]).exit_code == 0
    store = LmdbSnapshots(path / SNAPSHOT_DIR)
    key = next(k.split("\x00")[2] for k, _ in store.entries() if k.startswith(json_rows.PROJECTION))
    saved = store.load(json_rows.PROJECTION, "g", key)
    assert saved is not None
    kept = msgspec.msgpack.decode(saved.state, type=json_rows.KeptRows)
    cid = list(kept.rows)[-1 if last else 0]
    kept.rows[cid] = msgspec.structs.replace(kept.rows[cid], text=_frame_claiming(1 << 40))
    store.save(msgspec.structs.replace(saved, state=msgspec.msgpack.encode(kept)))  # sealed afresh
    store.close()
    verified = CliRunner().invoke(cli, ["--log", str(path), "log", "verify"])
    assert verified.exit_code == 1, verified.output
    assert f"the snapshot of g is damaged: its row of {cid} does not decompress" in verified.output
