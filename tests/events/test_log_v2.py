"""Format 2 specifics: sparse times, per-tag dictionaries trained on the log's own payloads."""

from __future__ import annotations

from pathlib import Path

import lmdb
import pytest

from polygon.events import LmdbLog, Pending, log_v2
from polygon.events.codec import canonical
from polygon.events.errors import DecodeError
from polygon.events.log_v2 import HEADER, RAW
from tests.support.log import turn


def _rows(path: Path, name: bytes) -> list[tuple[bytes, bytes]]:
    env = lmdb.open(str(path), max_dbs=8, readonly=True, lock=False)
    with env.begin(db=env.open_db(name, create=False)) as txn:
        rows = [(bytes(k), bytes(v)) for k, v in txn.cursor()]
    env.close()
    return rows


def _at(p: Pending, when: str) -> Pending:
    return Pending(stream=p.stream, identity=p.identity, event=p.event, recorded_at=when)


def test_a_time_is_stored_only_where_it_changes(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log") as log:
        log.append([_at(turn("a", n), "2026-01-01T10:00:00Z") for n in (1, 2, 3)])
        log.append([_at(turn("b", n), "2026-01-01T10:00:00Z") for n in (1, 2)])
        log.append([_at(turn("a", 4), "2026-01-01T10:00:05Z"), _at(turn("b", 3), "2026-01-01T10:00:05Z")])
        log.append([_at(turn("c", 1), "")])
        times = [e.recorded_at for e in log.read_all()]
        assert times == ["2026-01-01T10:00:00Z"] * 5 + ["2026-01-01T10:00:05Z"] * 2 + [""]
        assert [e.recorded_at for e in log.read_all(after_seq=4, page_size=2)] == times[4:]
        assert [e.recorded_at for e in log.read_stream("conv/b")] == times[3:5] + times[6:7]
    assert len(_rows(tmp_path / "log", b"times")) == 3


def _varied(conv: str, n: int) -> Pending:
    text = f"I would like to book a cleaning on day {n % 28 + 1} at {n % 9 + 8} o'clock, patient {conv}-{n}"
    return turn(conv, n, text)


def test_payloads_compress_once_a_tag_has_enough_to_train_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(log_v2, "TRAIN_AT", 100)
    path = tmp_path / "log"
    written = [_varied(f"c{k}", n) for k in range(4) for n in range(1, 61)]
    with LmdbLog(path) as log:
        for start in range(0, 160, 40):
            log.append(written[start : start + 40])
    with LmdbLog(path) as log:  # a new handle compresses with the stored dictionary
        log.append(written[160:])
    stored = [raw for _, raw in _rows(path, b"events")]
    codecs = [HEADER.unpack_from(raw)[4] for raw in stored]
    assert codecs[:99] == [RAW] * 99  # gathered as samples, stored as they are
    assert set(codecs[99:]) == {1}  # the 100th trains; one dictionary, reused after reopening
    dicts = [k for k, _ in _rows(path, b"meta") if k.startswith(b"dict/")]
    assert dicts == [b"dict/1"]
    packed = sum(len(raw) - HEADER.size for raw in stored[99:])
    assert packed < 0.6 * sum(len(canonical(p.event)) for p in written[99:])
    with LmdbLog(path, readonly=True) as log:
        assert [e.payload for e in log.read_all()] == [p.event for p in written]
        assert log.verify().ok


def test_a_changed_byte_in_a_compressed_payload_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(log_v2, "TRAIN_AT", 50)
    path = tmp_path / "log"
    with LmdbLog(path) as log:
        log.append([_varied("a", n) for n in range(1, 81)])
    env = lmdb.open(str(path), max_dbs=8)
    with env.begin(write=True, db=env.open_db(b"events")) as txn:
        key = (70).to_bytes(8, "big")
        raw = bytearray(txn.get(key))
        assert HEADER.unpack_from(raw)[4] != RAW
        raw[-3] ^= 0x55
        txn.put(key, bytes(raw))
    env.close()
    with LmdbLog(path, readonly=True) as log:
        report = log.verify()
    assert report.problem is not None and "#70" in report.problem


def test_times_read_back_as_format_1_holds_them_however_a_read_meets_the_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Five calls interleaved: a call's events lie far apart (a reader seeks its times)
    # while a page of the whole log meets them one by one (it steps); the times change at
    # every event for a while, then every other event, then once a batch, then not at all.
    monkeypatch.setattr(log_v2, "TRAIN_AT", 30)
    batches = []
    for b in range(12):
        batch = [_varied(f"c{k}", b * 4 + n) for n in range(1, 5) for k in range(5)]
        if b < 4:
            when = [f"2026-01-01T10:{b:02}:{i:02}Z" for i in range(len(batch))]
        elif b < 8:
            when = [f"2026-01-01T10:{b:02}:{i // 2:02}Z" for i in range(len(batch))]
        else:
            when = [f"2026-01-01T11:{min(b, 10):02}:00Z"] * len(batch)
        batches.append([_at(p, w) for p, w in zip(batch, when, strict=True)])
    logs = {}
    for fmt in (1, 2):
        with LmdbLog(tmp_path / str(fmt), format_version=fmt) as log:
            for batch in batches:
                log.append(batch)
        logs[fmt] = LmdbLog(tmp_path / str(fmt), readonly=True)
    try:
        for page_size in (3, 7, 4096):
            assert list(logs[2].read_all(page_size=page_size)) == list(logs[1].read_all())
        for k in range(5):
            for after, page_size in ((0, 512), (5, 4), (30, 1)):
                want = list(logs[1].read_stream(f"conv/c{k}", after_version=after))
                got = list(logs[2].read_stream(f"conv/c{k}", after_version=after, page_size=page_size))
                assert got == want and len(want) == 48 - after
        assert len({e.recorded_at for e in logs[2].read_all()}) == 4 * 20 + 4 * 10 + 3
        assert logs[2].verify().ok
    finally:
        for log in logs.values():
            log.close()


def test_a_payload_that_does_not_decompress_is_a_decode_error_naming_it_when_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(log_v2, "TRAIN_AT", 50)
    path = tmp_path / "log"
    with LmdbLog(path) as log:
        log.append([_varied("a", n) for n in range(1, 81)])
    env = lmdb.open(str(path), max_dbs=8)
    with env.begin(write=True, db=env.open_db(b"events")) as txn:
        key = (70).to_bytes(8, "big")
        raw = bytearray(txn.get(key))
        txn.put(key, bytes(raw[: HEADER.size]) + b"\x28\xb5\x2f\xfd garbage")
    env.close()
    with LmdbLog(path, readonly=True) as log:
        with pytest.raises(DecodeError, match="#70"):
            list(log.read_all())
        with pytest.raises(DecodeError, match="#70"):
            list(log.read_stream("conv/a"))


def test_a_handle_keeps_a_bounded_number_of_stream_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream per call: a 100,000-call run's writer kept every name it interned (issue 31)."""
    monkeypatch.setattr(log_v2, "NAMES_KEPT", 4)
    written = [turn(f"c{k}", n) for n in (1, 2) for k in range(10)]
    with LmdbLog(tmp_path / "log") as log:
        for start in range(0, len(written), 3):
            log.append(written[start : start + 3])
        kept = log._v2._streams  # noqa: SLF001 - the bound is what is under test
        assert 0 < len(kept) <= 4
        # Names forgotten are read back from the names table, in any order of reading.
        assert [(e.stream, e.payload) for e in log.read_all()] == [(p.stream, p.event) for p in written]
        for k in (9, 0, 5):
            assert [e.payload for e in log.read_stream(f"conv/c{k}")] == [
                written[k].event,
                written[10 + k].event,
            ]
        assert len(kept) <= 4
    with LmdbLog(tmp_path / "log", readonly=True) as log:
        assert log.verify().ok
        assert 0 < len(log._v2._streams) <= 4  # noqa: SLF001
