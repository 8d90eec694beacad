"""``read_stream`` decodes a page in one call, and answers exactly as decoding each record did.

A page with a record the one-call decoder cannot take (damaged, old, unknown) is decoded one
record at a time as it is read, so the records before a damaged one are still yielded first.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from polygon.events import DecodeError, LmdbLog
from polygon.events.envelope import DECODER, _RawRecord, encode_record, prepare
from tests.support.log import turn


def _records(n: int) -> list[bytes]:
    prepared = prepare([turn("a", i + 1, f"line {i}") for i in range(n)])
    return [encode_record(p, seq=i + 1, stream_version=i + 1) for i, p in enumerate(prepared)]


def test_a_page_decodes_in_one_call_as_record_by_record() -> None:
    records = _records(7)
    assert DECODER.fast_page(records) == [DECODER.decode(r) for r in records]
    assert DECODER.decode_page(records) == [DECODER.decode(r) for r in records]


def test_a_page_with_a_record_of_an_unknown_tag_is_left_to_the_slow_path() -> None:
    odd = msgspec.msgpack.encode(_RawRecord(9, "s", 1, "id", "no.such_tag", 1, "", "h", msgspec.Raw(b"\x80")))
    assert DECODER.fast_page([*_records(2), odd]) is None


def test_read_stream_equals_decoding_each_record(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log") as log:
        log.append([turn("a", i, f"turn {i}") for i in range(1, 40)])
        log.append([turn("b", 1)])
        raw = log._read(lambda txn: log._stream_page(txn, stream="conv/a", start=1, limit=100))
        one_by_one = [DECODER.decode(r) for r in raw]
        assert list(log.read_stream("conv/a")) == one_by_one
        # pages smaller than the stream: the same events, in the same order
        assert list(log.read_stream("conv/a", page_size=8)) == one_by_one
        assert list(log.read_stream("conv/a", after_version=30, page_size=4)) == one_by_one[30:]


def test_a_damaged_record_is_raised_where_it_lies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = _records(3)
    page = [good[0], good[1], b"\xc1 not a record", good[2]]
    with LmdbLog(tmp_path / "log") as log:
        monkeypatch.setattr(LmdbLog, "_stream_page", lambda self, txn, stream, start, limit: page)
        read = log.read_stream("conv/a")
        assert [next(read), next(read)] == [DECODER.decode(good[0]), DECODER.decode(good[1])]
        with pytest.raises(DecodeError):
            next(read)
