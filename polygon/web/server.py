"""The ASGI app: one route per page, each a read of the log through the CLI's use cases."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, quote, urlencode

import anyio
import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
from polygon.suite.loading import load_suite
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
            if isinstance(self._log, MemoryLog) and (self.path / "data.mdb").exists():
                self._log = None  # the log appeared after the server started: read it from now on
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


DEFAULT_PORT = 8765
LINT_MAX_BYTES = 64 * 1024
"""Largest lint request (the editor's drafts are a few KB; beyond this: 413)."""
LINT_SECONDS = 20.0
"""Time budget of one lint request; past it the answer is 503 (the reading is abandoned)."""
SAVE_MAX_BYTES = 1024 * 1024
"""Largest prompt save (the form, URL-encoded)."""
NAME_MAX = 120
"""Longest file name a save accepts."""
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # no-referrer would send Origin: null on our own form
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]


def own_hosts(port: int) -> frozenset[str]:
    """The Host values this server answers to: its loopback names with its port, nothing else."""
    return frozenset(f"{name}:{port}" for name in ("127.0.0.1", "localhost", "[::1]"))


class Guard:
    """The outermost ASGI layer: a foreign Host is refused, every response carries the headers.

    A foreign Host is a DNS-rebinding page; the headers go on a 404 or a 500 too (this wraps
    Starlette's own error layer, which middleware inside the app never sees).
    """

    def __init__(self, app: ASGIApp, port: int) -> None:
        self.app = app
        self.hosts = own_hosts(port)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One request (or the lifespan, passed through)."""
        if scope["type"] == "websocket":  # none is served
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)  # lifespan
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k for k, _ in SECURITY_HEADERS}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": [*kept, *SECURITY_HEADERS]}
            await send(message)

        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1").lower()
        if host not in self.hosts:
            why = "refused: this server answers only to its own address (127.0.0.1, localhost)"
            await _plain(with_headers, 421, why)
            return
        await self.app(scope, receive, with_headers)


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Refused(Exception):
    """A request refused with a status and one line (turned into a page or JSON by the caller)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def same_origin(request: Request, hosts: frozenset[str], token: str, given: object) -> None:
    """Refuse a state-changing or expensive request that did not come from our own page.

    It needs the per-server token (read from the page, which another origin cannot read) and
    an Origin whose scheme, host and port are this server's (http://127.0.0.1:PORT, aliases).
    """
    origin = request.headers.get("origin", "").lower()
    if origin not in {f"http://{h}" for h in hosts}:
        raise Refused(403, "refused: the request did not come from this server's own page (Origin)")
    if not isinstance(given, str) or not secrets.compare_digest(given.encode(), token.encode()):
        raise Refused(403, "refused: the request did not come from this server's own page (token)")


async def capped_body(request: Request, limit: int) -> bytes:
    """The request's body, refused with 413 past ``limit`` bytes (read no further than that)."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"refused: the request is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, f"refused: the request is larger than {limit} bytes")
    return bytes(body)


def media_type(request: Request) -> str:
    """The request's content type without parameters (``application/json; charset=utf-8`` → …)."""
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def lint_request(body: bytes) -> tuple[str, tuple[str, ...]]:
    """The text and tiers of a lint request (a JSON object), or a 400 naming what is wrong."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise Refused(400, 'expected a JSON object {"text": …, "tiers": …}') from None
    if not isinstance(data, dict):
        raise Refused(400, 'expected a JSON object {"text": …, "tiers": …}')
    text, tiers = data.get("text", ""), data.get("tiers", "rules")
    if not isinstance(text, str) or not isinstance(tiers, str):
        raise Refused(400, "text and tiers must be strings")
    known = tuple(t for t in tiers.split(",") if t in ("rules", "surprisal", "embeddings"))
    return text, known or ("rules",)


def save_form(body: bytes) -> dict[str, str]:
    """A URL-encoded form (the editor's save), each field once."""
    try:
        fields = parse_qs(
            body.decode("utf-8"), keep_blank_values=True, max_num_fields=16, strict_parsing=False
        )
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, "expected a URL-encoded form") from None
    return {k: v[0] for k, v in fields.items()}


def seg(value: object) -> str:
    """``value`` quoted as one URL path segment or query value.

    A ``/``, ``?`` or ``#`` in a config or scenario name must not break a link.
    """
    return quote(str(value), safe="")


