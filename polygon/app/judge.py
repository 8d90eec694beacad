"""``polygon judge``: a new scoring pass (checks and the judge) over every conversation of a run.

Every scoring pass goes through the pass driver (``jobs.visit_on``): ``polygon judge`` on the
executor the command chose, an import's and a rerun's pass in this process (:func:`score_run`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

# Read on use: the rubric's models and the checks load when a rubric is first read (issue 31).
from polygon import score as _score
from polygon.app.jobs import PassRecipe, keyless, pass_here, pass_on
from polygon.app.progress import Progress, no_progress
from polygon.app.scoring import (
    ScoreSummary,
    Scoring,
    judge_context,
    record_rubric,
)
from polygon.errors import UserInputError, WorkInterrupted
from polygon.events import EventLog
from polygon.execute import Executor
from polygon.models import ModelHub

if TYPE_CHECKING:
    from polygon.score import LoadedRubric


def judge_run(
    log: EventLog,
    run_id: str,
    *,
    rubric: str | None,
    judge_model: str,
    repeats: int,
    new_pass: int,
    hub: ModelHub,
    now: Callable[[], str],
    progress: Progress = no_progress,
    concurrency: int = 8,
    executor: Executor | None = None,
) -> ScoreSummary:
    """``polygon judge``: one new pass with any judge, on the chosen executor (here by default).

    ``rubric``: a bundled version or a file; None: the run's own.
    """
    loaded = _rubric_to_judge(log, run_id, rubric)
    recipe, pass_id = scoring_recipe(
        log,
        run_id,
        rubric=loaded,
        judge_model=judge_model,
        hub=hub,
        now=now,
        repeats=repeats,
        new_pass=new_pass,
    )
    try:
        result = pass_on(executor, log, recipe, hub, window=concurrency, now=now, progress=progress)
    except KeyboardInterrupt:  # Ctrl-C, at a safe point: what was committed stays, whole
        raise WorkInterrupted(
            f"interrupted: the scores committed so far are kept; `polygon judge {run_id}` with the same "
            "options again scores only the calls this pass has not"
        ) from None
    version = loaded.rubric.version
    return ScoreSummary(
        pass_id, result.scored, result.scored_before, version, _gates_dropped(log, run_id, loaded)
    )


def _gates_dropped(log: EventLog, run_id: str, chosen: LoadedRubric) -> tuple[str, ...]:
    """A warning when ``chosen`` leaves out gates the run's own rubric has (its report keeps the own)."""
    from polygon.app.passes import run_started

    own_ref = run_started(log, run_id).rubric_version or "v1"
    try:
        own = _score.load_rubric(own_ref).rubric
    except UserInputError:
        return ()  # a rubric file not readable from here: nothing to compare with
    dropped = [g for g in own.gates if g not in chosen.rubric.gates]
    if own.version == chosen.rubric.version or not dropped:
        return ()
    return (
        f"warning: rubric {chosen.rubric.version} does not gate on {', '.join(dropped)}, which the "
        f"run's own rubric {own.version} gates: a call that breaks them can pass under "
        f"{chosen.rubric.version}; `polygon report {run_id}` keeps showing {own.version}",
    )


async def score_run(
    log: EventLog,
    run_id: str,
    *,
    rubric: LoadedRubric,
    judge_model: str,
    hub: ModelHub,
    now: Callable[[], str],
) -> ScoreSummary:
    """Score every call of the run this pass has not scored yet, one at a time, in this process.

    How an import and a rerun score their calls; the caller closes ``hub``.
    """
    recipe, pass_id = scoring_recipe(log, run_id, rubric=rubric, judge_model=judge_model, hub=hub, now=now)
    result = await pass_here(log, recipe, hub, now=now)
    return ScoreSummary(pass_id, result.scored, result.scored_before)


def _rubric_to_judge(log: EventLog, run_id: str, asked: str | None) -> LoadedRubric:
    """The rubric asked for, else the run's own (the one its suite named).

    Without ``--rubric`` a new pass (another judge, more repeats) scores under the rubric the
    run was made for: a silent older default would score it under gates the suite did not
    choose.
    """
    from polygon.app.passes import run_started

    if asked:
        return _score.load_rubric(asked)
    own = run_started(log, run_id).rubric_version or "v1"  # runs from before the field: v1
    try:
        return _score.load_rubric(own)
    except UserInputError:
        raise UserInputError(
            f"run {run_id} was scored under the rubric file {own!r}, which cannot be read from here: "
            "name it with --rubric FILE"
        ) from None


def scoring_recipe(
    log: EventLog,
    run_id: str,
    *,
    rubric: LoadedRubric,
    judge_model: str,
    hub: ModelHub,
    now: Callable[[], str],
    repeats: int = 1,
    new_pass: int = 0,
) -> tuple[PassRecipe, str]:
    """A scoring pass's recipe and its pass id, once the rubric is in the run (a changed one is refused)."""
    settings = _score.JudgeSettings(
        rubric=rubric, judge=_score.judge_for(judge_model, hub), repeats=repeats, new_pass=new_pass
    )
    started = Scoring.start(log, run_id, settings, now).started  # the rubric goes in first
    recipe = PassRecipe(
        started=started,
        settings=keyless(hub.settings),
        judge_model=judge_model,
        rubric=rubric,
        repeats=repeats,
        new_pass=new_pass,
    )
    return recipe, settings.pass_id


__all__ = [
    "ScoreSummary",
    "Scoring",
    "judge_context",
    "judge_run",
    "record_rubric",
    "score_run",
]
