"""A stream kept for its first reader (``LmdbLog.keeping``) reads back as the log gives it.

The keep holds the records a handle committed, as a read would render them; it must give
the same envelopes as the log (both formats, compressed payloads, times that change or
not, no-ops, an identity spelled in capitals), only for streams it saw from their start,
and never more than its budget.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polygon.events import IdentityConflictError, LmdbLog, Pending
from polygon.events.families import TurnSpoken
from tests.support.log import turn


def _at(p: Pending, when: str) -> Pending:
    return Pending(stream=p.stream, identity=p.identity, event=p.event, recorded_at=when)


def _batches() -> list[list[Pending]]:
    """Three calls written interleaved, as a run's group commit writes them."""
    out: list[list[Pending]] = []
    for b in range(12):
        batch = [
            _at(turn(conv, 60 * b + i + 1, f"{conv} says {i} of batch {b}"), f"2026-12-02T09:{b:02}:00Z")
            for conv in ("a", "b", "c")
            for i in range(60)
        ]
        out.append(batch)
    out[3].append(out[3][0])  # a no-op in its own batch
    out[5].append(out[1][7])  # a no-op of an earlier batch
    out[6] = [_at(p, "") for p in out[6]]  # no time, then a time again
    shouted = turn("d", 1, "capitals")
    out[7].append(Pending(stream=shouted.stream, identity=shouted.identity.upper(), event=shouted.event))
    return out


@pytest.mark.parametrize("fmt", [1, 2])
def test_a_kept_stream_reads_back_as_the_log_gives_it(tmp_path: Path, fmt: int) -> None:
    with LmdbLog(tmp_path / "log", format_version=fmt) as log, log.keeping(1 << 24) as kept:
        for batch in _batches():  # 2,160 turns: format 2 trains its dictionary and compresses
            log.append(batch)
        streams = list(log.streams())
        assert len(kept) == len(streams) == 4
        served = {s: list(log.read_stream(s)) for s in streams}
        assert kept.served == 4
        assert kept.held == len(kept) == 0  # a first read takes the stream out
        for stream in streams:
            assert list(log.read_stream(stream)) == served[stream]  # now from the log
    with LmdbLog(tmp_path / "log", readonly=True) as fresh:  # and as another handle reads it
        assert {s: list(fresh.read_stream(s)) for s in streams} == served
    spelled = turn("d", 1).identity  # as the log spells it: format 1 as given, format 2 from bytes
    assert served["conv/d"][0].identity == (spelled.upper() if fmt == 1 else spelled)
    times = [e.recorded_at for e in served["conv/a"]]
    assert times[358:362] == ["2026-12-02T09:05:00Z"] * 2 + [""] * 2
    assert times[418:422] == [""] * 2 + ["2026-12-02T09:07:00Z"] * 2


def test_a_kept_stream_read_after_a_version_gives_the_rest(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log") as log, log.keeping(1 << 20) as kept:
        log.append([turn("a", i) for i in range(1, 30)])
        rest = list(log.read_stream("conv/a", after_version=20))
        assert kept.served == 1
        assert rest == list(log.read_stream("conv/a", after_version=20))
        assert [e.stream_version for e in rest] == list(range(21, 30))


def test_the_keep_holds_no_more_than_its_budget(tmp_path: Path) -> None:
    one_call = 40 * 140  # about 40 records of ~140 bytes
    with LmdbLog(tmp_path / "log") as log, log.keeping(3 * one_call) as kept:
        for n in range(0, 40, 4):  # ten calls at a time, each in a batch of four turns
            for call in range(20):
                log.append([turn(f"c{call:02}", n + i + 1, f"turn {n + i} of call {call}") for i in range(4)])
                assert kept.held <= kept.budget
        assert 0 < len(kept) < 20
        streams = list(log.streams())
        read = {s: list(log.read_stream(s)) for s in streams}
        assert 0 < kept.served < 20
    with LmdbLog(tmp_path / "log", readonly=True) as fresh:
        assert {s: list(fresh.read_stream(s)) for s in streams} == read


def test_a_kept_stream_that_outgrows_the_budget_is_let_go(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log") as log, log.keeping(2_000) as kept:
        log.append([turn("a", 1)])
        assert len(kept) == 1
        log.append([turn("a", i, "x" * 100) for i in range(2, 40)])
        assert len(kept) == kept.held == 0
        log.append([turn("a", 40)])  # the rest of it is not kept either: it no longer starts it
        assert len(kept) == 0
        assert [e.stream_version for e in log.read_stream("conv/a")] == list(range(1, 41))
        assert kept.served == 0


def test_a_stream_begun_before_the_keep_is_read_from_the_log(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log") as log:
        log.append([turn("a", 1)])
        with log.keeping(1 << 20) as kept:
            log.append([turn("a", 2), turn("b", 1)])
            assert len(kept) == 1  # b only
            assert len(list(log.read_stream("conv/a"))) == 2
            assert kept.served == 0
        assert log._kept is None  # let go when it ends


def test_nothing_of_a_refused_append_is_kept(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log") as log, log.keeping(1 << 20) as kept:
        log.append([turn("a", 1, "first")])
        log.read_stream("conv/a")  # never started: nothing taken
        with pytest.raises(IdentityConflictError):
            log.append([turn("b", 1), turn("a", 1, "changed")])
        assert len(kept) == 1
        assert [e.payload for e in log.read_stream("conv/a")] == [
            TurnSpoken(conversation_id="a", turn=1, speaker="caller", text="first")
        ]
        assert list(log.read_stream("conv/b")) == []


def test_records_kept_across_a_growth_of_the_map(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log", map_size=256 * 1024) as log, log.keeping(1 << 24) as kept:
        for n in range(0, 3000, 500):
            log.append([turn("a", n + i + 1, f"a long line, number {n + i}" * 4) for i in range(500)])
        assert log._env.info()["map_size"] > 256 * 1024  # it grew: a batch was retried
        served = list(log.read_stream("conv/a"))
        assert kept.served == 1
    with LmdbLog(tmp_path / "log", readonly=True) as fresh:
        assert list(fresh.read_stream("conv/a")) == served
        assert len(served) == 3000


@pytest.mark.parametrize("fmt", [1, 2])
def test_a_new_streams_unnumbered_records_read_as_the_log_gives_them_but_for_the_seq(
    tmp_path: Path, fmt: int
) -> None:
    """What a run's scoring process reads of a call made here before it is durable."""
    import msgspec

    from polygon.events import prepare, unnumbered_records

    with LmdbLog(tmp_path / "log", format_version=fmt) as log:
        for batch in _batches()[:2]:  # other streams first: the log's seqs are not the versions
            log.append([p for p in batch if p.stream != "conv/a"])
        call = [turn("a", n, f"line {n}") for n in range(1, 700)]  # format 2 trains and compresses
        prepared = prepare(call)
        for start in range(0, len(prepared), 100):
            log.append_prepared(prepared[start : start + 100])
        stored = list(log.read_stream("conv/a"))
        early = LmdbLog.decode_records(unnumbered_records(prepared))
    assert stored[0].seq > 1
    assert [e.seq for e in early] == list(range(1, len(call) + 1))
    assert early == [msgspec.structs.replace(e, seq=e.stream_version) for e in stored]
