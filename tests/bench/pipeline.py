"""The whole pipeline in one process: scripted caller, noise, a trivial Python agent, stub
tools and the durable LMDB log, with simulation timed apart from scoring and probing.

An exchange is one caller turn and the agent's answer to it, counted once (the agent turns
in the log).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from polygon.app.run import RunOptions, run_suite
from polygon.events import LmdbLog
from polygon.events.families import TurnSpoken
from polygon.simulate.agents import AgentReply, AgentStep
from polygon.suite.loading import LoadedSuite
from polygon.suite.schema import Suite

_TURN_SPOKEN = TurnSpoken.__struct_config__.tag


class Trivial:
    """Answers every step with a different short line (so loop detection never fires)."""

    def step(self, req: AgentStep) -> AgentReply:
        return AgentReply(reply=f"Noted, item {req.turn}. What else?")


def make(prompt: str = "", params: dict[str, Any] | None = None) -> Trivial:
    return Trivial()


def suite(conversations: int, turns: int) -> LoadedSuite:
    personas = [
        {
            "id": f"p{i}",
            "type": "cooperative" if i % 2 else "chatty",
            "outcome": "success",
            "difficulty": 1,
            "goal": "book a cleaning",
            "facts": {"name": "Ana Kovac", "phone": "091 555 0134", "preferred_day": "Friday"},
        }
        for i in range(conversations)
    ]
    data = {
        "name": "bench",
        "seed": 1,
        "max_turns": turns,
        "configs": {"t": {"agent": "python:tests.bench.pipeline:make"}},
        "noise": {"intensity": 0.3},
        # v1, as before the default moved to the newest gating rubric: the figures stay comparable
        "judge": {"model": "scripted/heuristic", "rubric": "v1"},
        "personas": personas,
    }
    return LoadedSuite(
        path=Path("bench.yaml"),
        suite=Suite.model_validate(data),
        prompts={"t": ""},
        suite_hash="bench",
    )


@dataclass(frozen=True)
class Pipeline:
    """One run's figures."""

    calls: int
    exchanges: int
    simulate_s: float
    whole_s: float
    events: int
    """Events the run committed to its log."""
    main_cpu_s: float = 0.0
    """CPU seconds of the run's own thread (simulation, checks, judge, probes, handing over)."""
    cpu_s: float = 0.0
    """CPU seconds of the whole process during the run (the main thread, the log's writer thread)."""
    scoring_cpu_s: float = 0.0
    """CPU seconds of the scoring process (a run scores beside its simulation on a second core)."""

    @property
    def main_ms_per_call(self) -> float:
        """The run thread's CPU per call: the figure callgrind's instruction counts track."""
        return 1000 * self.main_cpu_s / self.calls

    @property
    def writer_ms_per_call(self) -> float:
        """CPU per call of the other threads (the group writer): what the main thread waits on."""
        return 1000 * (self.cpu_s - self.main_cpu_s) / self.calls

    @property
    def scoring_ms_per_call(self) -> float:
        """CPU per call of the scoring process (0 when the run scored after its simulation)."""
        return 1000 * self.scoring_cpu_s / self.calls

    @property
    def exchanges_per_s(self) -> float:
        """Simulation alone."""
        return self.exchanges / self.simulate_s

    @property
    def calls_per_s(self) -> float:
        """Simulation, checks, judge and probes: the whole ``polygon run``."""
        return self.calls / self.whole_s

    @property
    def events_per_s(self) -> float:
        """Events committed per second of the whole run (issue 31 holds it to the writer's)."""
        return self.events / self.whole_s


def measure(conversations: int = 300, turns: int = 10) -> Pipeline:
    """Run ``conversations`` calls of up to ``turns`` exchanges; time the phases."""
    loaded = suite(conversations, turns)
    marks: dict[str, float] = {}

    def simulated(done: int, total: int) -> None:
        if done == total:
            marks.setdefault("simulated", time.perf_counter())

    with tempfile.TemporaryDirectory() as tmp, LmdbLog(Path(tmp) / "log", map_size=1 << 30) as log:
        t0, main0, cpu0 = time.perf_counter(), time.thread_time(), time.process_time()
        children0 = _children_cpu_s()
        run_suite(loaded, log, RunOptions(run_id="bench", concurrency=32), now=lambda: "", progress=simulated)
        end, main_cpu, cpu = time.perf_counter(), time.thread_time() - main0, time.process_time() - cpu0
        scoring_cpu = _children_cpu_s() - children0
        # Counted back from the log in small pages: Inspect AI's side counts as it goes, and
        # reading 4,096 decoded events a page (read_all's default) was ~9 MB of this side's peak.
        exchanges = sum(
            1
            for env in log.read_all(tags=(_TURN_SPOKEN,), page_size=128)
            if isinstance(env.payload, TurnSpoken) and env.payload.speaker == "agent"
        )
        events = log.last_seq()
    return Pipeline(
        conversations, exchanges, marks["simulated"] - t0, end - t0, events, main_cpu, cpu, scoring_cpu
    )


def _children_cpu_s() -> float:
    """CPU seconds of the processes this one has waited for (the run's scoring process)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
