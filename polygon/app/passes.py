"""What every pass over a run shares: the run's head, and one conversation as a visitor meets it.

A pass (checks and judge, probes) reads each conversation of a run, folds it into a view,
records what it finds through a sink, and hands that conversation's events, whole, to a
group-commit writer: one durable commit per 20 ms of work, not one per conversation. The
loop over the conversations is the pass driver's (``jobs.visit_on``). A killed pass keeps
every conversation committed before the kill, and running it again skips them (identities
are deterministic).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from polygon.errors import UnknownIdError, UserInputError
from polygon.events import (
    RUN_STARTED,
    ConversationStarted,
    Envelope,
    EventLog,
    Pending,
    RunStarted,
    identity,
    run_stream,
)
from polygon.projections import ConversationHead, RunHead, fold_run_head
from polygon.recording import StreamRecorder
from polygon.transcript import ConversationView, build


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
