"""A sweep's points: each an immutable profile (agent, prompt, parameters) derived from the base.

- ``oat``: the centre first (the base, with each parameter it leaves unset at its first
  listed value), then each parameter's other values one at a time around it;
- ``grid``: every combination, in file order;
- ``random``: ``points`` draws (a seeded generator; ranges give floats, or integers when both
  ends are integers).

Points with the same profile are one point (the first keeps its place).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from polygon.events import content_hash
from polygon.suite import ConfigSpec, LoadedSuite, LoadedSweep, Range, derive_suite


@dataclass(frozen=True)
class Point:
    """One point: the values it sets, the suite it runs as, its profile and run id."""

    index: int
    values: dict[str, Any]
    suite: LoadedSuite
    profile: str
    run_id: str
    prompt: str


def make_points(sweep: LoadedSweep) -> list[Point]:
    """Every point of the sweep, in the order they run (refused for a grid too large)."""
    spec = sweep.spec
    settings: list[dict[str, Any]]
    if spec.mode == "oat":
        settings = _one_at_a_time(sweep)
        if len(settings) > spec.max_points:
            from polygon.errors import SuiteError

            raise SuiteError(
                f"{sweep.path}: one at a time gives {len(settings)} points, more than max_points "
                f"{spec.max_points}"
            )
    elif spec.mode == "grid":
        lists = {k: v for k, v in spec.parameters.items() if isinstance(v, list)}
        size = 1
        for listed in lists.values():
            size *= len(listed)
        if size > spec.max_points:
            from polygon.errors import SuiteError

            raise SuiteError(
                f"{sweep.path}: a grid of {size} points is more than max_points {spec.max_points}"
            )
        settings = [dict(zip(lists, combo, strict=True)) for combo in itertools.product(*lists.values())]
    else:
        rng = random.Random(spec.seed)
        settings = [{k: _draw(rng, v) for k, v in spec.parameters.items()} for _ in range(spec.points)]
    points: list[Point] = []
    seen: set[str] = set()
    for chosen in settings:
        point = _point(sweep, len(points), chosen)
        if point.profile not in seen:
            seen.add(point.profile)
            points.append(point)
    return points


def _one_at_a_time(sweep: LoadedSweep) -> list[dict[str, Any]]:
    """The centre first, then one parameter at a time moved off it.

    The centre is the base configuration, with each parameter it does not set at the first
    value listed (an agent's own default is not known to Polygon, so it is never assumed).
    """
    base = sweep.suite.suite.configs[sweep.spec.base]
    centre: dict[str, Any] = {}
    for name, values in sweep.spec.parameters.items():
        assert isinstance(values, list)
        if _base_value(base, name) is None:
            centre[name] = values[0]
    out: list[dict[str, Any]] = [dict(centre)]
    for name, values in sweep.spec.parameters.items():
        assert isinstance(values, list)
        at = centre.get(name, _base_value(base, name))
        out.extend({**centre, name: value} for value in values if value != at)
    return out


def _base_value(base: ConfigSpec, name: str) -> Any:
    if name == "prompt_file":
        return base.prompt_file
    if name == "model" and base.agent.startswith("model:"):
        return base.agent.removeprefix("model:")
    return base.params.get(name.removeprefix("params."))


def _draw(rng: random.Random, values: list[Any] | Range) -> Any:
    if isinstance(values, list):
        return rng.choice(values)
    if float(values.min).is_integer() and float(values.max).is_integer():
        return rng.randint(int(values.min), int(values.max))
    return round(rng.uniform(values.min, values.max), 3)


def _point(sweep: LoadedSweep, index: int, values: dict[str, Any]) -> Point:
    loaded = sweep.suite
    name = sweep.spec.base
    base = loaded.suite.configs[name]
    agent, params = base.agent, dict(base.params)
    prompt_file, prompt = base.prompt_file, loaded.prompts[name]
    for key, value in values.items():
        if key == "prompt_file":
            prompt_file, prompt = str(value), sweep.prompts[str(value)]
        elif key == "prompt":
            prompt_file, prompt = "", str(value)
        elif key == "model" and agent.startswith("model:"):
            agent = f"model:{value}"
        else:
            params[key.removeprefix("params.")] = value
    config = ConfigSpec(agent=agent, prompt=prompt, params=params, headers=base.headers)
    scenarios = [
        s for s in loaded.suite.scenarios if not sweep.spec.scenarios or s.id in sweep.spec.scenarios
    ]
    if not loaded.suite.scenarios:  # one scenario per persona: keep the chosen personas
        personas = [
            p for p in loaded.suite.personas if not sweep.spec.scenarios or p.id in sweep.spec.scenarios
        ]
        changes: dict[str, Any] = {"personas": personas}
    else:
        changes = {"scenarios": scenarios}
    suite = loaded.suite.model_copy(
        update={"configs": {name: config}, "trials": sweep.spec.trials or loaded.suite.trials, **changes}
    )
    derived = derive_suite(loaded, suite, {name: prompt})
    profile = content_hash(
        {"agent": agent, "prompt": prompt, "params": params, "file": prompt_file}
        | ({"headers": base.headers} if base.headers else {})  # a profile without keeps its hash
    )
    # The run id follows from everything the point's calls depend on: the same profile, met
    # again in this sweep or a later one with the same settings, is the same run (reused).
    run_id = "s" + content_hash({"suite": derived.suite_hash, "seed": suite.seed})[:8]
    return Point(
        index=index, values=dict(values), suite=derived, profile=profile, run_id=run_id, prompt=prompt
    )
