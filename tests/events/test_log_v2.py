"""Format 2 specifics: sparse times, per-tag dictionaries trained on the log's own payloads."""

from __future__ import annotations

from pathlib import Path

import lmdb
import pytest

from polygon.events import LmdbLog, Pending, log_v2
from polygon.events.codec import canonical
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
