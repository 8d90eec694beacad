"""The ASGI app: one route per page, each a read of the log through the CLI's use cases."""

from __future__ import annotations

import secrets
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import jinja2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from polygon.app.calibrate import calibrate_runs
from polygon.app.compare import compare_runs
from polygon.app.divergence import divergence
from polygon.app.explain import explain_conversation
from polygon.app.lint import LintOptions, Readers, Target, lint_targets, suite_targets
from polygon.app.log import open_log
from polygon.app.passes import run_started
from polygon.app.replay import load_conversation
from polygon.app.report import load_run
from polygon.app.runs import list_runs, resolve_conversation, resolve_run
from polygon.errors import PolygonError
from polygon.events import EventLog, to_builtins
from polygon.events.families import ProbeAnswered
from polygon.events.memory import MemoryLog
from polygon.events.streams import labels_stream, run_conversations
from polygon.probe.library import probes_from
from polygon.projections.report import make_report
from polygon.suite.loading import inside, load_suite
from polygon.web.svg import heat_class, interval_bar

T = TypeVar("T")

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


class SharedLog:
    """The log, opened read-only once and shared by request threads (one at a time)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._log: Any = None

    @contextmanager
    def reading(self) -> Iterator[EventLog]:
        """The log for one request (an empty one until the log exists)."""
        with self._lock:
            if self._log is None:
                self._log = (
                    open_log(self.path, readonly=True) if (self.path / "data.mdb").exists() else MemoryLog()
                )
            try:
                yield self._log
            except PolygonError:
                raise
            except Exception:  # a writer grew the map (or the log appeared): open it afresh next time
                self.close()
                raise

    def close(self) -> None:
        """Close the log (it is opened again on the next request)."""
        if self._log is not None and hasattr(self._log, "close"):
            self._log.close()
        self._log = None


class _Headers(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = (
            "same-origin"  # no-referrer would send Origin: null on our own form
        )
        return response


def make_app(log_path: Path, suites: list[Path] | None = None) -> Starlette:
    """The web UI over the log at ``log_path``; ``suites`` may be edited in the prompt editor."""
    shared = SharedLog(log_path)
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("polygon.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals.update(interval_bar=interval_bar, heat_class=heat_class, request_args=_request_args)
    token = secrets.token_urlsafe(24)
    editable = [p.resolve() for p in suites or []]
    memo: dict[tuple[object, ...], Any] = {}

    def remembered(log: EventLog, key: tuple[object, ...], make: Callable[[], T]) -> T:
        """A fold kept until the log grows (it is append-only: the same length, the same fold)."""
        full = (*key, log.last_seq())
        if full not in memo:
            if len(memo) > 32:
                memo.clear()
            memo[full] = make()
        return memo[full]  # type: ignore[no-any-return]

    def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=status)

    def guarded(read: Callable[[EventLog], HTMLResponse]) -> HTMLResponse:
        try:
            with shared.reading() as log:
                return read(log)
        except PolygonError as exc:
            return page("error.html", status=404, message=str(exc))

    def runs(request: Request) -> HTMLResponse:
        every = "all" in request.query_params
        suite = request.query_params.get("suite", "")
        state = request.query_params.get("state", "")

        def read(log: EventLog) -> HTMLResponse:
            rows = remembered(log, ("runs", every), lambda: list_runs(log, include_hidden=every))
            suites = sorted({r.suite for r in rows})
            shown = [r for r in rows if (not suite or r.suite == suite) and _in_state(r, state)]
            return page("runs.html", rows=shown, suites=suites, suite=suite, state=state, every=every)

        return guarded(read)

    def runs_json(request: Request) -> JSONResponse:
        with shared.reading() as log:
            # polled every 2 s while a run is going: calls so far, never a fold of the run
            return JSONResponse(to_builtins(list_runs(log, verdicts=False)))

    def run(request: Request) -> HTMLResponse:
        def read(log: EventLog) -> HTMLResponse:
            run_id = resolve_run(log, request.path_params["run"])
            rubric = request.query_params.get("rubric")
            report = remembered(
                log, ("report", run_id, rubric), lambda: make_report(load_run(log, run_id), rubric)
            )
            wanted = {
                k: request.query_params.get(k, "")
                for k in ("verdict", "caller", "scenario", "probe", "answer")
            }
            probe = wanted["probe"]
            answers = (
                remembered(log, ("answers", run_id, probe), lambda: _probe_answers(log, run_id, probe))
                if probe
                else {}
            )
            rows = [r for r in report.conversations if _keep(r, wanted, answers)]
            at = _page_number(request.query_params.get("page", "1"))
            callers = sorted({r.record.persona_type for r in report.conversations if r.record.persona_type})
            probes = [p.id for p in probes_from(run_started(log, run_id).probes)]
            shown = rows[(at - 1) * PER_PAGE : at * PER_PAGE]
            calibration = remembered(
                log,
                ("calibration", run_id, report.rubric_version),
                lambda: _calibration(log, run_id, report.rubric_version),
            )
            context: dict[str, Any] = {
                "wanted": wanted,
                "callers": callers,
                "probes": probes,
                "at": at,
                "per_page": PER_PAGE,
            }
            return page(
                "run.html", report=report, rows=shown, matching=len(rows), calibration=calibration, **context
            )

        return guarded(read)

    def compare(request: Request) -> HTMLResponse:
        def read(log: EventLog) -> HTMLResponse:
            refs = request.query_params.getlist("run")
            if not refs:
                return page("compare_pick.html", rows=list_runs(log))
            runs_ = [resolve_run(log, r) for r in refs]
            rubric, configs = request.query_params.get("rubric"), request.query_params.getlist("config")
            key = ("compare", *runs_, rubric, *configs)
            c = remembered(log, key, lambda: compare_runs(log, runs_, rubric=rubric, configs=configs))
            side = {s.label: f"{s.run_id}.{s.config}" for s in c.sides}
            pairs = {
                d.scenario: (f"{side[d.a]}.{d.scenario}.0", f"{side[d.b]}.{d.scenario}.0")
                for d in c.divergences
            }
            return page("compare.html", c=c, runs=runs_, pairs=pairs, labels=[s.label for s in c.sides])

        return guarded(read)

    def pair(request: Request) -> HTMLResponse:
        def read(log: EventLog) -> HTMLResponse:
            a = resolve_conversation(log, request.query_params.get("a", ""))
            b = resolve_conversation(log, request.query_params.get("b", ""))
            split = divergence(log, a, b)
            va, vb = load_conversation(log, a), load_conversation(log, b)
            turns = sorted({t.turn for t in va.turns} | {t.turn for t in vb.turns})
            by_a, by_b = {t.turn: t for t in va.turns}, {t.turn: t for t in vb.turns}
            return page(
                "pair.html", a=a, b=b, split=split, rows=[(n, by_a.get(n), by_b.get(n)) for n in turns]
            )

        return guarded(read)

    def replay(request: Request) -> HTMLResponse:
        def read(log: EventLog) -> HTMLResponse:
            view = load_conversation(log, resolve_conversation(log, request.path_params["cid"]))
            return page("replay.html", view=view, marked=_marked)

        return guarded(read)

    def explain(request: Request) -> HTMLResponse:
        def read(log: EventLog) -> HTMLResponse:
            cid = resolve_conversation(log, request.path_params["cid"])
            e = explain_conversation(log, cid, request.query_params.get("rubric"))
            return page("explain.html", e=e, cid=cid)

        return guarded(read)

    def prompt(request: Request) -> HTMLResponse:
        chosen = request.query_params.get("suite", "")
        if not editable:
            return page(
                "prompt.html", suites=[], loaded=None, targets=[], chosen="", config="", text="", token=token
            )
        suite_path = Path(chosen).resolve() if chosen else editable[0]
        if suite_path not in editable:
            return page(
                "error.html",
                status=404,
                message=f"{chosen}: not a suite this server was started with (--suite)",
            )
        try:
            loaded = load_suite(suite_path, personas_optional=True)
        except PolygonError as exc:
            return page("error.html", status=400, message=str(exc))
        found = suite_targets(loaded)
        config = request.query_params.get("config") or (found[0].name if found else "")
        text = next((t.text for t in found if t.name == config), "")
        return page(
            "prompt.html",
            suites=editable,
            loaded=loaded,
            targets=found,
            chosen=str(suite_path),
            config=config,
            text=text,
            token=token,
        )

    async def lint_api(request: Request) -> JSONResponse:
        body = await request.json()
        text = str(body.get("text", ""))
        tiers = tuple(
            t for t in str(body.get("tiers", "rules")).split(",") if t in ("rules", "surprisal", "embeddings")
        )
        if not text.strip():
            return JSONResponse({"scores": {}, "marks": [], "skipped": {}})
        memory = MemoryLog()  # the editor reads drafts: nothing of a draft goes into the log
        [result] = lint_targets(
            memory,
            [Target(name="draft", path="draft", text=text)],
            LintOptions(tiers=tiers or ("rules",)),
            now=lambda: "",
            readers=Readers(),
        )
        return JSONResponse(to_builtins(result))

    async def save_prompt(request: Request) -> Response:
        form = await request.form()
        origin = request.headers.get("origin", "")
        host = request.headers.get("host", "")
        if form.get("token") != token or (origin and origin.split("//", 1)[-1] != host):
            return page("error.html", status=403, message="refused: the form did not come from this page")
        suite_path = Path(str(form.get("suite", ""))).resolve()
        if suite_path not in editable:
            return page("error.html", status=403, message="refused: not a suite this server was started with")
        name = str(form.get("filename", "")).strip()
        try:
            target = inside(suite_path, "filename", name)
        except PolygonError as exc:
            return page("error.html", status=400, message=str(exc))
        if target.suffix not in (".md", ".txt") or target.exists():
            return page(
                "error.html",
                status=400,
                message=f"{name}: give a new .md or .txt file name (nothing is overwritten)",
            )
        target.write_text(str(form.get("text", "")), encoding="utf-8")
        return RedirectResponse(f"/prompt?suite={suite_path}&saved={target.name}", status_code=303)

    static = StaticFiles(directory=str(files("polygon.web").joinpath("static")))
    routes = [
        Route("/", runs),
        Route("/api/runs", runs_json),
        Route("/runs/{run}", run),
        Route("/compare", compare),
        Route("/pair", pair),
        Route("/replay/{cid}", replay),
        Route("/explain/{cid}", explain),
        Route("/prompt", prompt),
        Route("/api/lint", lint_api, methods=["POST"]),
        Route("/prompt/save", save_prompt, methods=["POST"]),
        Mount("/static", static, name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        shared.close()

    return Starlette(routes=routes, middleware=[Middleware(_Headers)], lifespan=lifespan)


def _calibration(log: EventLog, run_id: str, version: str) -> Any:
    """The run's calibration against its labels, when it has any (None otherwise)."""
    if not log.stream_length(labels_stream(run_id)):
        return None
    try:
        return calibrate_runs(log, [run_id], rubric=version)
    except PolygonError:
        return None


