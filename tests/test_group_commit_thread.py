"""The group commit on its own thread: the engine goes on during an fsync, nothing is lost.

Issue 31: a run waited on ~435 fsyncs of 10-18 ms each. The writer now commits on a
thread; these tests pin what must still hold: one commit at a time, batches that grow while
one is in flight, callers that need durability still wait for it, a failure on the thread
is raised (once as itself, then as a storage error) and stops all writing, and the map is
never resized under a reader.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from polygon.app.jobs import group_commit
from polygon.events import LmdbLog, MemoryLog, Pending, identity
from polygon.events.errors import StorageError
from polygon.events.families import TurnSpoken
from polygon.events.lmdb_log import MIN_MAP_SIZE
from polygon.events.map_lock import MapLock
from polygon.recording import HELD_EVENTS, GroupWriter


def _events(start: int, n: int, stream: str = "conv/c", text: str = "hi") -> list[Pending]:
    return [
        Pending(
            stream=stream,
            identity=identity(run="r", conversation=stream, turn=i, kind="turn"),
            event=TurnSpoken(conversation_id="c", turn=i, speaker="caller", text=text),
        )
        for i in range(start, start + n)
    ]


class HeldLog(MemoryLog):
    """A memory log whose appends wait for :attr:`go` (a slow fsync), each batch noted."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()
        self.started = threading.Event()
        self.batches: list[int] = []
        self.fail_at = 0

    def append(self, batch: Any) -> Any:
        self.batches.append(len(batch))
        self.started.set()
        assert self.go.wait(10)
        if len(self.batches) == self.fail_at:
            raise StorageError("append failed: mdb_txn_commit: Input/output error")
        return super().append(batch)


def test_the_engine_goes_on_while_a_commit_is_in_flight_and_the_next_batch_grows() -> None:
    log = HeldLog()
    writer = GroupWriter(log, interval_s=0)  # every submit is due
    writer.submit(_events(0, 3))
    assert log.started.wait(10)  # the commit is on the thread, stuck in its fsync ...
    writer.submit(_events(3, 2))  # ... and the engine is not: these wait for the next commit
    writer.submit(_events(5, 4))
    assert log.batches == [3] and log.last_seq() == 0
    log.go.set()
    writer.wait()
    assert log.last_seq() == 3  # durable, in the order handed over
    writer.submit(_events(9, 1))  # due and nothing in flight: all that waited goes in one
    writer.commit()
    assert log.batches == [3, 7] and log.last_seq() == 10 and writer.commits == 2
    assert [e.payload.turn for e in log.read_stream("conv/c")] == list(range(10))  # type: ignore[union-attr]


def test_commit_returns_only_once_everything_submitted_is_durable() -> None:
    log = HeldLog()
    writer = GroupWriter(log, interval_s=0)
    writer.submit(_events(0, 2))
    writer.submit(_events(2, 2))
    assert log.started.wait(10)
    committing = threading.Thread(target=writer.commit)
    committing.start()
    committing.join(0.05)
    assert committing.is_alive() and log.last_seq() == 0  # the fsync is held: commit() waits
    log.go.set()
    committing.join(10)
    assert not committing.is_alive() and log.last_seq() == 4


def test_a_full_queue_waits_for_the_commit_in_flight_then_sends_everything() -> None:
    log = HeldLog()
    writer = GroupWriter(log, interval_s=0, max_events=5)
    writer.submit(_events(0, 2))
    assert log.started.wait(10)
    threading.Timer(0.05, log.go.set).start()
    writer.submit(_events(2, 6))  # over the bound: waits for the disk instead of holding more
    writer.commit()
    assert log.batches == [2, 6] and log.last_seq() == 8


def test_a_commit_failing_on_the_thread_is_raised_at_the_next_call_and_nothing_more_is_written() -> None:
    log = HeldLog()
    log.fail_at = 1
    log.go.set()
    writer = GroupWriter(log, interval_s=0)
    writer.submit(_events(0, 3))  # handed to the thread: this call cannot know yet
    while writer._inflight is not None and not writer._inflight.done():
        time.sleep(0.001)
    with pytest.raises(StorageError, match="Input/output error"):
        writer.submit(_events(3, 3))  # the first to hear of it: the error itself
    with pytest.raises(StorageError, match="Input/output error"):
        writer.submit(_events(6, 3))
    with pytest.raises(StorageError, match="Input/output error"):
        writer.commit()
    writer.close()  # already raised to a writer: not raised again
    assert log.batches == [3] and log.last_seq() == 0


