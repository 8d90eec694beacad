"""Simulated turns per second for the whole pipeline: scripted caller, noise, a trivial
Python agent, stub tools, and the durable LMDB log; the raw log-append rate beside it."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from polygon.app.run import RunOptions, run_suite
from polygon.events import LmdbLog
from polygon.simulate.agents import AgentReply, AgentStep
from polygon.suite.loading import LoadedSuite
from polygon.suite.schema import Suite

TYPES = ["cooperative", "busy", "distrustful", "confused", "aggressive", "chatty"]


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
        "personas": personas,
    }
    return LoadedSuite(
        path=Path("bench.yaml"),
        suite=Suite.model_validate(data),
        prompts={"t": ""},
        suite_hash="bench",
    )


def measure(conversations: int = 300, turns: int = 20) -> tuple[float, float]:
    """(turns per second, events per second)."""
    loaded = suite(conversations, turns)
    with tempfile.TemporaryDirectory() as tmp, LmdbLog(Path(tmp) / "log", map_size=1 << 30) as log:
        t0 = time.perf_counter()
        run_suite(loaded, log, RunOptions(run_id="bench", concurrency=32), now=lambda: "")
        elapsed = time.perf_counter() - t0
        stats = log.stats()
    spoken = stats.by_tag.get("conversation.turn_spoken", 0)
    return spoken / elapsed, stats.events / elapsed
