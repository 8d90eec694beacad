"""``polygon calibrate``: the judge's verdicts against human labels, for one or more runs."""

from __future__ import annotations

from collections.abc import Sequence

from polygon.app.queries import read_run_labels
from polygon.errors import PolygonError, UnknownIdError, UserInputError
from polygon.events import EventLog, LabelRecorded, conversation_stream, labels_stream, run_stream
from polygon.projections import Calibration, ConversationVerdict, calibrate
from polygon.projections import verdicts as verdict_fold


def calibrate_runs(
    log: EventLog,
    run_ids: Sequence[str],
    *,
    rubric: str | None = None,
    judge_pass: str | None = None,
    by: str | None = None,
    reward_pass_at: float = 0.5,
) -> Calibration:
    """Every labelled call of the runs, under one rubric version (and pass, when given)."""
    if not run_ids:
        raise UserInputError("calibrate needs at least one run")
    labels: dict[str, LabelRecorded] = {}
    for run_id in dict.fromkeys(run_ids):
        if not log.stream_length(run_stream(run_id)):
            raise UnknownIdError(f"no run {run_id!r} in the log")
        labels.update(read_run_labels(log, run_id).latest(by))  # in log order: the latest label counts
    # Only the labelled calls are folded, each whole (every judge repeat, for α).
    states = {run_id: _labelled_fold(log, run_id, labels) for run_id in dict.fromkeys(run_ids)}
    version = _version(states, rubric)
    if judge_pass is not None:
        known = {pid for state in states.values() for pid, _judge in verdict_fold.passes(state, version)}
        if judge_pass not in known:
            have = ", ".join(sorted(known)) or "none"
            raise UserInputError(
                f"--judge {judge_pass}: no judge pass of that id scored the labelled calls under rubric "
                f"{version} (have: {have})"
            )
    rows: list[ConversationVerdict] = []
    pass_at = None
    for state in states.values():
        rows.extend(verdict_fold.verdicts(state, version, judge_pass))
        recorded = next((r for r in state.rubrics if r.version == version), None)
        pass_at = pass_at if pass_at is not None else (recorded.pass_at if recorded else None)
    if pass_at is None:  # a run that recorded no rubric (older logs): the bundled file says
        from polygon.score import load_rubric  # the rubric models (pydantic): only then

        pass_at = load_rubric(version).rubric.pass_at
    return calibrate(
        list(states), rows, labels, rubric_version=version, pass_at=pass_at, reward_pass_at=reward_pass_at
    )


def _labelled_fold(log: EventLog, run_id: str, labels: dict[str, LabelRecorded]) -> verdict_fold.RunRecord:
    state = verdict_fold.build_run_record(run_id, log.read_stream(run_stream(run_id)))
    for cid in sorted(c for c in labels if c.startswith(f"{run_id}.")):
        for env in log.read_stream(conversation_stream(cid)):
            state = verdict_fold.apply(state, env)
    return state


def _version(states: dict[str, verdict_fold.RunRecord], wanted: str | None) -> str:
    shared = set.intersection(*(set(verdict_fold.versions(s)) for s in states.values()))
    if not shared and not any(s.conversations for s in states.values()):
        raise UserInputError(
            "no labelled call in these runs: label with `polygon label` or `polygon labels import`"
        )
    if wanted:
        if wanted not in shared:
            raise UserInputError(
                f"not every run was judged under rubric {wanted!r} "
                f"(shared: {', '.join(sorted(shared)) or 'none'})"
            )
        return wanted
    if not shared:
        raise UserInputError(
            "the runs share no rubric version: judge them under one (polygon judge RUN --rubric V)"
        )
    first = next(iter(states.values()))
    order = [v for v in verdict_fold.versions(first) if v in shared]
    return verdict_fold.default_version(first, order)


def labelled_calibration(log: EventLog, run_id: str, rubric: str) -> Calibration | None:
    """The run's calibration against its labels under ``rubric``; None when it has no labels.

    None too when the labels cannot be read under that rubric (a view shows no calibration
    rather than an error).
    """
    if not log.stream_length(labels_stream(run_id)):
        return None
    try:
        return calibrate_runs(log, [run_id], rubric=rubric)
    except PolygonError:
        return None
