"""``polygon probe``: a probe pass (the detectors, or a model) over every conversation of a run."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import ValidationError

from polygon.app.jobs import PassRecipe, VisitResult, keyless, pass_here, pass_on
from polygon.app.passes import run_started
from polygon.app.probing import ProbeSummary, Probing
from polygon.app.progress import Progress, no_progress
from polygon.boundary import read_yaml
from polygon.errors import SuiteError, WorkInterrupted
from polygon.events import EventLog
from polygon.execute import Executor
from polygon.models import ModelHub
from polygon.probe import answerer_for, probes_from
from polygon.suite import ProbeSpec


def load_probes(path: Path) -> list[dict[str, object]]:
    """A YAML list of probe specs (``id``, ``question``, ``polarity``, ``detector``/``keywords``)."""
    data = read_yaml(path, "probes")
    if not isinstance(data, list):
        raise SuiteError(f"{path}: expected a list of probes")
    for i, item in enumerate(data):
        try:
            ProbeSpec.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise SuiteError(f"{path}: {i}.{'.'.join(map(str, err['loc']))}: {err['msg']}") from None
    return data


def probe_with(
    log: EventLog,
    run_id: str,
    *,
    extra: Sequence[dict[str, object]],
    answerer_model: str,
    hub: ModelHub,
    now: Callable[[], str],
    progress: Progress = no_progress,
    concurrency: int = 8,
    executor: Executor | None = None,
) -> ProbeSummary:
    """``polygon probe``: the detectors, or a model through the hub, on the chosen executor."""
    answerer_for(answerer_model, hub)  # an unknown provider is refused before any call starts
    recipe = probing_recipe(log, run_id, answerer_model=answerer_model, hub=hub, extra=extra)
    try:
        result = pass_on(executor, log, recipe, hub, window=concurrency, now=now, progress=progress)
    except KeyboardInterrupt:  # Ctrl-C, at a safe point: what was committed stays, whole
        raise WorkInterrupted(
            f"interrupted: the answers committed so far are kept; `polygon probe {run_id}` with the same "
            "options again answers only what this pass has not"
        ) from None
    return _summary(recipe, result)


async def probe_run(
    log: EventLog, run_id: str, *, answerer_model: str, hub: ModelHub, now: Callable[[], str]
) -> ProbeSummary:
    """Answer every probe for every call of the run, one call at a time, in this process.

    How an import probes its calls; the caller closes ``hub``.
    """
    recipe = probing_recipe(log, run_id, answerer_model=answerer_model, hub=hub)
    result = await pass_here(log, recipe, hub, now=now)
    return _summary(recipe, result)


def probing_recipe(
    log: EventLog,
    run_id: str,
    *,
    answerer_model: str,
    hub: ModelHub,
    extra: Sequence[dict[str, object]] = (),
) -> PassRecipe:
    """A probe pass's recipe: the run's probes (library + the suite's + ``extra``) by one answerer."""
    started = run_started(log, run_id)
    return PassRecipe(
        started=started, settings=keyless(hub.settings), probe_model=answerer_model, extra_probes=tuple(extra)
    )


def _summary(recipe: PassRecipe, result: VisitResult) -> ProbeSummary:
    probes = probes_from([*recipe.started.probes, *recipe.extra_probes])
    return ProbeSummary(result.probed, result.probed_before, len(probes))


__all__ = ["ProbeSummary", "Probing", "load_probes", "probe_run", "probe_with"]
