"""The one Jinja environment: the HTML report's templates and the web UI's pages.

Both load from here so they can share partials (``report/tables.html``). Importing this
module imports jinja2, so the renderers import it inside the function that renders: ``polygon
--help`` must not pay for Jinja (tests/cli/test_startup.py).
"""

from __future__ import annotations

from typing import Any

import jinja2
import markupsafe

from polygon.visible import visible


def environment(*packages: str) -> jinja2.Environment:
    """Templates autoescaped, an unknown name an error (never blank), ``reasons(row)`` at hand.

    Looked up in the ``templates/`` folder of each of ``packages`` first (the web UI passes
    ``polygon.web`` for its pages), then in this package's (the report and its tables).
    """
    from polygon.render.phrases import verdict_reasons

    folders = [*packages, __package__ or "polygon.render"]
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.PackageLoader(p, "templates") for p in folders]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        finalize=_shown,
    )
    # the sentences a template shows come from the renderers, never from a projection
    env.globals["reasons"] = verdict_reasons
    env.filters["as_written"] = as_written
    return env


def _shown(value: Any) -> Any:
    """Every text a template prints, its control characters as escapes (:mod:`polygon.visible`).

    Escaped HTML is already harmless, but a U+202E from an agent still reorders what a reader
    sees, and a CR or ESC is invisible: pages show them as the terminal outputs do. Markup
    (a macro's output, an ``as_written`` value, an SVG) passes as it is.
    """
    return visible(value) if type(value) is str else value  # a Markup is a str subclass


def as_written(value: object) -> markupsafe.Markup:
    """``value`` HTML-escaped but otherwise as written.

    For a form's value (a path, a name, a prompt being edited): it goes back to the server
    and must name the same thing.
    """
    return markupsafe.escape(str(value))


def quotes_as_ever(page: str) -> str:
    """Quotes spelled as :func:`html.escape` spells them, as the HTML pages always have (same DOM).

    For the report and the leaderboard, whose bytes predate the templates. Autoescape writes
    ``'`` and ``"`` in values as ``&#39;`` and ``&#34;``; the templates hold neither spelling,
    and an ``&`` in a value is escaped itself, so each one found is an escaped quote.
    """
    return page.replace("&#39;", "&#x27;").replace("&#34;", "&quot;")
