"""Comparison use cases: read the runs once, hand the projections what they need."""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
    log: EventLog,
    run_ids: Sequence[str],
    *,
    rubric: str | None = None,
    configs: Sequence[str] = (),
    allow_mixed: bool = False,
) -> Comparison:
    """Compare every configuration of the given runs (or only ``configs``).

    By default the newest rubric every run was judged under, and each call's latest pass of
    it. Runs that differ in caller, judge or noise are refused unless ``allow_mixed``.
    """
    if not run_ids:
        raise UserInputError("compare needs at least one run")
    records, tables, views = {}, {}, {}
    for run_id in dict.fromkeys(run_ids):
        events = list(run_events(log, run_id))
        records[run_id] = verdict_fold.build(run_id, events)
        tables[run_id] = probe_fold.build(events)
        views.update(_views(events))
    version = _shared_version(records, rubric)
    sides, rows = _sides(records, version, configs, multi=len(records) > 1)
    if len(sides) < 2:
        raise UserInputError(
            "compare needs at least two configurations (give two runs, or a run with two configs)"
        )
    all_rows = [r for rs in rows.values() for r in rs]
    judges = sorted({r.judge for r in all_rows if r.judge})
    heuristic = any(r.heuristic for r in all_rows)
    judge = HEURISTIC_LABEL if heuristic and judges == ["scripted/heuristic"] else ", ".join(judges)
    mixed = _mixed(sides, rows)
    if mixed and not allow_mixed:
        raise UserInputError(
            f"cannot compare: the sides differ in {mixed[0]}; a difference of settings is not a "
            "difference of agents (--allow-mixed shows them side by side anyway)"
        )
    return compare(
        sides, rows, tables, views, rubric_version=version, judge=judge, heuristic=heuristic, mixed=mixed
    )


def _shared_version(records: dict[str, RunRecord], wanted: str | None) -> str:
    """The rubric asked for, else the newest one every run was judged under."""
    if wanted:
        for rec in records.values():
            choose_version(rec, wanted)  # refuses a run not judged under it, naming it
        return wanted
    have = {run_id: verdict_fold.versions(rec) for run_id, rec in records.items()}
    first = next(iter(have.values()))
    shared = [v for v in first if all(v in vs for vs in have.values())]
    if not shared:
        listed = "; ".join(f"{r}: {', '.join(v) or 'not judged'}" for r, v in have.items())
        raise UserInputError(
            f"the runs were judged under different rubric versions and share none ({listed}); "
            "judge them under one with `polygon judge RUN --rubric V`"
        )
    return shared[-1]


def _mixed(sides: list[Side], rows: dict[str, list[ConversationVerdict]]) -> list[str]:
    """Settings that differ between sides, one line each: caller, judge, noise."""
    settings: list[tuple[str, Callable[[ConversationVerdict], str]]] = [
        ("caller", lambda r: r.record.caller_model or "real callers (imported)"),
        ("judge", lambda r: r.judge),
        ("noise intensity", lambda r: f"{r.record.noise_intensity:g}" if r.record.caller_model else "real"),
    ]
    out = []
    for what, get in settings:
        per_side = {s.label: sorted({get(r) for r in rows[s.label] if get(r)}) for s in sides}
        if len({tuple(v) for v in per_side.values()}) > 1:
            out.append(f"{what}: " + "; ".join(f"{k} {', '.join(v) or '—'}" for k, v in per_side.items()))
    return out


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
