"""Suite files: the agent under test, its configurations, tools, callers and scenarios.

Suites are YAML, validated with pydantic at the authoring edge so that every mistake comes
back as one line naming the file, the field path and what was expected.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import jinja2
import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from polygon.events import content_hash
from polygon.events.errors import SuiteError
from polygon.probes import ProbeSpec

PERSONA_TYPES = ("cooperative", "busy", "distrustful", "confused", "aggressive", "chatty")
OUTCOMES = ("success", "refusal", "callback", "transfer")
RULE_OPERATORS = frozenset({"eq", "ne", "in", "gt", "lt", "exists", "matches"})
PersonaType = Literal["cooperative", "busy", "distrustful", "confused", "aggressive", "chatty"]
Outcome = Literal["success", "refusal", "callback", "transfer"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LatencySpec(_Strict):
    """Simulated latency, drawn uniformly per call from a seeded generator."""

    min_ms: float = Field(0.0, ge=0)
    max_ms: float = Field(0.0, ge=0)


class FaultSpec(_Strict):
    """Probabilities of injected faults per call (checked in this order)."""

    timeout: float = Field(0.0, ge=0, le=1)
    server_error: float = Field(0.0, ge=0, le=1)
    malformed: float = Field(0.0, ge=0, le=1)
    timeout_ms: float = Field(3000.0, ge=0)


class Rule(_Strict):
    """``when`` every condition holds, answer ``respond``.

    A condition maps an argument name to a value (equality) or to one operator:
    ``{eq: v}``, ``{ne: v}``, ``{in: [..]}``, ``{gt: n}``, ``{lt: n}``, ``{exists: bool}``,
    ``{matches: regex}``.
    """

    when: dict[str, Any] = Field(default_factory=dict)
    respond: Any = None
    error: str = ""

    @field_validator("when")
    @classmethod
    def _known_operators(cls, when: dict[str, Any]) -> dict[str, Any]:
        for name, cond in when.items():
            known = isinstance(cond, dict) and len(cond) == 1 and next(iter(cond)) in RULE_OPERATORS
            if isinstance(cond, dict) and not known:
                raise ValueError(
                    f"condition on {name!r} must be a value or one of "
                    f"{{{', '.join(sorted(RULE_OPERATORS))}}}: value"
                )
        return when


class StubSpec(_Strict):
    """How a stub tool answers."""

    mode: Literal["fixed", "template", "rules", "stateful"] = "fixed"
    response: Any = None
    template: str = ""
    rules: list[Rule] = Field(default_factory=list)
    default: Any = None
    store: str = ""
    action: Literal["list", "claim", "get", "put", ""] = ""
    key_arg: str = ""
    value: str = ""
    free_value: str = "free"
    latency: LatencySpec = LatencySpec()
    faults: FaultSpec = FaultSpec()
    on_invalid: Literal["error", "answer"] = "error"

    @model_validator(mode="after")
    def _mode_fields(self) -> StubSpec:
        if self.mode == "template" and not self.template:
            raise ValueError("mode 'template' needs 'template'")
        for field_name, text in (("template", self.template), ("value", self.value)):
            if text:
                try:
                    jinja2.Environment().parse(text)
                except jinja2.TemplateSyntaxError as exc:
                    raise ValueError(
                        f"{field_name}: template syntax error on line {exc.lineno}: {exc.message}"
                    ) from None
        if self.mode == "rules" and not self.rules:
            raise ValueError("mode 'rules' needs at least one rule")
        if self.mode == "stateful" and not (self.store and self.action):
            raise ValueError("mode 'stateful' needs 'store' and 'action'")
        if self.action in ("claim", "get", "put") and not self.key_arg:
            raise ValueError(f"action '{self.action}' needs 'key_arg'")
        return self


class ToolSpec(_Strict):
    """A tool the agent may call, with a JSON schema for its arguments and a stub."""

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$")
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    stub: StubSpec = StubSpec()


class PersonaSpec(_Strict):
    """A simulated caller with ground truth."""

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    type: PersonaType
    outcome: Outcome = "success"
    difficulty: int = Field(2, ge=1, le=5)
    goal: str
    facts: dict[str, str] = Field(default_factory=dict)
    language: str = ""
    prompt_hash: str = ""

    @field_validator("facts", mode="before")
    @classmethod
    def _facts_as_text(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {str(k): str(v) for k, v in value.items()}
        return value


class ScenarioSpec(_Strict):
    """A persona in a situation; every configuration meets every scenario."""

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    persona: str
    max_turns: int | None = Field(None, ge=1, le=200)


class ConfigSpec(_Strict):
    """One configuration of the agent under test."""

    agent: str = Field(description="python:module:factory, http://host:port/path, or model:provider/model")
    prompt_file: str = ""
    prompt: str = ""
    model: str = ""
    params: dict[str, Any] = Field(default_factory=dict)

    @field_validator("agent")
    @classmethod
    def _agent_kind(cls, value: str) -> str:
        if not value.startswith(("python:", "http://", "https://", "model:")):
            raise ValueError("must start with python:, http://, https:// or model:")
        return value


class NoiseSpec(_Strict):
    """ASR noise: one intensity knob and a language pack."""

    intensity: float = Field(0.0, ge=0, le=1)
    language: str = "en"


class ModelRef(_Strict):
    """A caller or judge model reference."""

    model: str = "scripted/caller"
    repeats: int = Field(1, ge=1, le=15)
    rubric: str = "v1"


class Suite(_Strict):
    """A whole suite file."""

    name: str
    description: str = ""
    seed: int = 0
    max_turns: int = Field(12, ge=1, le=200)
    trials: int = Field(1, ge=1, le=100)
    configs: dict[str, ConfigSpec]
    tools: list[ToolSpec] = Field(default_factory=list)
    stores: dict[str, dict[str, str]] = Field(default_factory=dict)
    forbidden_phrases: list[str] = Field(default_factory=list)
    noise: NoiseSpec = NoiseSpec()
    caller: ModelRef = ModelRef()
    judge: ModelRef = ModelRef(model="scripted/heuristic")
    probes: list[ProbeSpec] = Field(default_factory=list)
    probe_model: str = "scripted/detector"
    """Who answers probes in ``polygon run``: the offline detectors, or a model."""
    openai_base_url: str = ""
    """Base URL of an OpenAI-compatible server (else --base-url or OPENAI_BASE_URL)."""
    personas: list[PersonaSpec] = Field(default_factory=list)
    personas_file: str = ""
    """Generated personas (``polygon personas generate``) to add to ``personas``."""
    scenarios: list[ScenarioSpec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> Suite:
        if not self.configs:
            raise ValueError("configs: at least one configuration is needed")
        ids = [p.id for p in self.personas]
        if not ids and not (info.context or {}).get("personas_optional"):
            raise ValueError("personas: at least one persona is needed (or run `polygon personas generate`)")
        if len(set(ids)) != len(ids):
            raise ValueError("personas: ids must be unique")
        for i, sc in enumerate(self.scenarios):
            if sc.persona not in ids:
                raise ValueError(f"scenarios.{i}.persona: unknown persona {sc.persona!r}")
        tools = [t.name for t in self.tools]
        if len(set(tools)) != len(tools):
            raise ValueError("tools: names must be unique")
        for where, ref, offline in (
            ("caller.model", self.caller.model, "scripted/caller"),
            ("judge.model", self.judge.model, "scripted/heuristic"),
            ("probe_model", self.probe_model, "scripted/detector"),
        ):
            _check_model_ref(where, ref, offline)
        for name, cfg in self.configs.items():
            if cfg.agent.startswith("model:"):
                _check_model_ref(f"configs.{name}.agent", cfg.agent.removeprefix("model:"), "")
        for t in self.tools:
            if t.stub.mode == "stateful" and t.stub.store not in self.stores:
                raise ValueError(f"tools.{t.name}.stub.store: unknown store {t.stub.store!r}")
        return self


def _check_model_ref(where: str, ref: str, offline: str) -> None:
    provider, sep, name = ref.partition("/")
    if not sep or not name or provider not in ("openai", "local", "scripted"):
        raise ValueError(f"{where}: {ref!r} is not provider/model (openai/…, local/…, scripted/…)")
    if provider == "scripted" and ref != offline:
        hint = f"the offline one here is {offline}" if offline else "use openai/… or local/…"
        raise ValueError(f"{where}: no scripted model {ref!r} ({hint})")


class LoadedSuite(BaseModel):
    """A validated suite plus what was read beside it (prompts) and its content hash."""

    model_config = ConfigDict(frozen=True)

    path: Path
    suite: Suite
    prompts: dict[str, str]
    suite_hash: str

    def scenarios(self) -> list[ScenarioSpec]:
        """Declared scenarios, or one per persona when none are declared."""
        if self.suite.scenarios:
            return list(self.suite.scenarios)
        return [ScenarioSpec(id=p.id, persona=p.id) for p in self.suite.personas]

    def persona(self, persona_id: str) -> PersonaSpec:
        """The persona with ``persona_id``."""
        return next(p for p in self.suite.personas if p.id == persona_id)

    def prompt_hashes(self) -> dict[str, str]:
        """Configuration → prompt content hash."""
        return {name: content_hash(text) for name, text in sorted(self.prompts.items())}


def load_suite(path: str | Path, *, personas_optional: bool = False) -> LoadedSuite:
    """Read and validate a suite file; any problem is one :class:`SuiteError` line.

    ``personas_optional`` lets a suite without personas load (to generate them).
    """
    path = Path(path)
    if path.is_dir():
        path = path / "suite.yaml"
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SuiteError(f"{path}: no such suite file") from None
    except yaml.YAMLError as exc:
        raise SuiteError(yaml_error(path, exc)) from None
    if not isinstance(raw, dict):
        raise SuiteError(f"{path}: expected a mapping at the top level")
    raw = _with_generated_personas(path, raw)
    try:
        suite = Suite.model_validate(raw, context={"personas_optional": personas_optional})
    except ValidationError as exc:
        raise SuiteError(_first_error(path, exc)) from None
    prompts = {name: _prompt(path, name, cfg) for name, cfg in suite.configs.items()}
    digest = content_hash({"suite": suite.model_dump(mode="json"), "prompts": prompts})
    return LoadedSuite(path=path, suite=suite, prompts=prompts, suite_hash=digest)


def _with_generated_personas(path: Path, raw: dict[str, Any]) -> dict[str, Any]:
    name = raw.get("personas_file")
    if not name:
        return raw
    extra_path = path.parent / str(name)
    if not extra_path.exists():
        return raw  # not generated yet: `polygon personas generate` writes it
    try:
        extra = yaml.safe_load(extra_path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise SuiteError(yaml_error(extra_path, exc)) from None
    if not isinstance(extra, dict) or not isinstance(extra.get("personas", []), list):
        raise SuiteError(f"{extra_path}: expected a mapping with a 'personas' list")
    return {**raw, "personas": [*(raw.get("personas") or []), *extra.get("personas", [])]}


def yaml_error(path: Path, exc: yaml.YAMLError) -> str:
    """One line: the file, line and column, and what the YAML parser expected."""
    mark = getattr(exc, "problem_mark", None)
    where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
    problem = " ".join(str(getattr(exc, "problem", None) or exc).split())
    return f"{path}{where}: not valid YAML ({problem})"


def _prompt(path: Path, name: str, cfg: ConfigSpec) -> str:
    if not cfg.prompt_file:
        return cfg.prompt
    prompt_path = path.parent / cfg.prompt_file
    try:
        return prompt_path.read_text(encoding="utf-8")
    except OSError:
        raise SuiteError(f"{path}: configs.{name}.prompt_file: cannot read {prompt_path}") from None


def _first_error(path: Path, exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
    got = err.get("input")
    shown = "" if isinstance(got, dict | list) or got is None else f" (got {got!r})"
    more = f" [+{exc.error_count() - 1} more]" if exc.error_count() > 1 else ""
    return f"{path}: {loc}: {err['msg']}{shown}{more}"
