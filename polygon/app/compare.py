"""Comparison use cases: read the runs once, a conversation at a time.

The projections get what they need; the calls a divergence is shown for are read back on
demand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from polygon.app.replay import load_conversation
from polygon.app.snapshots import fold_run, gc_paused
from polygon.errors import UserInputError
from polygon.events import (
    ConversationStarted,
    EventLog,
    PromptLinted,
    conversation_stream,
    lint_stream,
)
from polygon.projections import (
    Comparison,
    ConversationVerdict,
    MixedSetting,
    RunRecord,
    Side,
    build_comparison,
    choose_version,
    lint_scores,
)
from polygon.projections import probes as probe_fold
from polygon.projections import verdicts as verdict_fold
from polygon.render import mixed_setting_line
from polygon.transcript import ConversationView


@gc_paused()  # its rows and scorecards are built like the state (see gc_paused)
def compare_runs(
    log: EventLog,
    run_ids: Sequence[str],
    *,
    rubric: str | None = None,
    configs: Sequence[str] = (),
    allow_mixed: bool = False,
) -> Comparison:
    """Compare every configuration of the given runs (or only ``configs``).

    By default the first run's own rubric when every run was judged under it (else the newest
    shared), and each call's latest pass of it. Runs that differ in caller, judge or noise are
    refused unless ``allow_mixed``.
    """
    if not run_ids:
        raise UserInputError("compare needs at least one run")
    records, tables = {}, {}
    for run_id in dict.fromkeys(run_ids):
        records[run_id], tables[run_id] = _fold(log, run_id)
    views = _Views(log)  # only the calls a divergence is shown for are read back
    # Each run's passes indexed once, for its versions and its rows (~0.1 CPU s at 20k calls).
    indexes = {run_id: verdict_fold.pass_index(rec) for run_id, rec in records.items()}
    version = _shared_version(records, rubric, indexes)
    sides, rows = _sides(records, version, configs, indexes, multi=len(records) > 1)
    if len(sides) < 2:
        raise UserInputError(
            "compare needs at least two configurations (give two runs, or a run with two configs)"
        )
    all_rows = [r for rs in rows.values() for r in rs]
    judges = sorted({r.judge for r in all_rows if r.judge})
    heuristic = any(r.heuristic for r in all_rows)
    mixed = _mixed(sides, rows, _Languages(log))
    if mixed and not allow_mixed:
        raise UserInputError(
            f"cannot compare: the sides differ in {mixed_setting_line(mixed[0])}; a difference of settings "
            "is not a difference of agents (--allow-mixed shows them side by side anyway)"
        )
    linted = _prompt_lint(log, records, sides)
    return build_comparison(
        sides,
        rows,
        tables,
        views,
        rubric_version=version,
        judges=judges,
        heuristic=heuristic,
        mixed=mixed,
        prompt_lint=linted,
    )


def _prompt_lint(
    log: EventLog, records: dict[str, RunRecord], sides: list[Side]
) -> dict[str, dict[str, float]]:
    """Each side's prompt lint, read from ``lint/<prompt hash>`` (sides never linted: absent)."""
    out: dict[str, dict[str, float]] = {}
    for side in sides:
        started = records[side.run_id].started
        digest = started.prompt_hashes.get(side.config, "") if started else ""
        if not digest:
            continue
        events = [env.payload for env in log.read_stream(lint_stream(digest))]
        scores = lint_scores(e for e in events if isinstance(e, PromptLinted))
        if scores:
            out[side.label] = scores
    return out


def _shared_version(
    records: dict[str, RunRecord], wanted: str | None, indexes: dict[str, verdict_fold.PassIndex]
) -> str:
    """The rubric asked for, else the first run's own when all share it, else the newest shared."""
    if wanted:
        for run_id, rec in records.items():
            choose_version(rec, wanted, indexes[run_id])  # refuses a run not judged under it, naming it
        return wanted
    have = {run_id: verdict_fold.versions(rec, indexes[run_id]) for run_id, rec in records.items()}
    first = next(iter(have.values()))
    shared = [v for v in first if all(v in vs for vs in have.values())]
    if not shared:
        listed = "; ".join(f"{r}: {', '.join(v) or 'not judged'}" for r, v in have.items())
        raise UserInputError(
            f"the runs were judged under different rubric versions and share none ({listed}); "
            "judge them under one with `polygon judge RUN --rubric V`"
        )
    return verdict_fold.default_version(next(iter(records.values())), shared)


