"""``polygon report``: fold a run from the log (through the run queries), render it."""

from __future__ import annotations

from collections.abc import Iterator

from polygon.app.queries import load_run, whole_rows
from polygon.app.snapshots import gc_paused
from polygon.events import EventLog
from polygon.projections import RunReport, make_report
from polygon.render import RENDERERS, json_chunks


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
