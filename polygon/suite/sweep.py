"""Sweep files: which parameters to vary over which scenarios, and the limits of a sweep.

```yaml
name: clinic-patience
suite: suite.yaml            # beside this file
base: v1                     # the configuration every point starts from
mode: oat                    # oat (one at a time around the base) | grid | random
parameters:
  patience: [1, 2, 3]        # any key of the configuration's params (or params.NAME)
  prompt_file: [prompt_v1.md, prompt_fragile.md]
scenarios: [coop-booking]    # default: all
trials: 2
floor: 50                    # stop when the first point's mean composite is below
token_limit: 200000          # refuse a point estimated above (0: no limit)
```

``temperature``, ``top_p``, ``max_tokens`` and ``model`` are named as such; ``model`` replaces
a model agent's ``model:provider/name`` (a Python agent receives it as a parameter).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from polygon.boundary import log_safe, read_yaml, shown_url
from polygon.errors import SuiteError
from polygon.events import content_hash
from polygon.suite.empty import empty_list
from polygon.suite.loading import LoadedSuite, inside, load_suite

NAMED = ("temperature", "top_p", "max_tokens", "model", "prompt_file", "prompt")
"""Parameters with a meaning of their own; any other name is a key of ``params``."""


class _Strict(BaseModel):
    # defer_build: the validator is built on the first validation, not on import; a nested model
    # validates inside its root's and never builds its own (tests/test_real_starts.py).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


# The event log stores integers as msgpack does: a value beyond is refused at load, not met
# as an OverflowError when the point's run starts.
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


class Range(_Strict):
    """A numeric range a ``random`` sweep draws from (integers when both ends are)."""

    min: float
    max: float

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        for end in (self.min, self.max):
            if not math.isfinite(end):
                raise ValueError(f"{end}: a range needs finite ends (not NaN or infinity)")
            if not INT_MIN <= end <= INT_MAX:
                raise ValueError(f"{end:g}: beyond what the log stores (at most {INT_MAX:,} either way)")
        if self.max < self.min:
            raise ValueError("max must not be below min")
        return self


def _storable(name: str, value: Any) -> None:
    """Refuse NaN, infinity (JSON and the profile record both as null) and too large integers.

    Nested lists and mappings are checked too.
    """
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name}: {value} is not a number a point can use (NaN or infinity)")
    if isinstance(value, int) and not isinstance(value, bool) and not INT_MIN <= value <= INT_MAX:
        raise ValueError(
            f"{name}: {value:.3g} is beyond what the log stores (at most {INT_MAX:,} either way)"
        )
    if isinstance(value, list):
        for item in value:
            _storable(name, item)
    if isinstance(value, dict):
        for item in value.values():
            _storable(name, item)


class SweepSpec(_Strict):
    """A whole sweep file."""

    name: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    suite: str
    base: str
    mode: Literal["oat", "grid", "random"] = "oat"
    parameters: dict[str, list[Any] | Range]
    points: int = Field(8, ge=1, le=1000)
    """How many points a ``random`` sweep draws."""
    seed: int = Field(0, ge=0, lt=2**63)
    """The seed of a ``random`` sweep's draws (calls use the suite's seed)."""
    scenarios: list[str] = Field(default_factory=empty_list)
    trials: int | None = Field(None, ge=1, le=100)
    floor: float | None = Field(None, ge=0, le=100)
    token_limit: int = Field(0, ge=0, le=INT_MAX)
    max_points: int = Field(200, ge=1, le=10_000)
    """A sweep of more points than this is refused, whatever its mode (say so, rather than
    start thousands of runs)."""

    @field_validator("parameters")
    @classmethod
    def _parameters(cls, value: dict[str, list[Any] | Range]) -> dict[str, list[Any] | Range]:
        if not value:
            raise ValueError("at least one parameter to vary is needed")
        for name, values in value.items():
            if not name.removeprefix("params.").strip():
                raise ValueError(f"{name!r}: an empty parameter name")
            if isinstance(values, list) and not values:
                raise ValueError(f"{name}: at least one value is needed")
            if isinstance(values, list):
                _storable(name, values)
        return value

    @model_validator(mode="after")
    def _ranges_only_random(self) -> SweepSpec:
        ranged = [n for n, v in self.parameters.items() if isinstance(v, Range)]
        if ranged and self.mode != "random":
            raise ValueError(f"parameters.{ranged[0]}: a range needs mode: random (oat and grid take lists)")
        if self.mode == "random" and self.points > self.max_points:
            raise ValueError(f"points: {self.points} draws are more than max_points {self.max_points}")
        return self


class LoadedSweep(BaseModel):
    """A validated sweep, its suite, and the content hash of both."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

    path: Path
    spec: SweepSpec
    suite: LoadedSuite
    prompts: dict[str, str]
    """Each ``prompt_file`` value → its text (read inside the sweep's folder)."""
    sweep_hash: str
    warnings: list[str] = []
    """Things that would make a leaderboard mislead (printed before the sweep runs)."""


