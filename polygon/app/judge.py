"""``polygon judge``: a new scoring pass (checks and the judge) over every conversation of a run.

Every scoring pass goes through the pass driver (``jobs.visit_on``): ``polygon judge`` on the
executor the command chose, an import's and a rerun's pass in this process (:func:`score_run`).
"""

from __future__ import annotations

from collections.abc import Callable

from polygon.app.jobs import PassRecipe, keyless, pass_here, pass_on
from polygon.app.progress import Progress, no_progress
from polygon.app.scoring import (
    ScoreSummary,
    Scoring,
    judge_context,
    record_rubric,
)
from polygon.errors import WorkInterrupted
from polygon.events import EventLog
from polygon.execute import Executor
from polygon.models import ModelHub
from polygon.score import JudgeSettings, LoadedRubric, judge_for


def judge_run(
    log: EventLog,
    run_id: str,
    *,
    rubric: LoadedRubric,
    judge_model: str,
    repeats: int,
    new_pass: int,
    hub: ModelHub,
    now: Callable[[], str],
    progress: Progress = no_progress,
    concurrency: int = 8,
    executor: Executor | None = None,
) -> ScoreSummary:
    """``polygon judge``: one new pass with any judge, on the chosen executor (here by default)."""
    recipe, pass_id = scoring_recipe(
        log,
        run_id,
        rubric=rubric,
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
    return ScoreSummary(pass_id, result.scored, result.scored_before)


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
    settings = JudgeSettings(
        rubric=rubric, judge=judge_for(judge_model, hub), repeats=repeats, new_pass=new_pass
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


__all__ = ["ScoreSummary", "Scoring", "judge_context", "judge_run", "record_rubric", "score_run"]
