"""``polygon report``: fold a run from the log (through the run queries), render it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import msgspec

from polygon.app.json_rows import row_texts
from polygon.app.passes import read_run_head
from polygon.app.queries import load_run, whole_rows
from polygon.app.snapshots import gc_paused
from polygon.app.views import ViewKey, saved_view, saving
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
    """The run's report under ``rubric`` (the run's own by default), as the web UI shows it.

    Kept in the snapshot store as a saved view (:mod:`.views`): a server's first view of a
    run decodes it (0.3 CPU s at 20k calls) instead of folding the run and building its
    report (1.0), while nothing of the run is new.
    """
    key = ViewKey("report-data", (run_id,), (("rubric", rubric or ""),))
    found = saved_view(log, key)
    if found is not None:
        with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
            return _REPORT.decode(b"".join(found[0]))
    position = log.last_seq()  # before the fold: what is appended meanwhile makes it stale
    report = make_report(load_run(log, run_id), rubric, finished=_finished(log, run_id))
    for _data in saving(log, key, position, [msgspec.msgpack.encode(report)], [], text=False):
        pass  # saved once it is through
    return report


_REPORT = msgspec.msgpack.Decoder(RunReport)


def _finished(log: EventLog, run_id: str) -> bool:
    """The run recorded ``run.finished`` (its head is a few events: rubrics, finished, hidden)."""
    head = read_run_head(log, run_id)
    return head is None or head.finished
