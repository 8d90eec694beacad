"""The writer thread's append path: per-batch caches give the bytes one by one would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lmdb
import pytest

from polygon.events import LmdbLog, Pending, identity, log_v2
from polygon.events.envelope import prepare
from polygon.events.families import CheckRecorded
from tests.support.log import turn


def _check(conv: str, n: int) -> Pending:
    return Pending(
        stream=f"conv/{conv}",
        identity=identity(run="r", conversation=conv, turn=n, kind="check"),
        event=CheckRecorded(conversation_id=conv, check=f"c{n}", outcome="pass"),
        recorded_at=f"2026-01-01T10:00:0{n % 3}Z",
    )


def test_a_batch_prepares_as_its_events_would_one_by_one() -> None:
    # Streams and event types repeat and interleave: the batch's caches must not mix them up.
    batch = [turn("a", 1), _check("b", 1), turn("b", 2, "hi"), _check("a", 2), turn("a", 3), _check("c", 3)]
    assert prepare(batch) == [one for item in batch for one in prepare([item])]


def test_a_bad_identity_is_refused_before_anything_is_encoded() -> None:
    bad = Pending(stream="conv/a", identity="xyz", event=turn("a", 1).event)
    with pytest.raises(ValueError, match="'xyz' must be 32 hex characters"):
        prepare([turn("a", 1), bad])


def _varied(conv: str, n: int) -> Pending:
    text = f"I would like to book a cleaning on day {n % 28 + 1} at {n % 9 + 8} o'clock, patient {conv}-{n}"
    return turn(conv, n, text)


def test_a_write_retried_after_training_forgets_the_compressor_it_never_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A map that fills in the batch that trained a dictionary: the retry must not compress
    with that dictionary (the abort took it away), or its records could never be read."""
    monkeypatch.setattr(log_v2, "TRAIN_AT", 100)
    put_times = log_v2.Tables2._put_times
    failed: list[int] = []

    def fill_once(self: log_v2.Tables2, txn: Any, new: Any) -> None:
        if self._dict_of_tag and not failed:  # a dictionary was just trained in this transaction
            failed.append(1)
            raise lmdb.MapFullError("map full")
        put_times(self, txn, new)

    monkeypatch.setattr(log_v2.Tables2, "_put_times", fill_once)
    written = [_varied(f"c{k}", n) for k in range(4) for n in range(1, 61)]
    path = tmp_path / "log"
    with LmdbLog(path) as log:
        for start in range(0, 240, 40):
            log.append(written[start : start + 40])
        assert failed  # the retry happened
        assert [e.payload for e in log.read_all()] == [p.event for p in written]
        assert log.verify().ok
