"""The comparison of runs or configurations (``/compare``) and two calls side by side (``/pair``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from polygon.events import EventLog, conversation_id
from polygon.web.site import Site, site_of

# Each page imports its use cases when it is first asked for: `polygon serve` listens
# without them, and a comparison's (numpy, the lint projection) is paid only by a server
# that is asked for one.


def compare(request: Request) -> HTMLResponse:
    """The scorecard of the runs asked for (``?run=…`` repeated), or the page to pick them."""
    site = site_of(request)
    return site.guarded(lambda log: _comparison(site, log, request))


def _comparison(site: Site, log: EventLog, request: Request) -> HTMLResponse:
    from polygon.app import compare_runs, list_runs, resolve_run
    from polygon.render import comparison_analysis, comparison_judge, mixed_setting_line

    refs = request.query_params.getlist("run")
    if not refs:
        return site.page("compare_pick.html", rows=list_runs(log))
    runs = [resolve_run(log, r) for r in refs]
    rubric, configs = request.query_params.get("rubric"), request.query_params.getlist("config")
    key = ("compare", *runs, rubric, *configs)
    c = site.remembered(log, key, lambda: compare_runs(log, runs, rubric=rubric, configs=configs))
    side = {s.label: s for s in c.sides}

    def first_trial(label: str, scenario: str) -> str:
        return conversation_id(side[label].run_id, side[label].config, scenario, 0)

    # each diverging scenario links its first trial on either side
    pairs = {d.scenario: (first_trial(d.a, d.scenario), first_trial(d.b, d.scenario)) for d in c.divergences}
    # every sentence comes from the render layer, as on the command line
    return site.page(
        "compare.html",
        c=c,
        judge=comparison_judge(c),
        mixed=[mixed_setting_line(m) for m in c.mixed],
        analysis=comparison_analysis(c),
        runs=runs,
        pairs=pairs,
        labels=[s.label for s in c.sides],
    )


def pair(request: Request) -> HTMLResponse:
    """Calls ``?a=…`` and ``?b=…`` turn by turn, with the point where they part."""
    site = site_of(request)

    def read(log: EventLog) -> HTMLResponse:
        from polygon.app import divergence_between, load_conversation, resolve_conversation

        a = resolve_conversation(log, request.query_params.get("a", ""))
        b = resolve_conversation(log, request.query_params.get("b", ""))
        split = divergence_between(log, a, b)
        va, vb = load_conversation(log, a), load_conversation(log, b)
        turns = sorted({t.turn for t in va.turns} | {t.turn for t in vb.turns})
        by_a, by_b = {t.turn: t for t in va.turns}, {t.turn: t for t in vb.turns}
        rows = [(n, by_a.get(n), by_b.get(n)) for n in turns]
        return site.page("pair.html", a=a, b=b, split=split, rows=rows)

    return site.guarded(read)


ROUTES = [Route("/compare", compare), Route("/pair", pair)]
