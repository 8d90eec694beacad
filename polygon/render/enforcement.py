"""CI enforcement: whether a run meets what ``--fail-on`` and ``--min-pass-rate`` ask.

Read from the report projection like every other output: what it writes is the lines a CI
shows before exiting 1.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

# The report projection loads when a run is enforced, not when ``run`` builds what was asked of
# it (every run does, most enforce nothing: ~0.006 CPU s).
from polygon import projections as _projections

if TYPE_CHECKING:
    from polygon.projections import RunReport


@dataclass(frozen=True)
class Enforcement:
    """What a CI asked of a run: ``--fail-on``, ``--min-pass-rate`` and what it allows."""

    fail_on: str | None = None
    """``fail`` (fail, error or unjudged) or ``warn`` (also warn), per call."""
    min_pass_rate: float | None = None
    """Per (configuration, scenario) over its trials: the share of trials that passed."""
    allow_inconclusive: bool = False
    allow_simulator_errors: bool = False

    @property
    def active(self) -> bool:
        """Whether anything is enforced at all (otherwise a run never exits 1 on verdicts)."""
        return self.fail_on is not None or self.min_pass_rate is not None


def enforce(report: RunReport, policy: Enforcement) -> list[str]:
    """Why the run misses what was asked (one line each); empty when it meets it."""
    if not policy.active:
        return []
    states = Counter(_projections.state_of(r) for r in report.conversations)
    bad = {"fail", "error", "unjudged"} | ({"warn"} if policy.fail_on == "warn" else set())
    out = []
    if policy.fail_on is not None and any(states[s] for s in bad):
        out.append(_counted(states, sorted(bad)) + f" (--fail-on {policy.fail_on})")
    if policy.min_pass_rate is not None:
        low = [s for s in report.scenarios if s.pass_rate is not None and s.pass_rate < policy.min_pass_rate]
        out += [
            f"{s.config}/{s.scenario}: pass rate {s.pass_rate:.0%} over {s.trials} trials "
            f"< {policy.min_pass_rate:.0%} (--min-pass-rate)"
            for s in low
            if s.pass_rate is not None
        ]
    if states["inconclusive"] and not policy.allow_inconclusive:
        out.append(f"{states['inconclusive']} inconclusive call(s) (allow with --allow-inconclusive)")
    if states["simulator_error"] and not policy.allow_simulator_errors:
        out.append(
            f"{states['simulator_error']} simulator error(s), not the agent's fault "
            "(allow with --allow-simulator-errors)"
        )
    return out


def _counted(states: Counter[str], which: list[str]) -> str:
    return ", ".join(f"{states[s]} {s}" for s in which if states[s])
