"""What every page shares, kept on the app's state: the log, the templates, the kept folds.

A page is a module-level function of the request; it finds the :class:`Site` on
``request.app.state.site`` (set once by :func:`polygon.web.server.make_app`).
"""

from __future__ import annotations

import functools
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast
from urllib.parse import quote, urlencode

import anyio
from starlette.requests import Request
from starlette.responses import HTMLResponse

from polygon.app import open_log
from polygon.errors import PolygonError
from polygon.events import EventLog, MemoryLog
from polygon.web.guard import own_hosts
from polygon.web.svg import bar_geometry, heat_class

if TYPE_CHECKING:  # the templates load with the first page: jinja2 is ~0.03 CPU s of serve's start
    import jinja2

T = TypeVar("T")

PER_PAGE = 200
"""Calls a report page lists at once (a 20,000-call run is 101 pages, not one 8 MB page)."""
MEMO_MAX = 32
"""Folds kept at once; past it every kept fold is dropped (they are rebuilt as asked)."""


class SharedLog:
    """The log, opened read-only once and shared by request threads (one at a time)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._log: EventLog | None = None

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
        if self._log is not None:
            self._log.close()
        self._log = None


def seg(value: object) -> str:
    """``value`` quoted as one URL path segment or query value.

    A ``/``, ``?`` or ``#`` in a config or scenario name must not break a link.
    """
    return quote(str(value), safe="")


def request_args(wanted: dict[str, str], page_number: int) -> str:
    """The query string of a report page: its filters that are set, and the page."""
    return urlencode({**{k: v for k, v in wanted.items() if v}, "page": page_number})


def templates() -> jinja2.Environment:
    """The pages' templates, in the environment the HTML report is drawn in (they share its tables)."""
    from polygon.render import environment

    env = environment("polygon.web")
    env.globals.update(bar_geometry=bar_geometry, heat_class=heat_class, request_args=request_args)
    env.filters["seg"] = seg
    return env


@dataclass
class Site:
    """One server's state: shared by its pages, one per :func:`make_app`."""

    log: SharedLog
    port: int
    editable: list[Path]
    """The suites the prompt editor may open and save beside (resolved)."""
    per_page: int = PER_PAGE
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    """The per-server token a state-changing request must carry (only our page can read it)."""
    lint_slot: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(1))
    reading_now: threading.Lock = field(default_factory=threading.Lock)
    """Held by the thread reading a draft, taken and released by that thread itself."""
    memo: dict[tuple[object, ...], object] = field(default_factory=dict)

    @functools.cached_property
    def env(self) -> jinja2.Environment:
        """The templates, made when the first page is drawn (pages share them, as before)."""
        return templates()

    @property
    def hosts(self) -> frozenset[str]:
        """The Host values (and so the Origins) that are this server's own."""
        return own_hosts(self.port)

    def remembered(self, log: EventLog, key: tuple[object, ...], make: Callable[[], T]) -> T:
        """A fold kept until the log grows (it is append-only: the same length, the same fold)."""
        full = (*key, log.last_seq())
        if full not in self.memo:
            if len(self.memo) > MEMO_MAX:
                self.memo.clear()
            self.memo[full] = make()
        return cast(T, self.memo[full])

    def page(self, name: str, status: int = 200, **context: object) -> HTMLResponse:
        """The template ``name`` rendered with ``context``."""
        return HTMLResponse(self.env.get_template(name).render(**context), status_code=status)

    def guarded(self, read: Callable[[EventLog], HTMLResponse]) -> HTMLResponse:
        """A page read from the log; a Polygon error (an unknown id) is a 404 page naming it."""
        try:
            with self.log.reading() as log:
                return read(log)
        except PolygonError as exc:
            return self.page("error.html", status=404, message=str(exc))


def site_of(request: Request) -> Site:
    """The server's state, as :func:`make_app` left it on the app."""
    return cast(Site, request.app.state.site)