def test_a_failure_no_writer_heard_of_is_raised_when_the_pump_ends() -> None:
    async def go(log: HeldLog) -> None:
        writer = GroupWriter(log, interval_s=0.005)
        stop = asyncio.Event()
        pump = asyncio.create_task(writer.pump(stop))
        writer.submit(_events(0, 3))  # the last submission of the run; its commit fails
        await asyncio.sleep(0.05)
        stop.set()
        await pump

    log = HeldLog()
    log.fail_at = 1
    log.go.set()
    with pytest.raises(StorageError, match="Input/output error"):
        asyncio.run(go(log))
    assert log.last_seq() == 0


def test_an_engine_error_leaves_everything_it_handed_over_committed(tmp_path: Path) -> None:
    async def go(log: LmdbLog) -> None:
        async with group_commit(log) as writer:
            writer.submit(_events(0, 3))  # due at once: on the thread
            writer.submit(_events(3, 3))  # in flight or not due: still queued
            raise RuntimeError("the agent crashed")

    with LmdbLog(tmp_path / "log") as log:
        with pytest.raises(RuntimeError, match="crashed"):
            asyncio.run(go(log))
        assert log.last_seq() == 6


def test_the_map_grows_under_a_commit_on_the_thread_while_the_main_thread_reads(tmp_path: Path) -> None:
    inside = {"now": 0, "overlaps": 0, "grown": 0}
    with LmdbLog(tmp_path / "log", map_size=MIN_MAP_SIZE) as log:
        grow = log._grow

        def watched_grow() -> None:
            inside["grown"] += 1
            inside["overlaps"] += inside["now"]  # a read transaction open: its map would move
            grow()

        log._grow = watched_grow  # type: ignore[method-assign]

        def reading(txn: Any) -> int:
            inside["now"] += 1
            time.sleep(0.0005)  # hold the transaction long enough for a commit to meet it
            inside["now"] -= 1
            return int(txn.stat()["entries"])

        writer = GroupWriter(log, interval_s=0)
        for i in range(60):
            text = os.urandom(400).hex()  # incompressible: ~1 MB in all, the map doubles 2-3 times
            writer.submit(_events(i * 20, 20, stream=f"conv/{i % 7}", text=text))
            log._read(reading)
        writer.commit()
        writer.close()
        assert log.last_seq() == 1200 and inside["grown"] >= 2 and inside["overlaps"] == 0
        assert log.verify().ok


def test_the_map_lock_keeps_a_resize_apart_from_every_transaction() -> None:
    lock = MapLock()
    order: list[str] = []
    trying = threading.Event()
    with lock.shared(), lock.shared():  # a read inside a read: never waits
        resize = threading.Thread(target=lambda: _resize(lock, order, trying))
        resize.start()
        assert trying.wait(5)
        resize.join(0.05)
        assert resize.is_alive() and lock.users == 2  # waiting for the reads to end
        order.append("read ends")
    resize.join(5)
    assert order == ["read ends", "resized"] and lock.users == 0


def _resize(lock: MapLock, order: list[str], trying: threading.Event) -> None:
    trying.set()
    with lock.alone():
        order.append("resized")


def test_a_stalled_commit_holds_at_most_the_bound_however_fast_events_come() -> None:
    """Issue 31: a slow fsync let 20,000 events queue beside as many in flight (~1 KB of heap
    each); the engine now waits for the disk once :data:`HELD_EVENTS` wait."""
    log = HeldLog()
    writer = GroupWriter(log, interval_s=0)
    writer.submit(_events(0, 100))
    assert log.started.wait(10)  # this fsync stalls ...
    threading.Timer(0.05, log.go.set).start()
    for start in range(100, 10_000, 100):  # ... while a fast stage makes 9,900 more events
        writer.submit(_events(start, 100))
    writer.commit()
    assert log.last_seq() == 10_000  # every event, in order
    assert max(log.batches) <= HELD_EVENTS + 100  # no batch (nor queue) past the bound
    assert log.batches[1] >= HELD_EVENTS  # the writer waited only once the bound was reached
