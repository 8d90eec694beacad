"""The prompt editor (``/prompt``): a suite's prompt, read as it is typed, saved as a new file.

The two requests that do work (``/api/lint``, ``/prompt/save``) must come from this page:
its token and our Origin, the right content type, a capped body.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import anyio
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from polygon.errors import PolygonError, UserInputError
from polygon.web.forms import Refused, capped_body, lint_request, media_type, same_origin, save_form
from polygon.web.site import Site, site_of

LINT_MAX_BYTES = 64 * 1024
"""Largest lint request (the editor's drafts are a few KB; beyond this: 413)."""
LINT_SECONDS = 20.0
"""Time budget of one lint request; past it the answer is 503 (the reading is abandoned)."""
SAVE_MAX_BYTES = 1024 * 1024
"""Largest prompt save (the form, URL-encoded)."""

# The editor imports its use cases (the suite's pydantic models, the lint tiers) when it is
# first asked for: `polygon serve` listens without them.


def prompt(request: Request) -> HTMLResponse:
    """The editor over one configuration's prompt of one of the server's suites."""
    from polygon.app import suite_targets
    from polygon.suite import load_suite

    site = site_of(request)
    chosen = request.query_params.get("suite", "")
    if not site.editable:
        return site.page(
            "prompt.html", suites=[], loaded=None, targets=[], chosen="", config="", text="", token=site.token
        )
    suite_path = _editable(site.editable, chosen) if chosen else site.editable[0]
    if suite_path is None:
        message = f"{chosen!r:.200}: not a suite this server was started with (--suite)"
        return site.page("error.html", status=404, message=message)
    try:
        loaded = load_suite(suite_path, personas_optional=True)
    except PolygonError as exc:
        return site.page("error.html", status=400, message=str(exc))
    found = suite_targets(loaded)
    config = request.query_params.get("config") or (found[0].name if found else "")
    text = next((t.text for t in found if t.name == config), "")
    return site.page(
        "prompt.html",
        suites=site.editable,
        loaded=loaded,
        targets=found,
        chosen=str(suite_path),
        config=config,
        text=text,
        token=site.token,
    )


async def lint_api(request: Request) -> JSONResponse:
    """The lint tiers' reading of a draft, as JSON (one reading at a time, within a budget)."""
    site = site_of(request)
    try:
        same_origin(request, site.hosts, site.token, request.headers.get("x-polygon-token"))
        if media_type(request) != "application/json":
            raise Refused(415, "expected Content-Type: application/json")
        text, tiers = lint_request(await capped_body(request, LINT_MAX_BYTES))
        if not text.strip():
            return JSONResponse({"scores": {}, "marks": [], "skipped": {}})
        # One reading at a time, ever: a reading past its budget is abandoned (a thread
        # cannot be stopped) but holds the lock until it ends, so none piles up beside it.
        with anyio.fail_after(LINT_SECONDS):
            result = await anyio.to_thread.run_sync(
                _read_draft, site, text, tiers, abandon_on_cancel=True, limiter=site.lint_slot
            )
        if result is None:
            raise Refused(503, "another reading is still running; try again in a moment")
    except Refused as exc:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)
    except TimeoutError:
        message = f"the reading took longer than {LINT_SECONDS:.0f} s; try a shorter prompt"
        return JSONResponse({"error": message}, status_code=503)
    return JSONResponse(result)


async def save(request: Request) -> Response:
    """Save the editor's text as a new file beside its suite, then back to the editor."""
    site = site_of(request)
    try:
        if media_type(request) != "application/x-www-form-urlencoded":
            raise Refused(415, "expected the editor's form (application/x-www-form-urlencoded)")
        form = save_form(await capped_body(request, SAVE_MAX_BYTES))
        same_origin(request, site.hosts, site.token, form.get("token"))
        suite_path = _editable(site.editable, form.get("suite", ""))
        if suite_path is None:
            raise Refused(403, "refused: not a suite this server was started with")
        from polygon.app import save_prompt

        try:
            target = save_prompt(suite_path, form.get("filename", "").strip(), form.get("text", ""))
        except UserInputError as exc:
            raise Refused(400, str(exc)) from None
    except Refused as exc:
        return site.page("error.html", status=exc.status, message=str(exc))
    query = urlencode({"suite": str(suite_path), "saved": target.name})
    return RedirectResponse(f"/prompt?{query}", status_code=303)


def _read_draft(site: Site, text: str, tiers: tuple[str, ...]) -> dict[str, Any] | None:
    """A reading, or None while another (perhaps one abandoned past its budget) still runs.

    It runs in a worker thread, never on the event loop.
    """
    from polygon.app import lint_draft

    if not site.reading_now.acquire(blocking=False):
        return None
    try:
        return lint_draft(text, tiers)
    finally:
        site.reading_now.release()


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


ROUTES = [
    Route("/prompt", prompt),
    Route("/api/lint", lint_api, methods=["POST"]),
    Route("/prompt/save", save, methods=["POST"]),
]
