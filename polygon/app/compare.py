"""Comparison use cases: read the runs once, hand the projections what they need."""

from __future__ import annotations

from collections.abc import Sequence

from polygon.app.report import run_events
from polygon.errors import UserInputError
from polygon.events import Envelope, EventLog
from polygon.events.streams import conversation_of_stream, is_conversation_stream
from polygon.projections import probes as probe_fold
from polygon.projections import verdicts as verdict_fold
from polygon.projections.compare import Comparison, Side, compare
from polygon.projections.report import HEURISTIC_LABEL
from polygon.projections.verdicts import ConversationVerdict, RunRecord, choose_version
from polygon.transcript import ConversationView, build


def compare_runs(
    log: EventLog, run_ids: Sequence[str], *, rubric: str | None = None, configs: Sequence[str] = ()
) -> Comparison:
    """Compare every configuration of the given runs (or only ``configs``)."""
    if not run_ids:
        raise UserInputError("compare needs at least one run")
    records, tables, views = {}, {}, {}
    for run_id in dict.fromkeys(run_ids):
        events = list(run_events(log, run_id))
        records[run_id] = verdict_fold.build(run_id, events)
        tables[run_id] = probe_fold.build(events)
        views.update(_views(events))
    versions = {run_id: choose_version(rec, rubric) for run_id, rec in records.items()}
    if len(set(versions.values())) > 1:
        listed = ", ".join(f"{r} under {v}" for r, v in versions.items())
        raise UserInputError(
            f"cannot compare runs judged under different rubric versions ({listed}); "
            "re-judge them under one version with `polygon judge RUN --rubric V`"
        )
    version = next(iter(versions.values()))
    sides, rows = _sides(records, version, configs, multi=len(records) > 1)
    if len(sides) < 2:
        raise UserInputError(
            "compare needs at least two configurations (give two runs, or a run with two configs)"
        )
    all_rows = [r for rs in rows.values() for r in rs]
    judges = sorted({r.judge for r in all_rows if r.judge})
    heuristic = any(r.heuristic for r in all_rows)
    judge = HEURISTIC_LABEL if heuristic and judges == ["scripted/heuristic"] else ", ".join(judges)
    return compare(sides, rows, tables, views, rubric_version=version, judge=judge, heuristic=heuristic)


def _views(events: list[Envelope]) -> dict[str, ConversationView]:
    by_conv: dict[str, list[Envelope]] = {}
    for env in events:
        if is_conversation_stream(env.stream):
            by_conv.setdefault(conversation_of_stream(env.stream), []).append(env)
    return {cid: build(cid, evs) for cid, evs in by_conv.items()}


def _sides(
    records: dict[str, RunRecord], version: str, configs: Sequence[str], multi: bool
) -> tuple[list[Side], dict[str, list[ConversationVerdict]]]:
    sides: list[Side] = []
    rows: dict[str, list[ConversationVerdict]] = {}
    for run_id, rec in records.items():
        order = rec.started.configs if rec.started else sorted({c.config for c in rec.conversations.values()})
        all_rows = verdict_fold.verdicts(rec, version)
        for config in order:
            if configs and config not in configs:
                continue
            label = f"{run_id}:{config}" if multi else config
            sides.append(Side(label=label, run_id=run_id, config=config))
            rows[label] = [r for r in all_rows if r.record.config == config]
    return sides, rows