def _mixed(
    sides: list[Side], rows: dict[str, list[ConversationVerdict]], languages: _Languages
) -> list[MixedSetting]:
    """Settings that differ between sides: caller, judge, noise, language (imported calls have real ones).

    A side with no language (imported calls: the log does not say which) differs from none.
    """
    settings: list[tuple[str, Callable[[ConversationVerdict], str], bool]] = [
        ("caller", lambda r: r.record.caller_model or "real callers (imported)", True),
        ("judge", lambda r: r.judge, True),
        ("noise intensity", _noise_intensity, True),
        ("language", languages.of, False),
    ]
    out = []
    for what, get, none_differs in settings:
        per_side = {s.label: sorted({get(r) for r in rows[s.label] if get(r)}) for s in sides}
        if len({tuple(v) for v in per_side.values() if v or none_differs}) > 1:
            out.append(MixedSetting(setting=what, values=per_side))
    return out


def _noise_intensity(row: ConversationVerdict) -> str:
    return f"{row.record.noise_intensity:g}" if row.record.caller_model else "real"


def _fold(log: EventLog, run_id: str) -> tuple[RunRecord, probe_fold.ProbeTable]:
    """Verdicts and probe answers of a run, in one read (or from its snapshot)."""
    fold = fold_run(log, run_id)
    return fold.verdicts, fold.probes


class _Languages:
    """The language each simulated call was held in (its caller's and its noise's).

    The fold keeps no language, so it is read from the call's ``conversation.started``
    (``persona.language``: the persona's language, else the suite's noise language). Within
    a run a scenario always has the same persona, so one call per scenario is read.
    Imported calls have no simulated caller and no language (``""``: not compared).
    """

    def __init__(self, log: EventLog) -> None:
        self._log = log
        self._known: dict[tuple[str, str], str] = {}

    def of(self, row: ConversationVerdict) -> str:
        rec = row.record
        if not rec.caller_model:
            return ""
        key = (rec.conversation_id.partition(".")[0], rec.scenario)  # run ids hold no "."
        if key not in self._known:
            self._known[key] = self._read(rec.conversation_id)
        return self._known[key]

    def _read(self, conversation_id: str) -> str:
        for env in self._log.read_stream(conversation_stream(conversation_id)):
            started = env.payload
            if isinstance(started, ConversationStarted) and started.persona is not None:
                return started.persona.language
            break  # a call's stream starts with its conversation.started
        return ""


class _Views(Mapping[str, ConversationView]):
    """Conversation views read from the log when asked for (and kept: a few per scenario)."""

    def __init__(self, log: EventLog) -> None:
        self._log = log
        self._read: dict[str, ConversationView] = {}

    def __getitem__(self, conversation_id: str) -> ConversationView:
        if conversation_id not in self._read:
            self._read[conversation_id] = load_conversation(self._log, conversation_id)
        return self._read[conversation_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read)

    def __len__(self) -> int:
        return len(self._read)


def _sides(
    records: dict[str, RunRecord],
    version: str,
    configs: Sequence[str],
    indexes: dict[str, verdict_fold.PassIndex],
    multi: bool,
) -> tuple[list[Side], dict[str, list[ConversationVerdict]]]:
    sides: list[Side] = []
    rows: dict[str, list[ConversationVerdict]] = {}
    for run_id, rec in records.items():
        order = rec.started.configs if rec.started else sorted({c.config for c in rec.conversations.values()})
        all_rows = verdict_fold.verdicts(rec, version, index=indexes[run_id])
        for config in order:
            if configs and config not in configs:
                continue
            label = f"{run_id}:{config}" if multi else config
            sides.append(Side(label=label, run_id=run_id, config=config))
            rows[label] = [r for r in all_rows if r.record.config == config]
    return sides, rows
