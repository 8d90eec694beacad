"""What every pass over a run shares: the run's head, and the per-conversation loop.

A pass (checks and judge, probes) reads each conversation of a run, folds it into a view,
records what it finds through a sink, and hands that conversation's events, whole, to a
group-commit writer: one durable commit per 20 ms of work, not one per conversation. A
killed pass keeps every conversation committed before the kill, and running it again skips
them (identities are deterministic).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from polygon.app.log import call_damage
from polygon.app.progress import Progress, no_progress
from polygon.errors import ModelServerDownError, UnknownIdError, UserInputError
from polygon.events import (
    RUN_STARTED,
    ConversationStarted,
    Envelope,
    EventLog,
    Pending,
    RunStarted,
    identity,
    run_conversations,
    run_stream,
)
from polygon.projections import ConversationHead, RunHead, fold_conversation_head, fold_run_head
from polygon.recording import GroupWriter, StreamRecorder
from polygon.transcript import ConversationView, build

T = TypeVar("T")


class DamagedCallError(UserInputError):
    """A call's stream is not whole (holes left by an older Polygon's failed commit)."""


def damaged_message(run_id: str, stream: str, damage: str) -> str:
    """One line: which call, why, and the way out (the log is append-only: no repair in place)."""
    return (
        f"run {run_id}: {stream} is not whole ({damage}); a failed commit of an older Polygon "
        "left it so. Copy the log without such calls (`polygon log compact --drop-damaged -o NEW`), "
        f"then `polygon --log NEW run SUITE --resume {run_id}` runs them again"
    )


def read_run_head(log: EventLog, run_id: str) -> RunHead | None:
    """The run's head (its start, finished, hidden); None when the log holds no such run."""
    return fold_run_head(log.read_stream(run_stream(run_id)))


def run_started(log: EventLog, run_id: str) -> RunStarted:
    """The run's first event, or a user error naming the run."""
    if head := read_run_head(log, run_id):
        return head.started
    raise UnknownIdError(f"no run {run_id!r} in the log")


def start_run(log: EventLog, started: RunStarted, now: Callable[[], str]) -> int:
    """Append ``run.started`` (a no-op if the log already holds it); returns events written."""
    pending = Pending(
        stream=run_stream(started.run_id),
        identity=identity(run=started.run_id, kind=RUN_STARTED),
        event=started,
        recorded_at=now(),
    )
    return log.append([pending]).written


@dataclass
class Visit:
    """One conversation as a pass meets it: its events, its head, its view (folded on demand), its sink."""

    events: list[Envelope]
    head: ConversationHead
    sink: StreamRecorder

    @property
    def started(self) -> ConversationStarted:
        """The call's ``conversation.started``."""
        return self.head.started

    @cached_property
    def view(self) -> ConversationView:
        """The conversation folded into a view (only when the pass needs it)."""
        return build(self.started.conversation_id, self.events)


async def for_each(items: Iterable[T], concurrency: int, work: Callable[[T], Awaitable[None]]) -> None:
    """``work`` on every item, at most ``concurrency`` at once.

    Only ``concurrency`` tasks exist, taking items from one iterator as they finish: a task
    per item would hold a frame and a future for every call of a 20,000-call run. When one
    fails, the others are cancelled before the error goes up, so nothing is still writing
    once this returns (the caller's final commit sees everything handed over).
    """
    pending = iter(items)

    async def worker() -> None:
        for item in pending:
            await work(item)

    tasks = [asyncio.ensure_future(worker()) for _ in range(max(1, concurrency))]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def each_conversation(
    log: EventLog,
    run_id: str,
    visit: Callable[[Visit], Awaitable[None]],
    *,
    now: Callable[[], str],
    progress: Progress = no_progress,
    abort: Callable[[], str] = lambda: "",
    concurrency: int = 1,
) -> None:
    """For each conversation of the run: read, let ``visit`` record into a sink, hand over.

    Up to ``concurrency`` conversations are visited at once (a model judge waits on its
    server, not on us). ``abort`` names a reason to stop (a model server that is down); what
    was done so far is committed and running the pass again finishes it.
    """
    streams = list(log.streams(run_conversations(run_id)))
    writer = GroupWriter(log)
    stop = asyncio.Event()
    pump = asyncio.create_task(writer.pump(stop))
    done = 0

    async def one(stream: str) -> None:
        nonlocal done
        if reason := abort():
            raise ModelServerDownError(
                f"{reason}; the pass stopped after {done} of {len(streams)} conversations "
                "(run it again to finish)"
            )
        events = list(log.read_stream(stream))
        found = fold_conversation_head(events)
        damage = call_damage(events)
        if damage or found is None:
            raise DamagedCallError(damaged_message(run_id, stream, damage))
        head = found.started
        sink = StreamRecorder(
            run_id=run_id, stream=stream, conversation=head.conversation_id, seed=head.seed, now=now
        )
        await visit(Visit(events, found, sink))
        if sink.pending:
            writer.submit(sink.pending)  # the conversation's events whole: never split by a commit
        done += 1
        progress(done, len(streams))

    try:
        await for_each(streams, concurrency, one)
    finally:
        stop.set()
        await pump
