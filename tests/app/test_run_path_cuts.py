"""The run path's shortcuts answer as the long way did.

Planning looks personas up by id (a scan per scenario was quadratic), a new run's calls are
not each asked of the log, and the run's scoring pass reuses the rubric the run loaded to
record it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from polygon import score
from polygon.app import jobs, run
from polygon.app.run import RunOptions, run_suite
from polygon.events import LmdbLog, Pending, identity
from polygon.events.families import TurnSpoken
from polygon.models import ModelSettings
from polygon.simulate.plan import iter_plans
from polygon.suite.loading import LoadedSuite
from tests.bench import pipeline


def test_plans_take_each_scenarios_persona_as_the_scan_did(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = pipeline.suite(40, 3)
    plans = list(iter_plans(loaded, "r", 1, ("t",)))
    assert [p.persona.persona_id for p in plans] == [s.persona for s in loaded.scenarios()]
    for plan in plans:
        spec = loaded.persona(plan.persona.persona_id)
        assert (plan.persona.type, plan.persona.goal, plan.persona.facts) == (
            spec.type,
            spec.goal,
            spec.facts,
        )
    # and without one scan per scenario
    monkeypatch.setattr(LoadedSuite, "persona", lambda self, pid: pytest.fail("scanned for a persona"))
    assert list(iter_plans(loaded, "r", 1, ("t",))) == plans


class _Counting(LmdbLog):
    asked: int = 0

    def stream_length(self, stream: str) -> int:
        self.asked += 1
        return super().stream_length(stream)


def _jobs(log: LmdbLog, loaded: LoadedSuite, run_id: str) -> list[jobs.SimulationJob]:
    plans = iter_plans(loaded, run_id, 1, ("t",))
    return list(jobs.simulation_jobs(log, loaded, plans, ModelSettings(), lambda: ""))


def test_a_new_runs_calls_are_not_each_asked_of_the_log(tmp_path: Path) -> None:
    loaded = pipeline.suite(25, 2)
    with _Counting(tmp_path / "log") as log:
        made = _jobs(log, loaded, "fresh")
        assert log.asked == 0
        assert all(job.existing == frozenset() and job.recorded == {} for job in made)


def test_a_run_holding_a_call_still_hands_its_events_to_that_call(tmp_path: Path) -> None:
    loaded = pipeline.suite(5, 2)
    plan = next(iter_plans(loaded, "held", 1, ("t",)))
    ident = identity(run="held", conversation=plan.conversation_id, turn=1, kind="turn")
    spoken = TurnSpoken(conversation_id=plan.conversation_id, turn=1, speaker="caller", text="hi")
    with _Counting(tmp_path / "log") as log:
        log.append([Pending(stream=f"conv/{plan.conversation_id}", identity=ident, event=spoken)])
        made = _jobs(log, loaded, "held")
        assert log.asked == 5  # a run the log holds calls of: each call is looked up
        assert made[0].existing == frozenset({ident})
        assert all(job.existing == frozenset() for job in made[1:])


def test_the_run_parses_its_rubric_once_and_scores_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[str] = []
    real = score.load_rubric

    def counted(ref: str) -> Any:
        loads.append(ref)
        return real(ref)

    # the run (and jobs, where a recipe needs it) reads it through the score face, on use
    monkeypatch.setattr(score, "load_rubric", counted)
    recipes: list[jobs.PassRecipe] = []
    real_recipe = run.run_recipe
    monkeypatch.setattr(run, "run_recipe", lambda *a: recipes.append(real_recipe(*a)) or recipes[-1])
    with LmdbLog(tmp_path / "log") as log:
        summary = run_suite(pipeline.suite(4, 3), log, RunOptions(run_id="r"), now=lambda: "")
    # One read before the run: gating's warning (does the rubric gate on the suite's rules?) and
    # the scoring pass both use it, and the pass's jobs reuse that one. (It was read twice: a
    # rubric given as a path was read and validated again for the scoring pass.)
    assert loads == ["v1"]
    assert summary.scoring is not None and summary.scoring.scored == 4
    assert recipes[0].rubric is not None and recipes[0].rubric.rubric_hash == real("v1").rubric_hash
