"""One run's report (``/runs/<run>``): its calls filtered by verdict, caller, scenario, probe."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from polygon.events import EventLog
from polygon.web.site import Site, site_of

if TYPE_CHECKING:
    from polygon.projections import ConversationVerdict

# The page imports its use cases when it is first asked for: `polygon serve` listens
# without them (the probe library and its languages, the calibration's numpy and rubric).

FILTERS = ("verdict", "caller", "scenario", "probe", "answer")
"""The query parameters that narrow the calls shown (each empty: no narrowing)."""


def run(request: Request) -> HTMLResponse:
    """The run's report under a rubric (the run's own by default), one page of calls at a time."""
    site = site_of(request)
    return site.guarded(lambda log: _saved_page(site, log, request))


def _saved_page(site: Site, log: EventLog, request: Request) -> HTMLResponse:
    """The page as saved by an earlier view of it (this server's or another's) while it fits.

    The key is everything the page reads besides the log: the rubric, the filters, the page
    number and the page size (the template and the code are in the saved view's version).
    """
    from polygon.app import page_output, resolve_run

    run_id = resolve_run(log, request.path_params["run"])
    rubric = request.query_params.get("rubric")
    wanted = {k: request.query_params.get(k, "") for k in FILTERS}
    at = _page_number(request.query_params.get("page", "1"))
    inputs = (
        ("rubric", repr(rubric)),
        *sorted(wanted.items()),
        ("page", str(at)),
        ("per-page", str(site.per_page)),
    )
    made = page_output(
        log, run_id, "run", inputs, lambda: _report_page(site, log, run_id, rubric, wanted, at)
    )
    return HTMLResponse(made)


def _report_page(
    site: Site, log: EventLog, run_id: str, rubric: str | None, wanted: dict[str, str], at: int
) -> str:
    from polygon.app import labelled_calibration, load_report, probe_answers, run_started
    from polygon.probe import probes_from

    report = site.remembered(log, ("report", run_id, rubric), lambda: load_report(log, run_id, rubric))
    probe = wanted["probe"]
    answers = (
        site.remembered(log, ("answers", run_id, probe), lambda: probe_answers(log, run_id, probe))
        if probe
        else {}
    )
    rows = [r for r in report.conversations if _keep(r, wanted, answers)]
    calibration = site.remembered(
        log,
        ("calibration", run_id, report.rubric_version),
        lambda: labelled_calibration(log, run_id, report.rubric_version),
    )
    return site.env.get_template("run.html").render(
        report=report,
        rows=rows[(at - 1) * site.per_page : at * site.per_page],
        matching=len(rows),
        calibration=calibration,
        wanted=wanted,
        callers=sorted({r.record.persona_type for r in report.conversations if r.record.persona_type}),
        probes=[p.id for p in probes_from(run_started(log, run_id).probes)],
        at=at,
        per_page=site.per_page,
    )


def _page_number(arg: str) -> int:
    """The page asked for; anything that is not a plain number (``²``, ``-1``, 10**9 digits) is 1."""
    return int(arg) if arg.isascii() and arg.isdigit() and 0 < len(arg) < 10 and int(arg) > 0 else 1


def _keep(row: ConversationVerdict, wanted: dict[str, str], answers: dict[str, str]) -> bool:
    state = row.verdict.verdict if row.verdict else "unjudged"
    answer = answers.get(row.record.conversation_id, "")
    return (
        (not wanted["verdict"] or state == wanted["verdict"])
        and (not wanted["caller"] or row.record.persona_type == wanted["caller"])
        and (not wanted["scenario"] or wanted["scenario"] in row.record.scenario)
        and (not wanted["probe"] or (answer != "" and (not wanted["answer"] or answer == wanted["answer"])))
    )


ROUTES = [Route("/runs/{run:path}", run)]
