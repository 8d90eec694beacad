"""``polygon serve``: the local web UI over the log (read-only, but for saving a prompt).

Starlette on uvicorn, bound to 127.0.0.1; Jinja2 templates with autoescape; charts drawn as
SVG on the server; one small script of our own (no CDN: it works offline); a strict
Content-Security-Policy with no inline script. Every number a page shows comes from the
same use cases and projections as the CLI's ``--json`` (the browser tests compare them).

Inside: ``server`` assembles the app, ``guard`` is its outermost layer (Host, headers),
``site`` the state every page shares (on ``app.state``), ``forms`` the checks on requests
that change or cost something, ``pages/`` one module per page.
"""

from polygon.web.pages.prompt import LINT_MAX_BYTES, SAVE_MAX_BYTES
from polygon.web.server import DEFAULT_PORT, make_app
from polygon.web.site import PER_PAGE

__all__ = [
    "DEFAULT_PORT",
    "LINT_MAX_BYTES",
    "PER_PAGE",
    "SAVE_MAX_BYTES",
    "make_app",
]
