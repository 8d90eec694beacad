"""The one Jinja environment: the HTML report's templates and the web UI's pages.

Both load from here so they can share partials (``report/tables.html``). Importing this
module imports jinja2, so the renderers import it inside the function that renders: ``polygon
--help`` must not pay for Jinja (tests/cli/test_startup.py).
"""

from __future__ import annotations

import jinja2


def environment(*packages: str) -> jinja2.Environment:
    """Templates autoescaped, an unknown name an error (never blank).

    Looked up in the ``templates/`` folder of each of ``packages`` first (the web UI passes
    ``polygon.web`` for its pages), then in this package's (the report and its tables).
    """
    folders = [*packages, __package__ or "polygon.render"]
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.PackageLoader(p, "templates") for p in folders]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
