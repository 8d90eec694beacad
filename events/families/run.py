"""Run-level events: one ``run/ID`` stream per run."""

from __future__ import annotations

from typing import Any

from polygon.events.registry import Event, event_type


@event_type(version=1)
class RunStarted(Event, frozen=True, kw_only=True, tag="run.started"):
    """A run began; fixes everything a resume must find unchanged."""

    run_id: str
    """The run's id (also in the stream name)."""
    suite_name: str
    """Name of the suite from its file."""
    suite_hash: str
    """Content hash of the whole validated suite."""
    prompt_hashes: dict[str, str]
    """Configuration name → content hash of its prompt."""
    seed: int
    """The run seed every other randomness is derived from."""
    configs: list[str]
    """Configuration names, in suite order."""
    scenarios: list[str]
    """Scenario ids, in suite order."""
    trials: int = 1
    """Trials (repeats) per scenario and configuration."""
    source: str = "simulated"
    """``simulated`` or ``imported``."""
    rubric_version: str = ""
    """Rubric version named by the suite (scoring may add others later)."""
    polygon_version: str = ""
    """The Polygon version that started the run."""
    forbidden_phrases: list[str] = []
    """Phrases the agent must never say (the forbidden-phrase check and gate)."""
    policies: list[dict[str, Any]] = []
    """The suite's policies (rules over each call's trace: the ``policy:<name>`` checks and the
    ``check:policy`` gate); runs started before policies existed have none."""
    judge_model: str = ""
    """Judge named by the suite (``scripted/heuristic`` offline)."""
    judge_repeats: int = 1
    """Judge repeats named by the suite."""
    probes: list[dict[str, Any]] = []
    """The suite's custom probes (the built-in library is always available)."""
    prompts: dict[str, str] = {}
    """Configuration → its prompt text, so a judge can read the rules it judges against (runs
    started before this field existed have none: the judge is told the prompt is unknown)."""
    tools: list[dict[str, Any]] = []
    """The tool definitions the agents were given (OpenAI function shapes)."""
    profiles: dict[str, str] = {}
    """Configuration → hash of its profile (agent reference, prompt, parameters, tools): an
    immutable version of what was tested."""


@event_type(version=1)
class RunFinished(Event, frozen=True, kw_only=True, tag="run.finished"):
    """Every conversation of the run has ended."""

    run_id: str
    """The run's id."""
    conversations: int
    """How many conversations the run holds."""
    end_reasons: dict[str, int]
    """End reason → count."""


@event_type(version=1)
class RunHidden(Event, frozen=True, kw_only=True, tag="run.hidden"):
    """The run leaves default views (``polygon runs``, the web UI); nothing of it is deleted."""

    run_id: str
    reason: str = ""
