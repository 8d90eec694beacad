"""``polygon demo``: a bundled example, offline, end to end (the clinic, or the pizza line)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from polygon.app.compare import compare_runs
from polygon.app.progress import Progress
from polygon.app.queries import load_run
from polygon.app.run import RunOptions, run_suite
from polygon.errors import UserInputError
from polygon.events import EventLog, run_conversations
from polygon.projections import Comparison, RunOverview, RunReport, build_overview, make_report
from polygon.render import comparison_lines
from polygon.suite import load_suite
from polygon.texttable import LEFT, RIGHT, table


@dataclass(frozen=True)
class DemoResult:
    """What the demo ran and found."""

    run_id: str
    example: str
    seconds: float
    overview: RunOverview
    report: RunReport
    comparison: Comparison


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
    return DemoResult(summary.run_id, example, seconds, overview, report, comparison)


def demo_lines(result: DemoResult, log_path: Path) -> Iterator[str]:
    """The demo's report, for people."""
    yield f"Polygon demo — {EXAMPLES[result.example]}"
    yield "Callers: scripted/caller, a deterministic offline baseline (not a model)."
    total = sum(c.conversations for c in result.overview.configs.values())
    yield f"Run {result.run_id}: {total} simulated calls in {result.seconds:.1f} s"
    yield f"Log: {log_path}/"
    yield ""
    reasons = sorted({r for c in result.overview.configs.values() for r in c.end_reasons})
    columns = [
        ("config", LEFT),
        ("calls", RIGHT),
        ("turns", RIGHT),
        *((r, RIGHT) for r in reasons),
        ("bad tool args", RIGHT),
        ("tool faults", RIGHT),
    ]
    yield from table(
        columns,
        (
            [
                cfg.config,
                cfg.conversations,
                cfg.turns,
                *(cfg.end_reasons.get(r, 0) for r in reasons),
                cfg.invalid_tool_calls,
                cfg.tool_faults,
            ]
            for cfg in result.overview.configs.values()
        ),
    )
    yield ""
    yield from comparison_lines(result.comparison, top=5)
    loops = [c for cfg in result.overview.configs.values() for c in cfg.loops]
    failed = [r for r in result.report.conversations if r.verdict and r.verdict.verdict == "fail"]
    yield ""
    yield "Next (after `make demo` the command is .venv/bin/polygon, or `source .venv/bin/activate`):"
    if loops:
        yield f"  polygon replay {loops[0]} --step      # a looping call, turn by turn"
    if failed:
        yield f"  polygon explain {failed[0].record.conversation_id}   # every point of its verdict"
    yield f"  polygon report {result.run_id} --format junit   # or json, html"
    rubric = result.report.rubric_version
    again = "v3" if rubric == "v2" else "v2"
    yield f"  polygon judge {result.run_id} --rubric {again}       # appended; {rubric} reports stay"
    yield f"  polygon compare {result.run_id} --json"
    yield "  polygon serve                           # the comparison, replays and explain in a browser"
    suite = example_suite_path(result.example)
    yield f"  polygon lint {suite}   # both prompts read before any call: five axes, marked spans"
    fragile = suite.parent / "prompt_fragile.md"
    if fragile.exists():
        yield f"  polygon lint {fragile}   # one planted defect per axis"
    for other in (name for name in EXAMPLES if name != result.example):
        yield f"  polygon demo --example {other}   # {EXAMPLES[other].split(':')[0]}"
