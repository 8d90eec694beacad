"""The offline demo. For now it exercises the event log only (the simulation comes next)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from polygon.events import LmdbLog, Pending, identity
from polygon.events.families import ConversationEnded, TurnSpoken


def run_demo(log_path: Path) -> Iterator[str]:
    """Append a tiny conversation to the log, read it back, verify the log."""
    yield "Polygon demo — event log only: the call simulation is not built yet."
    with LmdbLog(log_path) as log:
        conv = "demo-log-check"
        lines = [
            ("caller", "Hi, I'd like to book a cleaning."),
            ("agent", "Sure, what day suits you?"),
        ]
        batch = [
            Pending(
                stream=f"conv/{conv}",
                identity=identity(run="demo", conversation=conv, turn=1, kind="turn", index=i),
                event=TurnSpoken(conversation_id=conv, turn=1, speaker=who, text=text),
            )
            for i, (who, text) in enumerate(lines)
        ]
        batch.append(
            Pending(
                stream=f"conv/{conv}",
                identity=identity(run="demo", conversation=conv, kind="end"),
                event=ConversationEnded(
                    conversation_id=conv, reason="caller_done", by="caller", turns=1
                ),
            )
        )
        result = log.append(batch)
        yield f"appended {result.written} new events (a re-run appends 0: identities are fixed)"
        for env in log.read_stream(f"conv/{conv}"):
            yield f"  #{env.seq} {env.tag}"
        report = log.verify()
        status = "ok" if report.ok else report.problem
        yield f"log verify: {status} ({report.events} events) at {log.path}"
