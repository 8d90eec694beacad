"""The ASGI app: the pages' routes over one :class:`Site`, inside the :class:`Guard`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from polygon.app import fingerprint
from polygon.web.guard import Guard
from polygon.web.pages import ROUTES
from polygon.web.site import PER_PAGE, SharedLog, Site

DEFAULT_PORT = 8765


def make_app(
    log_path: Path, suites: list[Path] | None = None, *, port: int = DEFAULT_PORT, per_page: int = PER_PAGE
) -> ASGIApp:
    """The web UI over the log at ``log_path``, served on 127.0.0.1:``port``.

    ``suites`` may be edited in the prompt editor; a report page lists ``per_page`` calls.
    The code's fingerprint is taken now: the saved views a long-running server writes are
    of the code it runs, even if the files on disk are upgraded under it.
    """
    fingerprint()
    site = Site(
        log=SharedLog(log_path), port=port, editable=[p.resolve() for p in suites or []], per_page=per_page
    )
    static = StaticFiles(directory=str(files("polygon.web").joinpath("static")))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        site.log.close()

    app = Starlette(routes=[*ROUTES, Mount("/static", static, name="static")], lifespan=lifespan)
    app.state.site = site
    return Guard(app, port)
