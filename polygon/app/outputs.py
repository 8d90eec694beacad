"""The bytes a view command writes (``report``, ``compare``): saved ones when they still fit.

Only what a saved view needs is imported up front (the log, the store): a view served from
its saved output folds nothing and loads neither the projections' numeric libraries nor the
renderers. On a miss, the view is made by its use case and saved (:mod:`.views`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from polygon.app.views import ViewKey, saved_view, saving
from polygon.events import EventLog, labels_stream, lint_stream

if TYPE_CHECKING:
    from polygon.projections import Comparison
    from polygon.render import Enforcement


def report_output(
    log: EventLog,
    run_id: str,
    fmt: str,
    *,
    rubric: str | None = None,
    pass_id: str | None = None,
    judge: str | None = None,
    asked: Enforcement,
) -> tuple[Iterator[bytes], list[str]]:
    """The report's bytes (UTF-8, in pieces: consume them while the log is open), and why not met.

    The reasons are why the run misses what ``asked`` enforces. Both come from the view
    saved by an earlier report when nothing of the run is new (:mod:`.views`); otherwise
    the report is rendered by :func:`report_run` and saved for the next.
    """
    key = ViewKey(
        "report",
        (run_id,),
        (
            ("format", fmt),
            ("rubric", rubric or ""),
            ("pass", pass_id or ""),
            ("judge", judge or ""),
            ("fail-on", asked.fail_on or ""),
            ("min-pass-rate", repr(asked.min_pass_rate)),
            ("allow-inconclusive", str(asked.allow_inconclusive)),
            ("allow-simulator-errors", str(asked.allow_simulator_errors)),
        ),
    )
    found = saved_view(log, key)
    if found is not None:
        return found
    from polygon.app.report import report_run
    from polygon.render import enforce

    position = log.last_seq()  # before the fold: what is appended meanwhile makes it stale
    report, chunks = report_run(log, run_id, fmt, rubric=rubric, pass_id=pass_id, judge=judge)
    reasons = enforce(report, asked)
    return saving(log, key, position, (c.encode() for c in chunks), reasons), reasons


def compare_output(
    log: EventLog,
    run_ids: Sequence[str],
    fmt: str,
    *,
    rubric: str | None = None,
    configs: Sequence[str] = (),
    allow_mixed: bool = False,
) -> Iterator[bytes]:
    """The comparison's bytes (UTF-8) in ``fmt`` (text, json or markdown), as ``compare`` writes them.

    Written from the view saved by an earlier comparison when nothing of the runs (or of
    the prompt lints it shows) is new (:mod:`.views`); otherwise compared and saved.
    """
    key = ViewKey(
        "compare",
        tuple(run_ids),
        (
            ("format", fmt),
            ("rubric", rubric or ""),
            ("configs", "\x1f".join(configs)),
            ("allow-mixed", str(allow_mixed)),
        ),
        also=(lint_stream(""),),  # the prompt lints it shows
    )
    found = saved_view(log, key)
    if found is not None:
        return found[0]
    from polygon.app.compare import compare_runs

    position = log.last_seq()  # before the fold: what is appended meanwhile makes it stale
    result = compare_runs(log, run_ids, rubric=rubric, configs=configs, allow_mixed=allow_mixed)
    return saving(log, key, position, [_compared_text(result, fmt).encode()], [])


def _compared_text(result: Comparison, fmt: str) -> str:
    from polygon.render import comparison_json, comparison_lines, comparison_markdown

    if fmt == "json":
        return comparison_json(result)
    if fmt == "markdown":
        return comparison_markdown(result)
    return "".join(f"{line}\n" for line in comparison_lines(result))


def page_output(
    log: EventLog, run_id: str, page: str, inputs: tuple[tuple[str, str], ...], make: Callable[[], str]
) -> bytes:
    """A web page of one run (``page``: its name) as UTF-8, saved like a view under ``inputs``.

    ``inputs`` names everything of the request and the server the page depends on; it is
    stale when the run, its calls or its labels (calibration) have new events. A page that
    cannot be made (``make`` raises) is never saved.
    """
    key = ViewKey(f"page:{page}", (run_id,), inputs, also=(labels_stream(run_id),))
    found = saved_view(log, key)
    if found is not None:
        return b"".join(found[0])
    position = log.last_seq()  # before the page is made: what is appended meanwhile makes it stale
    return b"".join(saving(log, key, position, [make().encode()], [], text=False))
