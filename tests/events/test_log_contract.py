"""One contract suite, run against every EventLog implementation."""

from __future__ import annotations

import pytest

from polygon.events import IdentityConflictError
from polygon.events.families import TurnSpoken

from .helpers import turn


def test_empty_log(any_log) -> None:
    assert any_log.last_seq() == 0
    assert list(any_log.read_all()) == []
    assert list(any_log.read_stream("conv/x")) == []
    assert any_log.stream_length("conv/x") == 0
    assert any_log.verify().ok


def test_append_assigns_gapless_sequence_and_stream_versions(any_log) -> None:
    r1 = any_log.append([turn("a", 1), turn("b", 1), turn("a", 2)])
    r2 = any_log.append([turn("b", 2)])
    assert r1.seqs == (1, 2, 3) and r1.written == 3
    assert r2.seqs == (4,)
    assert [e.seq for e in any_log.read_all()] == [1, 2, 3, 4]
    a = list(any_log.read_stream("conv/a"))
    assert [(e.seq, e.stream_version) for e in a] == [(1, 1), (3, 2)]
    assert [e.payload.turn for e in any_log.read_stream("conv/b")] == [1, 2]
    assert any_log.stream_length("conv/a") == 2


def test_same_identity_same_content_is_a_noop(any_log) -> None:
    any_log.append([turn("a", 1), turn("a", 2)])
    again = any_log.append([turn("a", 1), turn("a", 2), turn("a", 3)])
    assert again.seqs == (1, 2, 3)
    assert again.written == 1
    assert any_log.last_seq() == 3


def test_duplicate_inside_one_batch_is_written_once(any_log) -> None:
    result = any_log.append([turn("a", 1), turn("a", 1)])
    assert result.seqs == (1, 1) and result.written == 1


def test_conflicting_content_raises_and_writes_nothing_of_the_batch(any_log) -> None:
    any_log.append([turn("a", 1, "hello")])
    with pytest.raises(IdentityConflictError, match="different content"):
        any_log.append([turn("a", 2), turn("a", 1, "changed")])
    assert any_log.last_seq() == 1
    assert any_log.stream_length("conv/a") == 1
    assert any_log.verify().ok


def test_conflict_inside_one_batch(any_log) -> None:
    with pytest.raises(IdentityConflictError):
        any_log.append([turn("a", 1, "x"), turn("a", 1, "y")])
    assert any_log.last_seq() == 0


def test_read_all_pages_and_after_seq(any_log) -> None:
    any_log.append([turn("a", n) for n in range(1, 26)])
    assert [e.seq for e in any_log.read_all(page_size=7)] == list(range(1, 26))
    assert [e.seq for e in any_log.read_all(after_seq=20, page_size=3)] == [21, 22, 23, 24, 25]


def test_read_stream_pages_and_after_version(any_log) -> None:
    any_log.append([turn("a", n) for n in range(1, 1200)] + [turn("ab", 1)])
    got = [e.payload.turn for e in any_log.read_stream("conv/a")]
    assert got == list(range(1, 1200))  # the prefix "conv/a" must not leak "conv/ab"
    assert [e.stream_version for e in any_log.read_stream("conv/a", after_version=1197)] == [
        1198,
        1199,
    ]


def test_filter_by_tag(any_log) -> None:
    from polygon.events import Pending, identity
    from polygon.events.families import ConversationEnded

    end = Pending(
        stream="conv/a",
        identity=identity(run="r", conversation="a", kind="end"),
        event=ConversationEnded(conversation_id="a", reason="hangup", by="caller", turns=1),
    )
    any_log.append([turn("a", 1), end, turn("a", 2)])
    tags = [e.tag for e in any_log.read_all(tags={"conversation.ended"})]
    assert tags == ["conversation.ended"]


def test_streams_by_prefix_sorted(any_log) -> None:
    any_log.append([turn("b", 1), turn("a", 1), turn("c", 1)])
    from polygon.events import Pending, identity
    from polygon.events.families import RunFinished

    any_log.append(
        [
            Pending(
                stream="run/1",
                identity=identity(run="1", kind="fin"),
                event=RunFinished(run_id="1", conversations=0, end_reasons={}),
            )
        ]
    )
    assert list(any_log.streams("conv/")) == ["conv/a", "conv/b", "conv/c"]
    assert list(any_log.streams("run/")) == ["run/1"]


def test_payload_round_trips(any_log) -> None:
    any_log.append([turn("a", 1, "Ćao, ja sam Ivana — 050 123")])
    (env,) = any_log.read_stream("conv/a")
    assert env.payload == TurnSpoken(
        conversation_id="a", turn=1, speaker="caller", text="Ćao, ja sam Ivana — 050 123"
    )
    assert env.tag == "conversation.turn_spoken" and env.schema_version == 1


def test_stats_counts_by_tag(any_log) -> None:
    any_log.append([turn("a", 1), turn("b", 1)])
    stats = any_log.stats()
    assert stats.events == 2 and stats.streams == 2
    assert stats.by_tag == {"conversation.turn_spoken": 2}


def test_bad_stream_name_rejected_before_writing(any_log) -> None:
    from polygon.events import Pending

    bad = Pending(stream="", identity="zz", event=turn("a", 1).event)
    with pytest.raises(ValueError):
        any_log.append([turn("a", 1), bad])
    assert any_log.last_seq() == 0
