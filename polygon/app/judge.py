"""``polygon judge``: a new scoring pass (checks and the judge) over every conversation of a run."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from polygon.app.jobs import PassRecipe, keyless, run_pass
from polygon.app.progress import Progress, no_progress
from polygon.app.scoring import (
    ScoreSummary,
    Scoring,
    judge_context,
    record_rubric,
    score_run,
)
from polygon.events import EventLog
from polygon.execute import Executor, InProcessExecutor
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
    result = asyncio.run(
        run_pass(
            executor or InProcessExecutor(),
            log,
            recipe,
            hub,
            window=concurrency,
            now=now,
            progress=progress,
            abort=hub.unreachable,
        )
    )
    return ScoreSummary(settings.pass_id, result.scored, result.scored_before)


__all__ = ["ScoreSummary", "Scoring", "judge_context", "judge_run", "record_rubric", "score_run"]
