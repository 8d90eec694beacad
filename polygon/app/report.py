"""Report use cases: fold a run from the log, hand the projections what they need."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from polygon.errors import UnknownIdError
from polygon.events import Envelope, EventLog
from polygon.events.families import ConversationStarted
from polygon.events.streams import conversation_stream, run_conversations, run_stream
from polygon.projections.report import RunReport, state_of
from polygon.projections.verdicts import RunRecord, build


def run_events(log: EventLog, run_id: str) -> Iterator[Envelope]:
    """The run stream, then every conversation stream of the run, in name order."""
    if not log.stream_length(run_stream(run_id)):
        raise UnknownIdError(f"no run {run_id!r} in the log")
    yield from log.read_stream(run_stream(run_id))
    for stream in log.streams(run_conversations(run_id)):
        yield from log.read_stream(stream)


def load_run(log: EventLog, run_id: str) -> RunRecord:
    """The verdicts projection of a run."""
    return build(run_id, run_events(log, run_id))


def run_of(log: EventLog, conversation_id: str) -> str:
    """The run a conversation belongs to."""
    for env in log.read_stream(conversation_stream(conversation_id)):
        if isinstance(env.payload, ConversationStarted):
            return env.payload.run_id
    raise UnknownIdError(f"no conversation {conversation_id!r} in the log")


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
    states = Counter(state_of(r) for r in report.conversations)
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
