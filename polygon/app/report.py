"""``polygon report``: fold a run from the log (through the run queries), render it."""

from __future__ import annotations

from collections.abc import Iterator

from polygon.app.json_rows import row_texts
from polygon.app.passes import read_run_head
from polygon.app.queries import load_run, whole_rows
from polygon.app.snapshots import gc_paused
from polygon.events import EventLog
from polygon.projections import RunReport, make_report
from polygon.render import RENDERERS, json_document


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
    the log, so its size in memory does not grow with the run, and each call's row is kept
    for the next view (:mod:`.json_rows`).
    """
    state = load_run(log, run_id)
    report = make_report(state, rubric, pass_id=pass_id, judge=judge, finished=_finished(log, run_id))
    if fmt == "json":
        return report, json_document(report, row_texts(log, state, report, whole_rows))
    return report, iter([RENDERERS[fmt](report)])


@gc_paused()  # the rows are built like the state (see gc_paused): 2.0 -> 0.5 CPU s at 20k calls
def load_report(log: EventLog, run_id: str, rubric: str | None = None) -> RunReport:
    """The run's report under ``rubric`` (its newest by default), as the web UI shows it."""
    return make_report(load_run(log, run_id), rubric, finished=_finished(log, run_id))


def _finished(log: EventLog, run_id: str) -> bool:
    """The run recorded ``run.finished`` (its head is a few events: rubrics, finished, hidden)."""
    head = read_run_head(log, run_id)
    return head is None or head.finished
