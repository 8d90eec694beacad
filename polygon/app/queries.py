"""Run queries: find a run or a call by what a user types, read a run's streams, fold its state.

Support for the commands (report, runs, sweep, explain, the web pages): nothing here writes.
``latest`` is the most recently started run that is not hidden, ``latest~1`` the one before;
a conversation id may be given by a unique prefix (or as ``latest.CONFIG.…``). An unknown id
is one error that names the closest ids by similarity.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from polygon.app.snapshots import fold_run
from polygon.errors import UnknownIdError, UserInputError
from polygon.events import (
    CONVERSATION_PREFIX,
    RUN_PREFIX,
    Envelope,
    EventLog,
    conversation_stream,
    labels_stream,
    run_conversations,
    run_of_stream,
    run_stream,
    sweep_stream,
)
from polygon.projections import (
    ConversationVerdict,
    RunHead,
    RunLabels,
    RunRecord,
    RunReport,
    SweepHead,
    conversation_rows,
    fold_conversation_head,
    fold_run_head,
    fold_run_labels,
    fold_sweep_head,
    latest_answers,
)

_LATEST = re.compile(r"^latest(?:~(\d+))?$")


def run_heads(log: EventLog) -> list[RunHead]:
    """Every run's head, oldest first (by the sequence number of its start)."""
    heads = (fold_run_head(log.read_stream(stream)) for stream in log.streams(RUN_PREFIX))
    return sorted((h for h in heads if h is not None), key=lambda h: h.seq)


def resolve_run(log: EventLog, ref: str) -> str:
    """A run id from ``latest``, ``latest~N``, an id, or a unique prefix of one."""
    latest = _LATEST.match(ref)
    visible = [h.started.run_id for h in run_heads(log) if not h.hidden]
    if latest:
        back = int(latest.group(1) or 0)
        if back >= len(visible):
            raise UnknownIdError(f"{ref}: the log holds {len(visible)} visible run(s)")
        return visible[-1 - back]
    if log.stream_length(run_stream(ref)):
        return ref
    every = [run_of_stream(s) for s in log.streams(RUN_PREFIX)]
    matches = [r for r in every if r.startswith(ref)] if ref else []
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise UserInputError(f"run {ref!r} is ambiguous: {', '.join(sorted(matches)[:5])}")
    raise UnknownIdError(f"no run {ref!r} in the log{_did_you_mean(ref, every)}")


def resolve_conversation(log: EventLog, ref: str) -> str:
    """A conversation id, from itself, a unique prefix, or ``latest…`` in place of the run."""
    head, dot, rest = ref.partition(".")
    if dot and (_LATEST.match(head) or not log.stream_length(run_stream(head))):
        with contextlib.suppress(UnknownIdError, UserInputError):  # named below if no run matches
            ref = f"{resolve_run(log, head)}{dot}{rest}"  # latest, latest~N, or a run id's prefix
    if log.stream_length(conversation_stream(ref)):
        return ref
    run_part = ref.split(".", 1)[0]
    candidates = [s.removeprefix(CONVERSATION_PREFIX) for s in log.streams(conversation_stream(run_part))]
    matches = [c for c in candidates if c.startswith(ref)]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise UserInputError(f"conversation {ref!r} is ambiguous: {', '.join(sorted(matches)[:5])}")
    if not candidates:  # the run part itself may be wrong: look among every conversation
        candidates = [s.removeprefix(CONVERSATION_PREFIX) for s in log.streams(CONVERSATION_PREFIX)]
    raise UnknownIdError(f"no conversation {ref!r} in the log{_did_you_mean(ref, candidates)}")


def _did_you_mean(ref: str, known: list[str]) -> str:
    import difflib  # only a mistyped id is matched (not on every start that reads the log)

    close = difflib.get_close_matches(ref, known, n=3, cutoff=0.5)
    return f" (did you mean {', '.join(close)}?)" if close else ""


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
    if head := fold_conversation_head(log.read_stream(conversation_stream(conversation_id))):
        return head.started.run_id
    raise UnknownIdError(f"no conversation {conversation_id!r} in the log")


def read_sweep_head(log: EventLog, sweep_id: str) -> SweepHead | None:
    """The sweep's head (its start, its points' fates); None when the log holds no such sweep."""
    return fold_sweep_head(log.read_stream(sweep_stream(sweep_id)))


def read_run_labels(log: EventLog, run_id: str) -> RunLabels:
    """The run's labels: its calls' and its callers' (none when nobody labelled the run)."""
    return fold_run_labels(log.read_stream(labels_stream(run_id)))
