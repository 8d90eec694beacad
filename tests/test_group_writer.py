"""The group-commit writer: commits at a cadence whoever submits, never splits a submission."""

from __future__ import annotations

import asyncio
from pathlib import Path

from polygon.events import LmdbLog, Pending, identity
from polygon.events.families import TurnSpoken
from polygon.recording import GroupWriter


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _events(start: int, n: int) -> list[Pending]:
    return [
        Pending(
            stream="conv/c",
            identity=identity(run="r", conversation="c", turn=i, kind="turn"),
            event=TurnSpoken(conversation_id="c", turn=i, speaker="caller", text="hi"),
        )
        for i in range(start, start + n)
    ]


def test_submissions_commit_when_a_commit_is_due_without_the_event_loop(tmp_path: Path) -> None:
    clock = Clock()
    with LmdbLog(tmp_path / "log") as log:
        writer = GroupWriter(log, interval_s=0.05, clock=clock)
        writer.submit(_events(0, 3))
        clock.now = 0.01
        writer.submit(_events(3, 3))
        assert log.last_seq() == 0 and writer.commits == 0  # not due yet: held
        clock.now = 0.06
        writer.submit(_events(6, 3))  # due: everything held goes in one commit, on the thread
        writer.wait()
        assert log.last_seq() == 9 and writer.commits == 1
        clock.now = 0.07
        writer.submit(_events(9, 2))
        assert log.last_seq() == 9
        writer.commit()
        assert log.last_seq() == 11 and writer.commits == 2


def test_the_cadence_counts_from_the_end_of_a_slow_commit(tmp_path: Path) -> None:
    clock = Clock()
    with LmdbLog(tmp_path / "log") as log:
        real_append = log.append

        def slow_append(batch: list[Pending]) -> object:
            clock.now += 0.04  # an fsync on a busy disk
            return real_append(batch)

        log.append = slow_append  # type: ignore[method-assign]
        writer = GroupWriter(log, interval_s=0.05, clock=clock)
        clock.now = 0.06
        writer.submit(_events(0, 3))  # due: committed, ending at 0.10
        writer.wait()
        assert writer.commits == 1 and clock.now == 0.1
        clock.now = 0.12
        writer.submit(_events(3, 3))  # 0.06 after the commit began, 0.02 after it ended: held
        writer.wait()
        assert writer.commits == 1 and log.last_seq() == 3
        clock.now = 0.16
        writer.submit(_events(6, 3))
        writer.wait()
        assert writer.commits == 2 and log.last_seq() == 9


def test_a_full_queue_commits_at_once_and_whole(tmp_path: Path) -> None:
    with LmdbLog(tmp_path / "log") as log:
        writer = GroupWriter(log, interval_s=60, max_events=5, clock=Clock())
        writer.submit(_events(0, 4))
        assert log.last_seq() == 0
        writer.submit(_events(4, 4))  # over the bound: the whole submission goes with the rest
        writer.wait()
        assert log.last_seq() == 8


def test_the_pump_commits_what_waits_while_writers_are_idle(tmp_path: Path) -> None:
    async def go(log: LmdbLog) -> int:
        writer = GroupWriter(log, interval_s=0.01)
        stop = asyncio.Event()
        pump = asyncio.create_task(writer.pump(stop))
        writer.submit(_events(0, 2))
        await asyncio.sleep(0.1)  # a model agent waiting on its server
        committed = log.last_seq()
        stop.set()
        await pump
        return committed

    with LmdbLog(tmp_path / "log") as log:
        assert asyncio.run(go(log)) == 2
