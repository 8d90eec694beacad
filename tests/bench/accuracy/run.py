"""Verdict accuracy across domains no bundled example uses (issue 32).

Each domain is a suite (``<domain>/suite.yaml``) with a correct agent and one version per
bug (:mod:`tests.bench.accuracy.line`), every caller type and three trials, run offline
with the scripted caller and judge. Each call's truth comes from its own events
(:mod:`tests.bench.accuracy.truth`) and is held against Polygon's verdict:

* a bug present in the trace → the verdict must be ``fail`` or ``error`` (else a *false pass*);
* a clean call → the verdict must not be ``fail`` (else a *false fail*);
* a call where the simulated caller broke → the verdict must be ``simulator_error``.

``python -m tests.bench.accuracy.run`` prints the table (``make bench`` prints it too).
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from polygon.app.queries import load_run
from polygon.app.run import RunOptions, run_suite
from polygon.events import MemoryLog
from polygon.events.streams import conversation_stream
from polygon.projections.report import make_report
from polygon.suite.loading import load_suite
from polygon.transcript import build
from tests.bench.accuracy.line import Line
from tests.bench.accuracy.truth import Truth, truth

HERE = Path(__file__).parent
DOMAINS = ("insurance", "outage", "hotel", "pharmacy")
"""English, Croatian, English, Russian."""


@dataclass(frozen=True)
class Call:
    """One call: its config, persona, Polygon's verdict and the truth."""

    conversation_id: str
    config: str
    scenario: str
    verdict: str
    truth: Truth

    @property
    def grade(self) -> str:
        """right, false_pass, false_fail, missed_simulator or wrong_state."""
        v = self.verdict
        if self.truth.bugs:
            return "right" if v in ("fail", "error") else "false_pass"
        if self.truth.caller_broke:
            return "right" if v == "simulator_error" else "missed_simulator"
        if v == "fail":
            return "false_fail"
        return "right" if v in ("pass", "warn") else "wrong_state"


@dataclass
class Reading:
    """One domain's tally."""

    domain: str
    calls: list[Call] = field(default_factory=list)

    @property
    def counts(self) -> Counter[str]:
        c = Counter(call.grade for call in self.calls)
        c["simulator_error"] = sum(1 for call in self.calls if call.verdict == "simulator_error")
        c["calls"] = len(self.calls)
        return c


def domain_line(domain: str) -> Line:
    module = importlib.import_module(f"tests.bench.accuracy.{domain}.agents")
    line = module.LINE
    assert isinstance(line, Line)
    return line


def measure(domain: str, configs: Sequence[str] = ()) -> Reading:
    """Run one domain's suite (all configs, or those named) and grade every call."""
    loaded = load_suite(HERE / domain / "suite.yaml")
    line = domain_line(domain)
    log = MemoryLog()
    summary = run_suite(
        loaded, log, RunOptions(run_id=f"bench-{domain}", configs=tuple(configs), concurrency=4), now=lambda: ""
    )
    report = make_report(load_run(log, summary.run_id), None)
    reading = Reading(domain)
    for row in report.conversations:
        rec = row.record
        view = build(rec.conversation_id, log.read_stream(conversation_stream(rec.conversation_id)))
        verdict = row.verdict.verdict if row.verdict else "unjudged"
        reading.calls.append(Call(rec.conversation_id, rec.config, rec.scenario, verdict, truth(view, line)))
    return reading


COLUMNS = ("calls", "right", "false_pass", "false_fail", "simulator_error", "missed_simulator", "wrong_state")


def table(readings: Sequence[Reading]) -> str:
    """The per-domain table, and the total."""
    head = f"{'domain':<11}" + "".join(f"{c:>17}" for c in COLUMNS)
    rows = [head]
    total: Counter[str] = Counter()
    for r in readings:
        c = r.counts
        total.update(c)
        rows.append(f"{r.domain:<11}" + "".join(f"{c[k]:>17}" for k in COLUMNS))
    rows.append(f"{'all':<11}" + "".join(f"{total[k]:>17}" for k in COLUMNS))
    n = max(total["calls"], 1)
    rows.append(
        f"false passes {total['false_pass']} · false fails {100 * total['false_fail'] / n:.1f}% (goal ≤ 2%) · "
        f"simulator_error {100 * total['simulator_error'] / n:.1f}% (goal < 2%)"
    )
    return "\n".join(rows)


def misses(readings: Sequence[Reading], limit: int = 40) -> list[str]:
    """The wrong calls, one line each (for tuning)."""
    out = []
    for r in readings:
        for call in r.calls:
            if call.grade != "right":
                why = ", ".join(call.truth.bugs or call.truth.caller_broke) or "clean"
                out.append(f"{call.grade:<17} {call.verdict:<16} {call.conversation_id}  [{why}]")
    return out[:limit]


def main(argv: Sequence[str] = ()) -> None:
    readings = [measure(d) for d in DOMAINS]
    print("Verdict accuracy (scripted caller and judge, offline)")
    print(table(readings), flush=True)
    if "-v" in argv:
        print("\n".join(misses(readings, 400)))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
