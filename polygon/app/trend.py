"""``polygon trend``: one probe's compliance across every run in the log, in log order."""

from __future__ import annotations

from polygon.app.queries import run_events
from polygon.errors import UserInputError
from polygon.events import RUN_PREFIX, EventLog, run_of_stream
from polygon.projections import probes as probe_fold


def probe_trend(log: EventLog, probe_id: str, config: str | None) -> list[probe_fold.TrendPoint]:
    """The probe's points, one per run (and configuration); a user error when it was never answered."""
    runs = sorted({run_of_stream(s) for s in log.streams(RUN_PREFIX)})
    tables = [(r, probe_fold.build(run_events(log, r))) for r in runs]
    points = probe_fold.trend(tables, probe_id, config)
    if not points:
        raise UserInputError(f"no answers for probe {probe_id!r} in the log")
    return points
