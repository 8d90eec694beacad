"""``polygon runs``: list the runs, hide one.

Referring to a run (``latest``, prefixes) is a run query (:mod:`.queries`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import msgspec

from polygon.app.passes import read_run_head
from polygon.app.queries import load_run, run_heads
from polygon.app.views import ViewKey, saved_view, saving
from polygon.events import RUN_HIDDEN, EventLog, Pending, RunHidden, identity, run_conversations, run_stream


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
    """Verdict state → calls, under the run's own rubric (empty when the run was never judged)."""


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


def list_runs(
    log: EventLog, *, suite: str | None = None, include_hidden: bool = False, verdicts: bool = True
) -> list[RunRow]:
    """The runs, newest first (hidden ones only when asked).

    ``verdicts=False`` skips folding each run for its verdict counts and rubrics: what a
    page polling a running run needs (calls so far, finished or not), at any size.
    """
    rows = []
    for head in reversed(run_heads(log)):
        started = head.started
        if (head.hidden and not include_hidden) or (suite and started.suite_name != suite):
            continue
        summary = _verdict_summary(log, started.run_id) if verdicts else VerdictSummary()
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
                rubrics=summary.rubrics,
                passes=summary.passes,
                states=summary.states,
            )
        )
    return rows


class VerdictSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What ``polygon runs`` shows of a run's verdicts: saved like a view (see :func:`_verdict_summary`)."""

    rubrics: list[str] = msgspec.field(default_factory=list)
    passes: int = 0
    states: dict[str, int] = msgspec.field(default_factory=dict)


_SUMMARY_KEY = "runs:verdicts"


def _verdict_summary(log: EventLog, run_id: str) -> VerdictSummary:
    """The run's rubrics, passes and verdict counts under the rubric `report` shows by default.

    Saved in the snapshot store like a view (:mod:`.views`): listing the runs of a big log
    would otherwise decode every run's whole fold each time (7 CPU s at 100k calls). It is
    stale, and folded again, as soon as the run or one of its calls has a new event.
    """
    key = ViewKey(_SUMMARY_KEY, (run_id,), ())
    found = saved_view(log, key)
    if found is not None:
        try:
            return msgspec.msgpack.decode(b"".join(found[0]), type=VerdictSummary)
        except (msgspec.DecodeError, msgspec.ValidationError):
            pass  # not what this code saves: folded again below, and replaced
    position = log.last_seq()  # before the fold: what is appended meanwhile makes it stale
    summary = _summarised(log, run_id)
    b"".join(saving(log, key, position, [msgspec.msgpack.encode(summary)], [], text=False))
    return summary


def _summarised(log: EventLog, run_id: str) -> VerdictSummary:
    from polygon.projections import verdicts as verdict_fold

    state = load_run(log, run_id)
    versions = verdict_fold.versions(state)
    passes: set[str] = set()
    states: Counter[str] = Counter()
    for rec in state.conversations.values():
        passes.update(rec.judged or rec.passes)
    if versions:
        for row in verdict_fold.verdicts(state, verdict_fold.default_version(state, versions)):
            states[row.verdict.verdict if row.verdict else "unjudged"] += 1
    return VerdictSummary(rubrics=versions, passes=len(passes), states=dict(sorted(states.items())))


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
