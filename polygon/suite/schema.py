"""The suite file's schema (pydantic): configurations, tools, personas, scenarios, noise, judge."""

from __future__ import annotations

from typing import Any, Literal

import jinja2
import regex
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from polygon.matching import FACT, OPERATORS
from polygon.probe.library import ProbeSpec

PERSONA_TYPES = ("cooperative", "busy", "distrustful", "confused", "aggressive", "chatty")
OUTCOMES = ("success", "refusal", "callback", "transfer")
PersonaType = Literal["cooperative", "busy", "distrustful", "confused", "aggressive", "chatty"]
Outcome = Literal["success", "refusal", "callback", "transfer"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LatencySpec(_Strict):
    """Simulated latency, drawn uniformly per call from a seeded generator."""

    min_ms: float = Field(0.0, ge=0, le=600_000)
    max_ms: float = Field(0.0, ge=0, le=600_000)

    @model_validator(mode="after")
    def _ordered(self) -> LatencySpec:
        if self.max_ms and self.min_ms > self.max_ms:
            raise ValueError(f"min_ms {self.min_ms:g} is above max_ms {self.max_ms:g}")
        return self


class FaultSpec(_Strict):
    """Probabilities of injected faults per call (checked in this order)."""

    timeout: float = Field(0.0, ge=0, le=1)
    server_error: float = Field(0.0, ge=0, le=1)
    malformed: float = Field(0.0, ge=0, le=1)
    timeout_ms: float = Field(3000.0, ge=0, le=600_000)

    @model_validator(mode="after")
    def _a_probability(self) -> FaultSpec:
        total = self.timeout + self.server_error + self.malformed
        if total > 1:
            raise ValueError(f"timeout + server_error + malformed is {total:g}: a probability is at most 1")
        return self


def check_condition(where: str, cond: Any, *, facts: bool = False) -> None:
    """A condition is a value or exactly one known operator (``fact`` only in ``expect``)."""
    if not isinstance(cond, dict):
        return
    known = OPERATORS | ({FACT} if facts else set())
    if len(cond) != 1 or next(iter(cond)) not in known:
        raise ValueError(f"{where} must be a value or one of {{{', '.join(sorted(known))}}}: value")
    ((op, ref),) = cond.items()
    if op == FACT and not isinstance(ref, str):
        raise ValueError(f"{where}: fact must name one of the persona's facts")
    if op == "matches":
        try:
            regex.compile(str(ref))
        except regex.error as exc:
            raise ValueError(f"{where}: matches {ref!r} is not a regex ({exc})") from None


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
            check_condition(f"condition on {name!r}", cond)
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


EndReason = Literal[
    "caller_done", "hangup", "transfer", "max_turns", "loop", "agent_error", "simulator_error", "diverged",
    "timeout",  # an imported call the platform ended on silence
]


class ExpectSpec(_Strict):
    """The outcome a scenario expects, judged by the call's end state (how τ-bench grades).

    ``state``: store → key → condition on the final value; ``calls``: tool → argument →
    condition (at least one valid, answered call meets them all; ``tool.argument: cond``
    is the same); ``no_calls``: tools that must not be called; ``end``: the end reasons that
    count. A condition is a value, a stub-rule operator, or ``{fact: key}`` (the persona's).
    """

    end: list[EndReason] = Field(default_factory=list)
    state: dict[str, dict[str, Any]] = Field(default_factory=dict)
    calls: dict[str, Any] = Field(default_factory=dict)
    no_calls: list[str] = Field(default_factory=list)

    @field_validator("calls")
    @classmethod
    def _nested_calls(cls, calls: dict[str, Any]) -> dict[str, dict[str, Any]]:
        nested: dict[str, dict[str, Any]] = {}
        for key, value in calls.items():
            tool, dot, arg = key.partition(".")
            if dot:
                nested.setdefault(tool, {})[arg] = value
            elif isinstance(value, dict):
                nested.setdefault(tool, {}).update(value)
            elif value is None:
                nested.setdefault(tool, {})
            else:
                raise ValueError(f"{key}: expected argument conditions (a mapping), or {key}.ARG: condition")
        for tool, args in nested.items():
            for arg, cond in args.items():
                check_condition(f"{tool}.{arg}", cond, facts=True)
        return nested

    @field_validator("state")
    @classmethod
    def _state_conditions(cls, state: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for store, keys in state.items():
            for key, cond in keys.items():
                check_condition(f"{store}.{key}", cond, facts=True)
        return state


class ScenarioSpec(_Strict):
    """A persona in a situation; every configuration meets every scenario."""

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    persona: str
    max_turns: int | None = Field(None, ge=1, le=200)
    expect: ExpectSpec | None = None


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


class PhoneSpec(_Strict):
    """Phone behaviour: each a probability per caller turn (seeded like the noise)."""

    barge_in: float = Field(0.0, ge=0, le=1)
    """The caller cuts into the agent's reply (it heard only its first words)."""
    silence: float = Field(0.0, ge=0, le=1)
    """The caller says nothing this turn; the agent has to re-prompt."""
    self_correction: float = Field(0.0, ge=0, le=1)
    """The caller says a wrong day, time or number first and corrects itself."""


LintTier = Literal["rules", "surprisal", "embeddings", "judge"]


class LintSpec(_Strict):
    """Read each configuration's prompt before the run (``polygon lint``'s tiers)."""

    mode: Literal["off", "warn", "refuse"] = "warn"
    """``warn`` prints the axes at or above the threshold; ``refuse`` stops before any call."""
    threshold: float = Field(0.5, ge=0, le=1)
    tiers: list[LintTier] = Field(default_factory=lambda: list[LintTier](["rules"]))
    """Tiers to read with (default: the rules tier, milliseconds; others when installed)."""


class ModelRef(_Strict):
    """A caller or judge model reference."""

    model: str = "scripted/caller"
    repeats: int = Field(1, ge=1, le=15)
    rubric: str = "v1"


class Suite(_Strict):
    """A whole suite file."""

    name: str
    description: str = ""
    seed: int = Field(0, ge=-(2**63), lt=2**63)
    max_turns: int = Field(12, ge=1, le=200)
    trials: int = Field(1, ge=1, le=100)
    configs: dict[str, ConfigSpec]
    tools: list[ToolSpec] = Field(default_factory=list)
    stores: dict[str, dict[str, str]] = Field(default_factory=dict)
    forbidden_phrases: list[str] = Field(default_factory=list)
    """Phrases the agent must never say (case-insensitive); an empty one would match every call."""
    latency_budget_ms: float = Field(0.0, ge=0, le=600_000)
    """Budget for the p95 of the agent's turn latency in one call (the ``latency`` check); 0: none."""
    noise: NoiseSpec = NoiseSpec()
    phone: PhoneSpec = PhoneSpec()
    caller: ModelRef = ModelRef()
    judge: ModelRef = ModelRef(model="scripted/heuristic")
    probes: list[ProbeSpec] = Field(default_factory=list)
    lint: LintSpec = LintSpec()
    """``off``, ``warn`` or ``refuse``, or ``{mode, threshold, tiers}``."""
    probe_model: str = "scripted/detector"
    """Who answers probes in ``polygon run``: the offline detectors, or a model."""
    openai_base_url: str = ""
    """Base URL of an OpenAI-compatible server (else --base-url or OPENAI_BASE_URL)."""
    personas: list[PersonaSpec] = Field(default_factory=list)
    personas_file: str = ""
    """Generated personas (``polygon personas generate``) to add to ``personas``."""
    scenarios: list[ScenarioSpec] = Field(default_factory=list)

    @field_validator("lint", mode="before")
    @classmethod
    def _lint_shorthand(cls, value: Any) -> Any:
        if isinstance(value, bool):  # YAML reads a bare `off` as false and `on` as true
            return {"mode": "warn" if value else "off"}
        return {"mode": value} if isinstance(value, str) else value

    def _check_expect(self, where: str, expect: ExpectSpec, persona_id: str) -> None:
        """Stores, tools and facts an expectation names must exist."""
        persona = next(p for p in self.personas if p.id == persona_id)
        tools = {t.name for t in self.tools}
        for store, keys in expect.state.items():
            if store not in self.stores:
                have = ", ".join(self.stores) or "none"
                raise ValueError(f"{where}.state: no store {store!r} (have: {have})")
            for fact in _fact_refs(keys):
                if fact not in persona.facts:
                    raise ValueError(f"{where}.state.{store}: persona {persona_id} has no fact {fact!r}")
        for tool in [*expect.calls, *expect.no_calls]:
            if tool not in tools:
                raise ValueError(f"{where}: no tool {tool!r} (have: {', '.join(sorted(tools)) or 'none'})")
        for tool, args in expect.calls.items():
            for fact in _fact_refs(args):
                if fact not in persona.facts:
                    raise ValueError(f"{where}.calls.{tool}: persona {persona_id} has no fact {fact!r}")

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
            if sc.expect is not None:
                self._check_expect(f"scenarios[{sc.id}].expect", sc.expect, sc.persona)
        tools = [t.name for t in self.tools]
        if len(set(tools)) != len(tools):
            raise ValueError("tools: names must be unique")
        for i, phrase in enumerate(self.forbidden_phrases):
            if not phrase.strip():
                raise ValueError(f"forbidden_phrases.{i}: an empty phrase would match every agent turn")
        probes = [p.id for p in self.probes]
        if len(set(probes)) != len(probes):
            dup = next(p for p in probes if probes.count(p) > 1)
            raise ValueError(f"probes: the id {dup!r} is used twice")
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


def _fact_refs(conds: dict[str, Any]) -> list[str]:
    return [c[FACT] for c in conds.values() if isinstance(c, dict) and FACT in c]


def _check_model_ref(where: str, ref: str, offline: str) -> None:
    provider, sep, name = ref.partition("/")
    if not sep or not name or provider not in ("openai", "local", "scripted"):
        raise ValueError(f"{where}: {ref!r} is not provider/model (openai/…, local/…, scripted/…)")
    if provider == "scripted" and ref != offline:
        hint = f"the offline one here is {offline}" if offline else "use openai/… or local/…"
        raise ValueError(f"{where}: no scripted model {ref!r} ({hint})")