def load_sweep(path: str | Path) -> LoadedSweep:
    """Read and validate a sweep file and the suite it names; problems are one line each."""
    path = Path(path)
    raw = read_yaml(path, "sweep")
    if not isinstance(raw, dict):
        raise SuiteError(f"{path}: expected a mapping at the top level")
    _check_values(path, raw.get("parameters"))
    raw = log_safe(raw)  # (which would turn NaN and huge integers into text: checked above)
    try:
        spec = SweepSpec.model_validate(raw)
    except ValidationError as exc:
        # A range is a list or a mapping: our own check's message beats "should be a list".
        err = next((e for e in exc.errors() if e["type"] == "value_error"), exc.errors()[0])
        # (pydantic names union branches in the location: "function-after[...]", "list[any]")
        loc = ".".join(str(x) for x in err["loc"] if "[" not in str(x)) or "(top level)"
        raise SuiteError(f"{path}: {loc}: {str(err['msg']).removeprefix('Value error, ')}") from None
    suite = load_suite(inside(path, "suite", spec.suite))
    if spec.base not in suite.suite.configs:
        have = ", ".join(suite.suite.configs)
        raise SuiteError(f"{path}: base: no configuration {spec.base!r} in {suite.path} (have: {have})")
    known = {s.id for s in suite.scenarios()}
    for i, sc in enumerate(spec.scenarios):
        if sc not in known:
            raise SuiteError(
                f"{path}: scenarios.{i}: no scenario {sc!r} in {suite.path} "
                f"(have: {', '.join(sorted(known))})"
            )
    prompts = _prompt_files(path, spec)
    agent = suite.suite.configs[spec.base].agent
    if "model" in spec.parameters and agent.startswith(("http://", "https://")):
        raise SuiteError(f"{path}: parameters.model: the base configuration {spec.base} is an HTTP agent")
    digest = content_hash(
        {"sweep": spec.model_dump(mode="json"), "suite": suite.suite_hash, "prompts": prompts}
    )
    return LoadedSweep(
        path=path,
        spec=spec,
        suite=suite,
        prompts=prompts,
        sweep_hash=digest,
        warnings=_warnings(path, spec, agent),
    )


def _check_values(path: Path, parameters: object) -> None:
    """Listed values as written: NaN, infinity and integers beyond the log are refused."""
    if not isinstance(parameters, dict):
        return  # the schema names what is wrong
    for name, values in parameters.items():
        if isinstance(values, list):
            try:
                _storable(str(name), values)
            except ValueError as exc:
                raise SuiteError(f"{path}: parameters.{exc}") from None


def _warnings(path: Path, spec: SweepSpec, agent: str) -> list[str]:
    """Model parameters swept on an agent that is not a model: its points may all be one agent."""
    if agent.startswith("model:"):
        return []
    model_only = [p for p in ("temperature", "top_p", "max_tokens") if p in spec.parameters]
    shown = shown_url(agent)
    return [
        f"{path}: parameters.{p}: the base configuration {spec.base} is not a model agent ({shown}); "
        "it receives the value in its params and may ignore it — equal points would then say nothing"
        for p in model_only
    ]


def _prompt_files(path: Path, spec: SweepSpec) -> dict[str, str]:
    values = spec.parameters.get("prompt_file", [])
    if isinstance(values, Range):
        raise SuiteError(f"{path}: parameters.prompt_file: expected a list of file names")
    out: dict[str, str] = {}
    for i, name in enumerate(values):
        target = inside(path, f"parameters.prompt_file.{i}", name)
        try:
            out[str(name)] = target.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SuiteError(
                f"{path}: parameters.prompt_file.{i}: cannot read {target} ({type(exc).__name__})"
            ) from None
    return out
