"""The runs page (``/``) and the live list it polls (``/api/runs``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from polygon.app import RunRow, list_runs
from polygon.errors import PolygonError
from polygon.events import EventLog, to_builtins
from polygon.web.site import site_of


def runs(request: Request) -> HTMLResponse:
    """Every run, newest first, filtered by suite and state (hidden ones with ``?all``)."""
    site = site_of(request)
    every = "all" in request.query_params
    suite = request.query_params.get("suite", "")
    state = request.query_params.get("state", "")

    def read(log: EventLog) -> HTMLResponse:
        rows = site.remembered(log, ("runs", every), lambda: list_runs(log, include_hidden=every))
        suites = sorted({r.suite for r in rows})
        shown = [r for r in rows if (not suite or r.suite == suite) and _in_state(r, state)]
        return site.page("runs.html", rows=shown, suites=suites, suite=suite, state=state, every=every)

    return site.guarded(read)


def runs_json(request: Request) -> JSONResponse:
    """The runs as JSON: polled every 2 s while a run is going (calls so far, never a fold)."""
    try:
        with site_of(request).log.reading() as log:
            return JSONResponse(to_builtins(list_runs(log, verdicts=False)))
    except PolygonError as exc:
        return JSONResponse({"error": str(exc)}, status_code=503)


def _in_state(row: RunRow, state: str) -> bool:
    if state == "finished":
        return row.finished
    if state == "unfinished":
        return not row.finished and row.source != "imported"
    return True


ROUTES = [Route("/", runs), Route("/api/runs", runs_json)]
