"""The run head: what a run's own stream says about it (a pure fold over ``run.*`` events).

Queries about a run (has it started, with which configurations, is it finished, hidden,
which rubrics was it judged with)
read this one fold instead of each scanning the stream for the event it needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from polygon.events import Envelope, RubricRecorded, RunFinished, RunHidden, RunStarted


@dataclass(frozen=True)
class RunHead:
    """A run's start and the facts recorded on its stream since."""

    started: RunStarted
    seq: int
    """Global sequence number of ``run.started``: runs sort by it (oldest first)."""
    started_at: str
    """When ``run.started`` was recorded."""
    finished_seq: int | None = None
    """Sequence number of the first ``run.finished``; None while the run is unfinished."""
    hidden: bool = False
    rubrics: tuple[RubricRecorded, ...] = ()
    """Every rubric recorded with the run (one per version and content), in log order."""

    @property
    def finished(self) -> bool:
        """The run recorded ``run.finished``."""
        return self.finished_seq is not None


def fold_run_head(events: Iterable[Envelope]) -> RunHead | None:
    """Fold a run stream; None when the stream does not open with ``run.started``.

    Polygon writes ``run.started`` first on every run stream (hiding and finishing name
    runs that exist), so a stream that opens otherwise is not a run.
    """
    head: RunHead | None = None
    for env in events:
        p = env.payload
        if head is None:
            if not isinstance(p, RunStarted):
                return None
            head = RunHead(started=p, seq=env.seq, started_at=env.recorded_at)
        elif isinstance(p, RunFinished) and head.finished_seq is None:
            head = replace(head, finished_seq=env.seq)
        elif isinstance(p, RunHidden):
            head = replace(head, hidden=True)
        elif isinstance(p, RubricRecorded):
            head = replace(head, rubrics=(*head.rubrics, p))
    return head
