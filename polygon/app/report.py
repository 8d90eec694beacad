"""Report use cases: fold a run from the log, hand the projections what they need."""

from __future__ import annotations

from collections.abc import Iterator

from polygon.errors import UnknownIdError
from polygon.events import Envelope, EventLog
from polygon.events.families import ConversationStarted
from polygon.events.streams import conversation_stream, run_conversations, run_stream
from polygon.projections.report import RunReport
from polygon.projections.verdicts import RunRecord, build


def run_events(log: EventLog, run_id: str) -> Iterator[Envelope]:
    """The run stream, then every conversation stream of the run, in name order."""
    if not log.stream_length(run_stream(run_id)):
        raise UnknownIdError(f"no run {run_id!r} in the log")
    yield from log.read_stream(run_stream(run_id))
    for stream in log.streams(run_conversations(run_id)):
        yield from log.read_stream(stream)


def load_run(log: EventLog, run_id: str) -> RunRecord:
    """The verdicts projection of a run."""
    return build(run_id, run_events(log, run_id))


def run_of(log: EventLog, conversation_id: str) -> str:
    """The run a conversation belongs to."""
    for env in log.read_stream(conversation_stream(conversation_id)):
        if isinstance(env.payload, ConversationStarted):
            return env.payload.run_id
    raise UnknownIdError(f"no conversation {conversation_id!r} in the log")


def enforce(report: RunReport, fail_on: str | None) -> bool:
    """True when the user asked to enforce a threshold and a conversation missed it."""
    if fail_on is None:
        return False
    bad = {"fail"} if fail_on == "fail" else {"fail", "warn"}
    return any(r.verdict is None or r.verdict.verdict in bad for r in report.conversations)
