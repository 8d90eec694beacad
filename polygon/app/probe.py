"""``polygon probe``: a probe pass (the detectors, or a model) over every conversation of a run."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import ValidationError

from polygon.app.jobs import PassRecipe, keyless, run_pass
from polygon.app.passes import run_started
from polygon.app.probing import DETECTORS_ONLY, ProbeSummary, Probing, probe_run
from polygon.app.progress import Progress, no_progress
from polygon.boundary import read_yaml
from polygon.errors import SuiteError
from polygon.events import EventLog
from polygon.execute import Executor, InProcessExecutor
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
    started = run_started(log, run_id)
    recipe = PassRecipe(
        started=started, settings=keyless(hub.settings), probe_model=answerer_model, extra_probes=tuple(extra)
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
    return ProbeSummary(result.probed, result.probed_before, len(probes_from([*started.probes, *extra])))


__all__ = ["DETECTORS_ONLY", "ProbeSummary", "Probing", "load_probes", "probe_run", "probe_with"]
