"""``polygon demo``'s report: what the bundled example ran and found, and what to try next."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from polygon.projections import Comparison, RunOverview, RunReport
from polygon.render.compare import comparison_lines
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
    suite: Path
    """The example's suite file (package data)."""
    examples: Mapping[str, str]
    """Every bundled example: name → what its demo compares (the others are suggested next)."""


def demo_lines(result: DemoResult, log_path: Path) -> Iterator[str]:
    """The demo's report, for people."""
    yield f"Polygon demo — {result.examples[result.example]}"
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
    suite = result.suite
    yield f"  polygon lint {suite}   # both prompts read before any call: five axes, marked spans"
    fragile = suite.parent / "prompt_fragile.md"
    if fragile.exists():
        yield f"  polygon lint {fragile}   # one planted defect per axis"
    for other in (name for name in result.examples if name != result.example):
        yield f"  polygon demo --example {other}   # {result.examples[other].split(':')[0]}"
