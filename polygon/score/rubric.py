"""Rubric files: criteria, weights, what each score means, thresholds and gates.

Bundled versions live in ``rubrics/`` (package data, ``polygon.rubrics``); a path to a
YAML file works too. A rubric is identified by its version and its content hash: the same
version with other content is refused (a change of weights is a new version).
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from polygon.boundary import parse_yaml, read_text
from polygon.errors import SuiteError, UserInputError
from polygon.events import RubricRecorded, content_hash
from polygon.score.checks import AGENT_CHECKS
from polygon.score.criteria import CRITERIA

BUILTIN_GATES = ("forbidden_phrase", "safety_scored_one", "invalid_tool_answer")
CHECK_GATE = "check:"


class Criterion(BaseModel):
    """One criterion of the rubric."""

    # defer_build: the validator is built on the first validation, not on import; a nested model
    # validates inside its root's and never builds its own (tests/test_real_starts.py).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    id: Literal[
        "goal_achievement",
        "instruction_adherence",
        "tool_use",
        "factual_accuracy",
        "dialogue_quality",
        "robustness",
        "safety",
        "persona_tone",
    ]
    weight: int = Field(ge=0, le=100)
    question: str
    levels: dict[int, str]

    @model_validator(mode="after")
    def _five_levels(self) -> Criterion:
        if sorted(self.levels) != [1, 2, 3, 4, 5]:
            raise ValueError(f"{self.id}: levels must describe scores 1 to 5")
        return self


class Rubric(BaseModel):
    """A whole rubric version."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    version: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,32}$")
    pass_at: float = Field(75, ge=0, le=100)
    warn_at: float = Field(50, ge=0, le=100)
    gates: list[str]
    """Built-in gates, or ``check:<id>`` for any deterministic check on the agent."""
    min_scored_weight: float = Field(75, ge=0, le=100)
    """Below this share of the weight scored, or with goal_achievement unscored: inconclusive."""
    criteria: list[Criterion]

    @field_validator("gates")
    @classmethod
    def _known_gates(cls, gates: list[str]) -> list[str]:
        for gate in gates:
            check = gate.removeprefix(CHECK_GATE)
            if gate not in BUILTIN_GATES and not (gate.startswith(CHECK_GATE) and check in AGENT_CHECKS):
                known = ", ".join([*BUILTIN_GATES, *(CHECK_GATE + c for c in AGENT_CHECKS)])
                raise ValueError(f"unknown gate {gate!r} (known: {known})")
        if len(set(gates)) != len(gates):
            raise ValueError("a gate is listed twice")
        return gates

    @model_validator(mode="after")
    def _complete(self) -> Rubric:
        ids = [c.id for c in self.criteria]
        if sorted(ids) != sorted(CRITERIA):
            raise ValueError(f"criteria must be exactly {', '.join(CRITERIA)}")
        if sum(c.weight for c in self.criteria) != 100:
            raise ValueError("criterion weights must sum to 100")
        if self.warn_at > self.pass_at:
            raise ValueError("warn_at must not exceed pass_at")
        return self

    @property
    def weights(self) -> dict[str, int]:
        """Criterion id → weight, in the canonical criterion order."""
        by_id: dict[str, int] = {c.id: c.weight for c in self.criteria}
        return {cid: by_id[cid] for cid in CRITERIA}


class LoadedRubric(BaseModel):
    """A rubric and the hash of the file it came from."""

    model_config = ConfigDict(frozen=True, defer_build=True)
    rubric: Rubric
    rubric_hash: str
    source: str

    def recorded(self, run_id: str) -> RubricRecorded:
        """The event that puts this rubric into a run's stream."""
        r = self.rubric
        return RubricRecorded(
            run_id=run_id,
            version=r.version,
            rubric_hash=self.rubric_hash,
            weights=r.weights,
            pass_at=r.pass_at,
            warn_at=r.warn_at,
            gates=list(r.gates),
            min_scored_weight=r.min_scored_weight,
        )


def bundled_versions() -> list[str]:
    """Versions shipped with Polygon."""
    return sorted(
        p.name.removesuffix(".yaml")
        for p in resources.files("polygon.rubrics").iterdir()
        if p.name.endswith(".yaml")
    )


def load_rubric(ref: str) -> LoadedRubric:
    """A bundled version (``v1``) or a path to a rubric YAML file."""
    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        path = Path(ref)
        return _parsed(read_text(path, "rubric"), str(path))
    if ref not in bundled_versions():
        raise UserInputError(f"no rubric {ref!r}; bundled: {', '.join(bundled_versions())}, or give a path")
    return _bundled(ref)


@functools.cache
def _bundled(ref: str) -> LoadedRubric:
    """A shipped rubric, parsed once per process (a run reads it to warn and again to score)."""
    text = resources.files("polygon.rubrics").joinpath(f"{ref}.yaml").read_text(encoding="utf-8")
    return _parsed(text, f"polygon.rubrics/{ref}.yaml")


def _parsed(text: str, source: str) -> LoadedRubric:
    try:
        rubric = Rubric.model_validate(parse_yaml(text, source, "rubric"))
    except ValidationError as exc:
        raise SuiteError(f"{source}: {_one_line(exc)}") from None
    return LoadedRubric(rubric=rubric, rubric_hash=content_hash(text), source=source)


def _one_line(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        return f"{'.'.join(map(str, err['loc'])) or '(top level)'}: {err['msg']}"
    return f"not valid YAML ({exc})"