def _in_state(row: Any, state: str) -> bool:
    if state == "finished":
        return bool(row.finished)
    if state == "unfinished":
        return not row.finished and row.source != "imported"
    return True


PER_PAGE = 200
"""Calls a report page lists at once (a 20,000-call run is 101 pages, not one 8 MB page)."""


def _page_number(arg: str) -> int:
    return int(arg) if arg.isdigit() and int(arg) > 0 else 1


def _request_args(wanted: dict[str, str], page_number: int) -> str:
    return urlencode({**{k: v for k, v in wanted.items() if v}, "page": page_number})


def _keep(row: Any, wanted: dict[str, str], answers: dict[str, str]) -> bool:
    state = row.verdict.verdict if row.verdict else "unjudged"
    answer = answers.get(row.record.conversation_id, "")
    return (
        (not wanted["verdict"] or state == wanted["verdict"])
        and (not wanted["caller"] or row.record.persona_type == wanted["caller"])
        and (not wanted["scenario"] or wanted["scenario"] in row.record.scenario)
        and (not wanted["probe"] or (answer != "" and (not wanted["answer"] or answer == wanted["answer"])))
    )


def _probe_answers(log: EventLog, run_id: str, probe_id: str) -> dict[str, str]:
    """Each call's latest answer to ``probe_id`` (read only when the calls are filtered by it)."""
    out: dict[str, str] = {}
    for stream in log.streams(run_conversations(run_id)):
        for env in log.read_stream(stream):
            if isinstance(env.payload, ProbeAnswered) and env.payload.probe_id == probe_id:
                out[env.payload.conversation_id] = env.payload.answer
    return out


def _marked(heard: str | None, ops: list[Any]) -> list[tuple[str, bool]]:
    """The heard text as (word, distorted) pieces: the words a noise operation put there."""
    if heard is None:
        return []
    changed = {w for op in ops for w in str(op.after).split()}
    return [(w, w in changed) for w in heard.split()]
