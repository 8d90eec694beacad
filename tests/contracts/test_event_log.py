"""The EventLog contract: the in-memory log and LMDB, plus durability for LMDB.

Every log: assigns a gapless sequence and per-stream versions; writes an identity once
(same content: a no-op; other content: an error, and nothing of the batch); reads by stream,
by tag and in pages; round-trips payloads; checks itself. LMDB also keeps all of it across a
close and a reopen, read-only included.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from polygon.events import AppendResult, EventLog, IdentityConflictError, LmdbLog, MemoryLog, Pending
from polygon.events.families import TurnSpoken
from tests.support.log import turn


class EventLogContract(ABC):
    @abstractmethod
    def make(self, path: Path) -> EventLog:
        """A fresh, empty log (``path``: an empty folder it may use)."""

    @pytest.fixture
    def log(self, tmp_path: Path) -> Iterator[EventLog]:
        opened = self.make(tmp_path / "log")
        yield opened
        opened.close()

    def test_empty_log(self, log: EventLog) -> None:
        assert log.last_seq() == 0
        assert list(log.read_all()) == []
        assert list(log.read_stream("conv/x")) == []
        assert log.stream_length("conv/x") == 0
        assert log.verify().ok


    def test_append_assigns_gapless_sequence_and_stream_versions(self, log: EventLog) -> None:
        r1 = log.append([turn("a", 1), turn("b", 1), turn("a", 2)])
        r2 = log.append([turn("b", 2)])
        assert r1.seqs == (1, 2, 3) and r1.written == 3
        assert r2.seqs == (4,)
        assert [e.seq for e in log.read_all()] == [1, 2, 3, 4]
        a = list(log.read_stream("conv/a"))
        assert [(e.seq, e.stream_version) for e in a] == [(1, 1), (3, 2)]
        assert [e.payload.turn for e in log.read_stream("conv/b")] == [1, 2]
        assert log.stream_length("conv/a") == 2


    def test_same_identity_same_content_is_a_noop(self, log: EventLog) -> None:
        log.append([turn("a", 1), turn("a", 2)])
        again = log.append([turn("a", 1), turn("a", 2), turn("a", 3)])
        assert again.seqs == (1, 2, 3)
        assert again.written == 1
        assert log.last_seq() == 3


    def test_duplicate_inside_one_batch_is_written_once(self, log: EventLog) -> None:
        result = log.append([turn("a", 1), turn("a", 1)])
        assert result.seqs == (1, 1) and result.written == 1


    def test_conflicting_content_raises_and_writes_nothing_of_the_batch(self, log: EventLog) -> None:
        log.append([turn("a", 1, "hello")])
        with pytest.raises(IdentityConflictError, match="different content"):
            log.append([turn("a", 2), turn("a", 1, "changed")])
        assert log.last_seq() == 1
        assert log.stream_length("conv/a") == 1
        assert log.verify().ok


    def test_conflict_inside_one_batch(self, log: EventLog) -> None:
        with pytest.raises(IdentityConflictError):
            log.append([turn("a", 1, "x"), turn("a", 1, "y")])
        assert log.last_seq() == 0


    def test_read_all_pages_and_after_seq(self, log: EventLog) -> None:
        log.append([turn("a", n) for n in range(1, 26)])
        assert [e.seq for e in log.read_all(page_size=7)] == list(range(1, 26))
        assert [e.seq for e in log.read_all(after_seq=20, page_size=3)] == [21, 22, 23, 24, 25]


    def test_read_stream_pages_and_after_version(self, log: EventLog) -> None:
        log.append([turn("a", n) for n in range(1, 1200)] + [turn("ab", 1)])
        got = [e.payload.turn for e in log.read_stream("conv/a")]
        assert got == list(range(1, 1200))  # the prefix "conv/a" must not leak "conv/ab"
        assert [e.stream_version for e in log.read_stream("conv/a", after_version=1197)] == [
            1198,
            1199,
        ]


    def test_filter_by_tag(self, log: EventLog) -> None:
        from polygon.events import Pending, identity
        from polygon.events.families import ConversationEnded

        end = Pending(
            stream="conv/a",
            identity=identity(run="r", conversation="a", kind="end"),
            event=ConversationEnded(conversation_id="a", reason="hangup", by="caller", turns=1),
        )
        log.append([turn("a", 1), end, turn("a", 2)])
        tags = [e.tag for e in log.read_all(tags={"conversation.ended"})]
        assert tags == ["conversation.ended"]


    def test_streams_by_prefix_sorted(self, log: EventLog) -> None:
        log.append([turn("b", 1), turn("a", 1), turn("c", 1)])
        from polygon.events import Pending, identity
        from polygon.events.families import RunFinished

        log.append(
            [
                Pending(
                    stream="run/1",
                    identity=identity(run="1", kind="fin"),
                    event=RunFinished(run_id="1", conversations=0, end_reasons={}),
                )
            ]
        )
        assert list(log.streams("conv/")) == ["conv/a", "conv/b", "conv/c"]
        assert list(log.streams("run/")) == ["run/1"]


    def test_payload_round_trips(self, log: EventLog) -> None:
        log.append([turn("a", 1, "Ćao, ja sam Ivana — 050 123")])
        (env,) = log.read_stream("conv/a")
        assert env.payload == TurnSpoken(
            conversation_id="a", turn=1, speaker="caller", text="Ćao, ja sam Ivana — 050 123"
        )
        assert env.tag == "conversation.turn_spoken" and env.schema_version == 1


    def test_stats_counts_by_tag(self, log: EventLog) -> None:
        log.append([turn("a", 1), turn("b", 1)])
        stats = log.stats()
        assert stats.events == 2 and stats.streams == 2
        assert stats.by_tag == {"conversation.turn_spoken": 2}


    def test_bad_stream_name_rejected_before_writing(self, log: EventLog) -> None:
        from polygon.events import Pending

        bad = Pending(stream="", identity="zz", event=turn("a", 1).event)
        with pytest.raises(ValueError):
            log.append([turn("a", 1), bad])
        assert log.last_seq() == 0


class TestMemoryLog(EventLogContract):
    def make(self, path: Path) -> EventLog:
        return MemoryLog()


class TestLmdbLog(EventLogContract):
    def make(self, path: Path) -> EventLog:
        return LmdbLog(path)


class TestLmdbLogFormat1(EventLogContract):
    """The contract on a log created in format 1 (older Polygons' logs stay appendable)."""

    def make(self, path: Path) -> EventLog:
        return LmdbLog(path, format_version=1)


class TestLmdbLogFormat1Durability(EventLogContract):
    """Format 1 reopened from disk after every append: its ``meta`` keeps it format 1."""

    def make(self, path: Path) -> EventLog:
        LmdbLog(path, format_version=1).close()
        return ReopeningLog(path)  # type: ignore[return-value]


class ReopeningLog:
    """An LMDB log closed and reopened from disk after every append (refused ones too)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._log = LmdbLog(path)
        self.reopened = 0

    def append(self, batch: Sequence[Pending]) -> AppendResult:
        try:
            return self._log.append(batch)
        finally:
            self._log.close()
            self._log = LmdbLog(self._path)
            self.reopened += 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self._log, name)


class TestLmdbLogDurability(TestLmdbLog):
    """The whole contract again, every read made on the log as reopened from disk."""

    def make(self, path: Path) -> EventLog:
        return ReopeningLog(path)  # type: ignore[return-value]

    def test_everything_survives_a_reopen(self, tmp_path: Path) -> None:
        path = tmp_path / "log"
        with LmdbLog(path) as first:
            first.append([turn("a", 1), turn("b", 1)])
            first.append([turn("a", 2, "Ćao")])
        with LmdbLog(path, readonly=True) as again:
            assert again.last_seq() == 3
            assert [(e.seq, e.stream_version) for e in again.read_stream("conv/a")] == [(1, 1), (3, 2)]
            assert again.read_stream("conv/a").__next__().payload == turn("a", 1).event
            assert list(again.streams("conv/")) == ["conv/a", "conv/b"]
            assert again.verify().ok

    def test_sequence_and_identities_continue_after_a_reopen(self, tmp_path: Path) -> None:
        path = tmp_path / "log"
        with LmdbLog(path) as first:
            first.append([turn("a", 1)])
        with LmdbLog(path) as again:
            repeat = again.append([turn("a", 1), turn("a", 2)])
            assert repeat.seqs == (1, 2) and repeat.written == 1
            with pytest.raises(IdentityConflictError):
                again.append([turn("a", 1, "changed")])
        with LmdbLog(path, readonly=True) as last:
            assert [e.payload.turn for e in last.read_stream("conv/a")] == [1, 2]  # type: ignore[attr-defined]

    def test_a_refused_batch_leaves_nothing_on_disk(self, tmp_path: Path) -> None:
        path = tmp_path / "log"
        with LmdbLog(path) as first:
            first.append([turn("a", 1, "x")])
            with pytest.raises(IdentityConflictError):
                first.append([turn("b", 1), turn("a", 1, "y")])
        with LmdbLog(path, readonly=True) as again:
            assert again.last_seq() == 1 and list(again.streams()) == ["conv/a"]
