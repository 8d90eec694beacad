"""Runs as first-class things: list them, refer to them (``latest``, prefixes), hide them.

``latest`` is the most recently started run that is not hidden, ``latest~1`` the one
before; a conversation id may be given by a unique prefix (or as ``latest.CONFIG.…``).
An unknown id is one error that names the closest ids by similarity.
"""

from __future__ import annotations

import contextlib
import difflib
import re
from collections import Counter
from collections.abc import Callable

import msgspec

from polygon.app.passes import read_run_head
from polygon.errors import UnknownIdError, UserInputError
from polygon.events import (
    CONVERSATION_PREFIX,
    RUN_HIDDEN,
    RUN_PREFIX,
    EventLog,
    Pending,
    RunHidden,
    conversation_stream,
    identity,
    run_conversations,
    run_of_stream,
    run_stream,
)
from polygon.projections import RunHead, fold_run_head

_LATEST = re.compile(r"^latest(?:~(\d+))?$")


class RunRow(msgspec.Struct, frozen=True, kw_only=True):
    """One run as ``polygon runs`` lists it."""

    run_id: str
    suite: str
    source: str
    configs: list[str]
    started: str
    calls: int
    finished: bool
    hidden: bool
    rubrics: list[str]
    passes: int
    states: dict[str, int]
    """Verdict state → calls, under the newest rubric (empty when the run was never judged)."""


def run_state(row: RunRow) -> str:
    """``hidden``, ``imported``, ``finished`` or ``UNFINISHED``.

    An import writes its calls and no ``run.finished``: it is not a simulation that
    stopped half way, so it is never shown as one.
    """
    if row.hidden:
        return "hidden"
    if row.source == "imported":
        return "imported"
    return "finished" if row.finished else "UNFINISHED"


def run_heads(log: EventLog) -> list[RunHead]:
    """Every run's head, oldest first (by the sequence number of its start)."""
    heads = (fold_run_head(log.read_stream(stream)) for stream in log.streams(RUN_PREFIX))
    return sorted((h for h in heads if h is not None), key=lambda h: h.seq)


def list_runs(
    log: EventLog, *, suite: str | None = None, include_hidden: bool = False, verdicts: bool = True
) -> list[RunRow]:
    """The runs, newest first (hidden ones only when asked).

    ``verdicts=False`` skips folding each run for its verdict counts and rubrics: what a
    page polling a running run needs (calls so far, finished or not), at any size.
    """
    from polygon.app.report import load_run
    from polygon.projections import verdicts as verdict_fold

    rows = []
    for head in reversed(run_heads(log)):
        started = head.started
        if (head.hidden and not include_hidden) or (suite and started.suite_name != suite):
            continue
        versions: list[str] = []
        states: Counter[str] = Counter()
        passes: set[str] = set()
        if verdicts:
            state = load_run(log, started.run_id)
            versions = verdict_fold.versions(state)
            for rec in state.conversations.values():
                passes.update(rec.judged or rec.passes)
            if versions:
                for row in verdict_fold.verdicts(state, versions[-1]):
                    states[row.verdict.verdict if row.verdict else "unjudged"] += 1
        rows.append(
            RunRow(
                run_id=started.run_id,
                suite=started.suite_name,
                source=started.source,
                configs=list(started.configs),
                started=head.started_at,
                calls=sum(1 for _ in log.streams(run_conversations(started.run_id))),
                finished=head.finished,
                hidden=head.hidden,
                rubrics=versions,
                passes=len(passes),
                states=dict(sorted(states.items())),
            )
        )
    return rows


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
    close = difflib.get_close_matches(ref, known, n=3, cutoff=0.5)
    return f" (did you mean {', '.join(close)}?)" if close else ""


def hide_run(log: EventLog, run_id: str, *, reason: str, now: Callable[[], str]) -> bool:
    """Record that ``run_id`` leaves default views; False when it already had."""
    if (head := read_run_head(log, run_id)) and head.hidden:
        return False
    event = RunHidden(run_id=run_id, reason=reason)
    pending = Pending(
        stream=run_stream(run_id),
        identity=identity(run=run_id, kind=RUN_HIDDEN),
        event=event,
        recorded_at=now(),
    )
    return bool(log.append([pending]).written)
