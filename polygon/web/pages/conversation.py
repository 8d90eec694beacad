"""One call: its replay (``/replay/<id>``) and why it got its verdict (``/explain/<id>``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from polygon.events import EventLog, families
from polygon.web.site import site_of

# Each page imports its use cases when it is first asked for (`polygon serve` listens
# without them).


def replay(request: Request) -> HTMLResponse:
    """The call turn by turn: what the caller said, what the agent heard, what it answered."""
    site = site_of(request)

    def read(log: EventLog) -> HTMLResponse:
        from polygon.app import load_conversation, resolve_conversation

        view = load_conversation(log, resolve_conversation(log, request.path_params["cid"]))
        return site.page("replay.html", view=view, marked=marked)

    return site.guarded(read)


def explain(request: Request) -> HTMLResponse:
    """The call's verdict and every reason for it, under a rubric (the run's own by default)."""
    site = site_of(request)

    def read(log: EventLog) -> HTMLResponse:
        from polygon.app import explain_conversation, resolve_conversation

        cid = resolve_conversation(log, request.path_params["cid"])
        e = explain_conversation(log, cid, request.query_params.get("rubric"))
        return site.page("explain.html", e=e, cid=cid)

    return site.guarded(read)


def marked(heard: str | None, ops: list[families.NoiseOp]) -> list[tuple[str, bool]]:
    """The heard text as (word, distorted) pieces: the words a noise operation put there."""
    if heard is None:
        return []
    changed = {w for op in ops for w in str(op.after).split()}
    return [(w, w in changed) for w in heard.split()]


ROUTES = [Route("/replay/{cid:path}", replay), Route("/explain/{cid:path}", explain)]
