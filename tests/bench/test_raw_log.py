"""The bench's log baselines stay like-for-like with the log (issue 31: they had rotted).

``make bench`` divides our append and scan rates by format 2 written and read by hand
(``tests/bench/raw_log.py``); when the log's format moves on, these fail here, in seconds,
instead of the bench crashing or quietly comparing with another format.
"""

from __future__ import annotations

from pathlib import Path

import lmdb

from polygon.events import LmdbLog
from tests.bench import raw_log
from tests.bench.run import BATCH, _events, _pending, append_cases, scan_cases

N = 1200  # past raw_log.TRAIN_AT, so the dictionary and compressed payloads are compared too


def _trees(path: Path) -> dict[str, dict[bytes, bytes]]:
    env = lmdb.open(str(path), readonly=True, lock=False, max_dbs=8)
    out = {}
    with env.begin() as txn:
        for name in ("meta", *raw_log.TREES):
            db = env.open_db(name.encode(), txn=txn, create=False)
            out[name] = {bytes(k): bytes(v) for k, v in txn.cursor(db=db)}
    env.close()
    out["meta"].pop(b"map_size")  # the only thing a hand writer may choose differently
    return out


def _write_both(tmp: Path) -> list:
    pending = _pending(_events(N, 40))
    with LmdbLog(tmp / "ours") as log:
        for i in range(0, N, BATCH):
            log.append(pending[i : i + BATCH])
    writer = raw_log.HandWriter(tmp / "hand")
    for i in range(0, N, BATCH):
        writer.append(pending[i : i + BATCH])
    writer.append(pending[:3])  # a retry: stored once
    writer.close()
    return pending


def test_the_hand_writer_stores_what_our_log_stores(tmp_path: Path) -> None:
    _write_both(tmp_path)
    ours, hand = _trees(tmp_path / "ours"), _trees(tmp_path / "hand")
    assert len(ours["events"]) == N
    assert b"dict/1" in ours["meta"]  # compressed payloads are part of the comparison
    assert sum(1 for v in ours["events"].values() if v[12] == 1) > N // 2  # codec byte
    assert hand == ours


def test_our_log_reads_the_hand_written_log_and_the_hand_scan_reads_ours(tmp_path: Path) -> None:
    pending = _write_both(tmp_path)
    with LmdbLog(tmp_path / "hand", readonly=True) as log:
        assert [e.payload for e in log.read_all()] == [p.event for p in pending]
        assert log.verify().ok
    assert raw_log.scan(tmp_path / "ours") == N


def test_the_bench_cases_run_at_a_tiny_size(tmp_path: Path) -> None:
    rates = {name: case() for name, case in append_cases(tmp_path, N).items()}
    rates.update({f"scan_{name}": case() for name, case in scan_cases(tmp_path / "ours", N).items()})
    assert set(rates) == {"ours", "like_for_like", "bare", "scan_ours", "scan_raw"}
    assert all(rate > 0 for rate in rates.values())
