"""``polygon demo``: a bundled example, offline, end to end (the clinic, or the pizza line)."""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from polygon.app.compare import compare_runs
from polygon.app.progress import Progress
from polygon.app.queries import load_run
from polygon.app.run import RunOptions, run_suite
from polygon.errors import UserInputError
from polygon.events import EventLog, run_conversations
from polygon.projections import build_overview, make_report
from polygon.render import DemoResult
from polygon.suite import load_suite

EXAMPLES = {
    "clinic": "Smile Dental receptionist: v1 (careful) against v2 (with regressions)",
    "pizza": "Pizza Roma order line: v1 (careful) against v2 (hurried, with regressions)",
    "pizzeria": "Pizzeria Roma, Zagreb, in Croatian: v1 (careful) against v2 (hurried, with regressions)",
}
"""The bundled examples: name → what the demo compares."""


def example_suite_path(name: str) -> Path:
    """A bundled example's suite (package data)."""
    if name not in EXAMPLES:
        raise UserInputError(f"no bundled example {name!r} (have: {', '.join(EXAMPLES)})")
    return Path(str(resources.files(f"polygon.examples.{name}").joinpath("suite.yaml")))


def run_demo(
    log: EventLog, *, now: Callable[[], str], progress: Progress, example: str = "clinic"
) -> DemoResult:
    """Run both versions of an example against every caller with the scripted backends."""
    loaded = load_suite(example_suite_path(example))
    started = time.perf_counter()
    summary = run_suite(loaded, log, RunOptions(concurrency=8), now=now, progress=progress)
    seconds = time.perf_counter() - started
    streams = [s for s in log.streams(run_conversations(summary.run_id))]
    overview = build_overview(summary.run_id, (env for s in streams for env in log.read_stream(s)))
    report = make_report(load_run(log, summary.run_id), None)
    comparison = compare_runs(log, [summary.run_id])
    return DemoResult(
        summary.run_id, example, seconds, overview, report, comparison, example_suite_path(example), EXAMPLES
    )
