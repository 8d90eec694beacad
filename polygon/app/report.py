"""Report use cases: fold a run from the log, hand the projections what they need."""

from __future__ import annotations

from collections.abc import Iterator

from polygon.app.snapshots import fold_run, gc_paused
from polygon.errors import UnknownIdError
from polygon.events import (
    ConversationStarted,
    Envelope,
    EventLog,
    conversation_stream,
    run_conversations,
    run_stream,
)
from polygon.projections import (
    ConversationVerdict,
    RunRecord,
    RunReport,
    conversation_rows,
    latest_answers,
    make_report,
)
from polygon.render import RENDERERS, json_chunks


def run_streams(log: EventLog, run_id: str) -> tuple[Iterator[Envelope], Iterator[Iterator[Envelope]]]:
    """The run's own stream, and each conversation stream of the run (read as consumed)."""
    if not log.stream_length(run_stream(run_id)):
        raise UnknownIdError(f"no run {run_id!r} in the log")
    conversations = (log.read_stream(s) for s in log.streams(run_conversations(run_id)))
    return log.read_stream(run_stream(run_id)), conversations


def run_events(log: EventLog, run_id: str) -> Iterator[Envelope]:
    """The run stream, then every conversation stream of the run, in name order."""
    head, conversations = run_streams(log, run_id)
    yield from head
    for stream in conversations:
        yield from stream


def load_run(log: EventLog, run_id: str) -> RunRecord:
    """The verdicts projection of a run, one conversation in memory at a time (reduced).

    From the run's snapshot and the events after it when one fits (:mod:`.snapshots`).
    """
    return fold_run(log, run_id).verdicts


def probe_answers(log: EventLog, run_id: str, probe_id: str) -> dict[str, str]:
    """Each call's latest answer to ``probe_id`` (a view reads it only when it filters by it)."""
    _head, conversations = run_streams(log, run_id)
    return latest_answers((env for stream in conversations for env in stream), probe_id)


def whole_rows(log: EventLog, state: RunRecord, report: RunReport) -> Iterator[ConversationVerdict]:
    """The report's rows with every repeat and check, read back one call at a time.

    Each is computed under the pass its reduced row was computed from.
    """
    for row in report.conversations:
        stream = conversation_stream(row.record.conversation_id)
        whole = conversation_rows(state, log.read_stream(stream), report.rubric_version, row.pass_id or None)
        yield next((w for w in whole if w.record.conversation_id == row.record.conversation_id), row)


def run_recorded_for(log: EventLog, conversation_id: str) -> str:
    """The run a conversation belongs to, as its `conversation.started` records it."""
    for env in log.read_stream(conversation_stream(conversation_id)):
        if isinstance(env.payload, ConversationStarted):
            return env.payload.run_id
    raise UnknownIdError(f"no conversation {conversation_id!r} in the log")


@gc_paused()  # the report of a big run is built like its state (see gc_paused)
def report_run(
    log: EventLog,
    run_id: str,
    fmt: str,
    *,
    rubric: str | None = None,
    pass_id: str | None = None,
    judge: str | None = None,
) -> tuple[RunReport, Iterator[str]]:
    """The report and its text in pieces (consume them while the log is open).

    JSON shows every repeat and check of every call: it is written a call at a time from
    the log, so its size in memory does not grow with the run.
    """
    state = load_run(log, run_id)
    report = make_report(state, rubric, pass_id=pass_id, judge=judge)
    if fmt == "json":
        return report, json_chunks(report, whole_rows(log, state, report))
    return report, iter([RENDERERS[fmt](report)])
