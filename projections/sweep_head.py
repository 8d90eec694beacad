"""The sweep head: what a sweep's stream says about it (a pure fold over ``sweep.*`` events).

Running, resuming, ranking and compacting a sweep read this one fold instead of each
scanning the stream for the events it needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from polygon.events import Envelope, PointRan, PointRefused, SweepFinished, SweepStarted, SweepStopped


@dataclass(frozen=True)
class SweepHead:
    """A sweep's start and what became of its points since.

    Each point is decided once, ran or refused (their identities are keyed by the point's
    index, and a resumed sweep skips decided points), so an index is in one map at most.
    """

    started: SweepStarted
    seq: int
    """Global sequence number of ``sweep.started``."""
    ran: Mapping[int, PointRan] = field(default_factory=dict)
    """Point index → its ``point.ran``."""
    refused: Mapping[int, PointRefused] = field(default_factory=dict)
    """Point index → its ``point.refused``."""
    stopped: SweepStopped | None = None
    """The first ``sweep.stopped`` (the floor stopped the sweep); None when it was not stopped."""
    finished: bool = False

    @property
    def runs(self) -> set[str]:
        """Every run the sweep names: its points' and those its points ran."""
        return {p.run_id for p in self.started.points} | {e.run_id for e in self.ran.values()}


def fold_sweep_head(events: Iterable[Envelope]) -> SweepHead | None:
    """Fold a sweep stream; None when the stream does not open with ``sweep.started``."""
    found = iter(events)
    first = next(found, None)
    if first is None or not isinstance(first.payload, SweepStarted):
        return None
    ran: dict[int, PointRan] = {}
    refused: dict[int, PointRefused] = {}
    stopped: SweepStopped | None = None
    finished = False
    for env in found:
        p = env.payload
        if isinstance(p, PointRan):
            ran[p.index] = p
        elif isinstance(p, PointRefused):
            refused[p.index] = p
        elif isinstance(p, SweepStopped) and stopped is None:
            stopped = p
        elif isinstance(p, SweepFinished):
            finished = True
    return SweepHead(first.payload, first.seq, ran, refused, stopped, finished)