def make_app(log_path: Path, suites: list[Path] | None = None, *, port: int = DEFAULT_PORT) -> ASGIApp:
    """The web UI over the log at ``log_path``, served on 127.0.0.1:``port``.

    ``suites`` may be edited in the prompt editor.
    """
    shared = SharedLog(log_path)
    hosts = own_hosts(port)
    lint_slot = anyio.CapacityLimiter(1)
    reading_now = threading.Lock()  # taken and released by the reading thread itself

    def read_draft(text: str, tiers: tuple[str, ...]) -> Any:
        """A reading, or None while another (perhaps one abandoned past its budget) still runs."""
        if not reading_now.acquire(blocking=False):
            return None
        try:
            return _lint_draft(text, tiers)
        finally:
            reading_now.release()

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("polygon.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals.update(interval_bar=interval_bar, heat_class=heat_class, request_args=_request_args)
    env.filters["seg"] = seg
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
        try:
            with shared.reading() as log:
                # polled every 2 s while a run is going: calls so far, never a fold of the run
                return JSONResponse(to_builtins(list_runs(log, verdicts=False)))
        except PolygonError as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)

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
        suite_path = _editable(editable, chosen) if chosen else editable[0]
        if suite_path is None:
            return page(
                "error.html",
                status=404,
                message=f"{chosen!r:.200}: not a suite this server was started with (--suite)",
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
        try:
            same_origin(request, hosts, token, request.headers.get("x-polygon-token"))
            if media_type(request) != "application/json":
                raise Refused(415, "expected Content-Type: application/json")
            text, tiers = lint_request(await capped_body(request, LINT_MAX_BYTES))
            if not text.strip():
                return JSONResponse({"scores": {}, "marks": [], "skipped": {}})
            # One reading at a time, ever: a reading past its budget is abandoned (a thread
            # cannot be stopped) but holds the lock until it ends, so none piles up beside it.
            with anyio.fail_after(LINT_SECONDS):
                result = await anyio.to_thread.run_sync(
                    read_draft, text, tiers, abandon_on_cancel=True, limiter=lint_slot
                )
            if result is None:
                raise Refused(503, "another reading is still running; try again in a moment")
        except Refused as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        except TimeoutError:
            message = f"the reading took longer than {LINT_SECONDS:.0f} s; try a shorter prompt"
            return JSONResponse({"error": message}, status_code=503)
        return JSONResponse(result)

    async def save_prompt(request: Request) -> Response:
        try:
            if media_type(request) != "application/x-www-form-urlencoded":
                raise Refused(415, "expected the editor's form (application/x-www-form-urlencoded)")
            form = save_form(await capped_body(request, SAVE_MAX_BYTES))
            same_origin(request, hosts, token, form.get("token"))
            suite_path = _editable(editable, form.get("suite", ""))
            if suite_path is None:
                raise Refused(403, "refused: not a suite this server was started with")
            target = _new_file(suite_path, form.get("filename", "").strip(), form.get("text", ""))
        except Refused as exc:
            return page("error.html", status=exc.status, message=str(exc))
        query = urlencode({"suite": str(suite_path), "saved": target.name})
        return RedirectResponse(f"/prompt?{query}", status_code=303)

    static = StaticFiles(directory=str(files("polygon.web").joinpath("static")))
    routes = [
        Route("/", runs),
        Route("/api/runs", runs_json),
        Route("/runs/{run:path}", run),
        Route("/compare", compare),
        Route("/pair", pair),
        Route("/replay/{cid:path}", replay),
        Route("/explain/{cid:path}", explain),
        Route("/prompt", prompt),
        Route("/api/lint", lint_api, methods=["POST"]),
        Route("/prompt/save", save_prompt, methods=["POST"]),
        Mount("/static", static, name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        shared.close()

    return Guard(Starlette(routes=routes, lifespan=lifespan), port)


def _lint_draft(text: str, tiers: tuple[str, ...]) -> Any:
    """One draft read by the lint tiers (in a worker thread: never on the event loop)."""
    memory = MemoryLog()  # the editor reads drafts: nothing of a draft goes into the log
    [result] = lint_targets(
        memory,
        [Target(name="draft", path="draft", text=text)],
        LintOptions(tiers=tiers),
        now=lambda: "",
        readers=Readers(),
    )
    return to_builtins(result)


def _editable(editable: list[Path], given: str) -> Path | None:
    """The suite ``given`` names if the server was started with it (else None).

    A NUL or an over-long name is just "not one of ours", never an error.
    """
    by_name = {str(p): p for p in editable}
    if given in by_name:
        return by_name[given]
    try:
        resolved = Path(given).resolve()
    except (OSError, ValueError):
        return None
    return resolved if resolved in editable else None


def _new_file(suite_path: Path, name: str, text: str) -> Path:
    """``text`` saved as a new file beside the suite: a plain .md/.txt name, created exclusively.

    An existing file is never overwritten, even one that appears between a check and a write.
    """
    plain = name and "/" not in name and "\\" not in name and "\x00" not in name and name not in (".", "..")
    if not plain or len(name) > NAME_MAX or Path(name).suffix not in (".md", ".txt"):
        why = f"give a new .md or .txt file name (no folders, at most {NAME_MAX} characters)"
        raise Refused(400, f"{name!r:.80}: {why}")
    target = suite_path.parent / name
    try:
        with open(target, "x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        raise Refused(400, f"{name}: that file exists (nothing is overwritten); give a new name") from None
    except (OSError, UnicodeEncodeError) as exc:
        raise Refused(400, f"{name!r:.80}: cannot save there ({exc.__class__.__name__})") from None
    return target


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
    """The page asked for; anything that is not a plain number (``²``, ``-1``, 10**9 digits) is 1."""
    return int(arg) if arg.isascii() and arg.isdigit() and 0 < len(arg) < 10 and int(arg) > 0 else 1


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
