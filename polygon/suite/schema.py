"""The suite file's schema (pydantic): configurations, tools, personas, scenarios, noise, judge."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from polygon.boundary import env_names, has_userinfo
from polygon.matching import FACT, OPERATORS
from polygon.suite.empty import empty_list
from polygon.suite.names import DETECTOR_PREFIX, FALLBACK_ENDS, NEWEST_GATING, POLICY_KINDS, SPEECH_DETECTORS
from polygon.suite.probes import ProbeSpec

PERSONA_TYPES = ("cooperative", "busy", "distrustful", "confused", "aggressive", "chatty")
OUTCOMES = ("success", "refusal", "callback", "transfer")
PersonaType = Literal["cooperative", "busy", "distrustful", "confused", "aggressive", "chatty"]
Outcome = Literal["success", "refusal", "callback", "transfer"]


class _Strict(BaseModel):
    # defer_build: the validator is built on the first validation, not on import; a nested model
    # validates inside its root's and never builds its own (tests/test_real_starts.py).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


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
        import regex  # only a `matches` condition needs it: ~0.01 CPU s of loading any suite otherwise

        try:
            regex.compile(str(ref))
        except regex.error as exc:
            raise ValueError(f"{where}: matches {ref!r} is not a regex ({exc})") from None


def check_conditions(conditions: dict[str, Any], where: str) -> dict[str, Any]:
    """Every condition of an argument (or result key) → condition map; ``where`` names each."""
    for name, cond in conditions.items():
        check_condition(where.format(name=name), cond)
    return conditions


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
        return check_conditions(when, "condition on {name!r}")


class StubSpec(_Strict):
    """How a stub tool answers."""

    mode: Literal["fixed", "template", "rules", "stateful"] = "fixed"
    response: Any = None
    template: str = ""
    rules: list[Rule] = Field(default_factory=empty_list)
    default: Any = None
    store: str = ""
    action: Literal["list", "claim", "get", "put", ""] = ""
    key_arg: str = ""
    value: str = ""
    free_value: str = "free"
    # Defaults made without validating: they are known valid (tests/suite/test_schema_defaults.py),
    # and validating one on import built its model's validator, which a suite's own validation
    # never uses (it validates nested models inside its root's): issue 31's start-up.
    latency: LatencySpec = LatencySpec.model_construct()
    faults: FaultSpec = FaultSpec.model_construct()
    on_invalid: Literal["error", "answer"] = "error"

    @model_validator(mode="after")
    def _mode_fields(self) -> StubSpec:
        if self.mode == "template" and not self.template:
            raise ValueError("mode 'template' needs 'template'")
        for field_name, text in (("template", self.template), ("value", self.value)):
            if text:
                import jinja2  # only for a suite with stubs: ~0.15 s of every other command's start

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
    stub: StubSpec = StubSpec.model_construct()  # known valid, not validated on import (see StubSpec)

    @model_validator(mode="after")
    def _stub_names_arguments(self) -> ToolSpec:
        # A rule on an argument the tool does not take never matches: refuse it at load, not silently.
        properties = self.parameters.get("properties")
        declared = "parameters" in self.model_fields_set and isinstance(properties, dict)
        if not declared or self.parameters.get("additionalProperties") not in (None, False):
            return self  # arguments not declared (or any allowed): nothing to check against
        assert isinstance(properties, dict)
        have = ", ".join(sorted(properties)) or "no arguments"
        for i, rule in enumerate(self.stub.rules):
            for arg in rule.when:
                if arg not in properties:
                    raise ValueError(
                        f"stub.rules.{i}.when: no argument {arg!r} in {self.name}'s parameters ({have})"
                    )
        if self.stub.key_arg and self.stub.key_arg not in properties:
            raise ValueError(
                f"stub.key_arg: no argument {self.stub.key_arg!r} in {self.name}'s parameters ({have})"
            )
        return self


BUILT_IN_POLICY = "agent_language"
"""The policy every simulated call holds (polygon/score/agent_language.py): no suite's may share its name."""
PROMPT_POLICY = "prompt_forbids"
"""The policy a call holds when its prompt forbids promising a refund, compensation, …
(polygon/score/prompt_forbids.py): no suite's may share its name either."""


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
    "caller_done",
    "hangup",
    "transfer",
    "max_turns",
    "loop",
    "agent_error",
    "simulator_error",
    "diverged",
    "timeout",  # an imported call the platform ended on silence
]


def _alternatives(value: Any) -> Any:
    """A phrase item: one phrase, or a list of alternative phrases (any one will do).

    A bare number is its digits: YAML reads ``999`` as an int, meant as the phrase "999".
    """
    items = value if isinstance(value, list) else [value]
    return [str(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in items]


def _phrases(where: str, phrases: list[str]) -> list[str]:
    """Alternatives must be given and non-blank: a blank phrase is in every turn (a false pass)."""
    if not phrases or any(not p.strip() for p in phrases):
        raise ValueError(f"{where}: name at least one phrase, none blank")
    return phrases


class SaysBeforeSpec(_Strict):
    """One of ``phrase`` is said in an agent turn before the turn of ``tool``'s first call."""

    phrase: list[str] = Field(description="Alternative phrases, any one of which (case aside) will do.")
    tool: str = Field(description="The tool: the phrase must be said before its first call, if it is called.")

    @field_validator("phrase", mode="before")
    @classmethod
    def _one_or_more(cls, value: Any) -> Any:
        return _alternatives(value)

    @field_validator("phrase")
    @classmethod
    def _given(cls, phrase: list[str]) -> list[str]:
        return _phrases("phrase", phrase)


class ExpectSpec(_Strict):
    """The outcome a scenario expects, judged by the call's end state (how τ-bench grades).

    ``state``: store → key → condition on the final value; ``calls``: tool → argument →
    condition (at least one valid, answered call meets them all; ``tool.argument: cond``
    is the same); ``no_calls``: tools that must not be called; ``end``: the end reasons that
    count; ``says`` / ``says_before``: phrases the agent must say (before a tool's first call).
    A condition is a value, a stub-rule operator, or ``{fact: key}`` (the persona's).
    """

    end: list[EndReason] = Field(default_factory=empty_list)
    state: dict[str, dict[str, Any]] = Field(default_factory=dict)
    calls: dict[str, Any] = Field(default_factory=dict)
    no_calls: list[str] = Field(default_factory=empty_list)
    before: list[list[str]] = Field(
        default_factory=empty_list,
        description=(
            "Order of tool calls: each item lists tools whose first calls must come in this order, "
            "each after a call of the one before that was not refused (``[verify_identity, block_card]``: "
            "verify_identity was called and not refused, an error or ``verified: false``, before block_card)."
        ),
    )

    says: list[list[str]] = Field(
        default_factory=empty_list,
        description=(
            "Speech the agent must say: each item is a phrase or a list of alternative phrases, one of "
            "which (case aside, umlauts and numbers however spelled, as never_say/must_say match) is in "
            "some agent turn "
            "(``[[\"999\", emergency services]]``)."
        ),
    )
    says_before: list[SaysBeforeSpec] = Field(
        default_factory=empty_list,
        description=(
            "Speech before a tool: ``{phrase: [999, emergency services], tool: dispatch_tow}`` (or a list "
            "of them): one phrase is said, and in a turn before the tool's first call when it is called."
        ),
    )
    fallback_end: list[EndReason] = Field(
        default_factory=empty_list,
        description=(
            "End reasons (transfer, caller_done or hangup) that meet ``end``, ``state`` and ``calls`` when "
            "every call of a tool ``calls`` names answered an error (``[transfer]``: with the booking tool "
            "down, a hand-off is right; "
            "faults injected into a stub then test the agent, not the stub)."
        ),
    )

    @field_validator("says", mode="before")
    @classmethod
    def _says_items(cls, value: Any) -> Any:
        return [_alternatives(v) for v in value] if isinstance(value, list) else value

    @field_validator("says")
    @classmethod
    def _says_given(cls, says: list[list[str]]) -> list[list[str]]:
        return [_phrases(f"says.{i}", phrases) for i, phrases in enumerate(says)]

    @field_validator("says_before", mode="before")
    @classmethod
    def _one_order(cls, value: Any) -> Any:
        return [value] if isinstance(value, dict) else value

    @field_validator("before")
    @classmethod
    def _pairs(cls, before: list[list[str]]) -> list[list[str]]:
        for i, tools in enumerate(before):
            if len(tools) < 2:
                raise ValueError(f"before.{i}: name at least two tools, in the order they must be called")
        return before

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


class RequiresSpec(_Strict):
    """``tool`` may be called only after ``after`` answered with a result meeting ``result``."""

    tool: str = Field(description="The guarded tool (``block_card``).")
    after: str = Field(description="The tool that must have answered first (``verify_identity``).")
    result: dict[str, Any] = Field(
        default_factory=dict,
        description="Conditions on ``after``'s result (``{verified: true}``); stub-rule operators.",
    )
    same: list[str] = Field(
        default_factory=empty_list,
        description=(
            "Arguments the guarded call must share with a call of ``after`` that answered so "
            "(``[booking_ref]``: act on the booking that was verified); compared as text, case aside."
        ),
    )

    @field_validator("result")
    @classmethod
    def _conditions(cls, result: dict[str, Any]) -> dict[str, Any]:
        return check_conditions(result, "result.{name}")


class NeverSpec(_Strict):
    """``tool`` is never called; with ``when``, never with arguments meeting every condition."""

    tool: str = Field(description="The tool the agent must not call.")
    when: dict[str, Any] = Field(
        default_factory=dict, description="Argument → condition (stub-rule operators); empty: any call."
    )

    @field_validator("when")
    @classmethod
    def _conditions(cls, when: dict[str, Any]) -> dict[str, Any]:
        return check_conditions(when, "when.{name}")


class MaxCallsSpec(_Strict):
    """``tool`` is called at most ``max`` times in one call."""

    tool: str = Field(description="The tool counted.")
    max: int = Field(ge=0, le=1000, description="The most calls allowed.")


class SpeechSpec(_Strict):
    """Patterns over the agent's speech: any one of them counts."""

    phrases: list[str] = Field(
        default_factory=empty_list,
        description="Literal phrases: case aside, umlauts spelled either way (ü/ue), a number however "
        "it is said (\"112\" meets \"eins eins zwei\"); docs/policies.md.",
    )
    matches: list[str] = Field(
        default_factory=empty_list,
        description="Regular expressions: case aside (``(?-i)`` for case), umlauts spelled either way.",
    )
    detectors: list[str] = Field(
        default_factory=empty_list,
        description="Built-in detectors: card_number (13–19 digits, Luhn, however spaced or spoken; "
        "or written 4-4-4-4 / 4-6-5), email, iban (mod-97, a country's length; written, or the country's "
        "letters then the digits read out), phone_number, disclosure (a name, number or date the "
        "caller's side never put in the call: another person's data, docs/policies.md).",
    )

    @model_validator(mode="after")
    def _something(self) -> SpeechSpec:
        if not (self.phrases or self.matches or self.detectors):
            raise ValueError("name at least one of phrases, matches, detectors")
        for i, phrase in enumerate(self.phrases):
            if not phrase.strip():
                raise ValueError(f"phrases.{i}: an empty phrase would match every agent turn")
        for i, pattern in enumerate(self.matches):
            check_condition(f"matches.{i}", {"matches": pattern})
        for i, name in enumerate(self.detectors):
            if name not in SPEECH_DETECTORS:
                raise ValueError(f"detectors.{i}: no detector {name!r} (have: {', '.join(SPEECH_DETECTORS)})")
        return self


class PolicySpec(_Strict):
    """A named rule over one call's trace, checked on every call (gate: ``check:policy``).

    Exactly one of ``requires``, ``order``, ``never``, ``max_calls``, ``never_say``,
    ``must_say``.
    """

    name: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="The check's name: ``policy:<name>``.")
    description: str = Field("", description="Why the rule exists, for people.")
    requires: RequiresSpec | None = Field(None, description="A tool only after another answered so.")
    order: list[str] = Field(
        default_factory=empty_list, description="Tools that must come in this order when both happen."
    )
    never: NeverSpec | None = Field(None, description="A tool (with argument conditions) never called.")
    max_calls: MaxCallsSpec | None = Field(None, description="A tool called at most so many times.")
    never_say: SpeechSpec | None = Field(None, description="Speech the agent must never produce.")
    must_say: SpeechSpec | None = Field(None, description="Speech the agent must produce at least once.")

    @model_validator(mode="after")
    def _one_kind(self) -> PolicySpec:
        kinds = [k for k in POLICY_KINDS if getattr(self, k)]
        if len(kinds) != 1:
            raise ValueError(
                f"a policy is exactly one of {', '.join(POLICY_KINDS)} (got: {', '.join(kinds) or 'none'})"
            )
        if self.order and len(self.order) < 2:
            raise ValueError("order: name at least two tools")
        return self

    def tools(self) -> list[tuple[str, str]]:
        """(field, tool) for every tool the policy names."""
        out = [(f"order.{i}", t) for i, t in enumerate(self.order)]
        if self.requires is not None:
            out += [("requires.tool", self.requires.tool), ("requires.after", self.requires.after)]
        if self.never is not None:
            out.append(("never.tool", self.never.tool))
        if self.max_calls is not None:
            out.append(("max_calls.tool", self.max_calls.tool))
        return out


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
    headers: dict[str, str] = Field(
        default_factory=dict,
        description="HTTP agents only: headers sent with every step. `${NAME}` in a value is the "
        "environment variable NAME, read when the run starts and never recorded or shown "
        '(`Authorization: "Bearer ${POLYGON_AGENT_TOKEN}"`); `$$` is a dollar sign. An `Authorization` '
        "header and an agent URL with userinfo (`user:password@`, sent as Basic authorization) are "
        "refused together: one would silently replace the other.",
    )

    @field_validator("agent")
    @classmethod
    def _agent_kind(cls, value: str) -> str:
        if not value.startswith(("python:", "http://", "https://", "model:")):
            raise ValueError("must start with python:, http://, https:// or model:")
        return value

    @field_validator("headers")
    @classmethod
    def _headers(cls, value: dict[str, str]) -> dict[str, str]:
        for name, template in value.items():
            if not _HEADER_NAME.fullmatch(name):
                raise ValueError(f"{name!r} is not a header name (letters, digits and !#$%&'*+-.^_`|~)")
            if name.lower() in OWN_HEADERS:
                raise ValueError(f"{name}: Polygon sets this header itself")
            if _HEADER_BREAK.search(template):
                raise ValueError(f"{name}: a header value holds no control characters or line breaks")
            try:
                env_names(template)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from None
        return value

    @model_validator(mode="after")
    def _headers_for_http(self) -> ConfigSpec:
        if self.headers and not self.agent.startswith(("http://", "https://")):
            raise ValueError("headers: only an HTTP agent (http:// or https://) is sent headers")
        if has_userinfo(self.agent) and any(name.lower() == "authorization" for name in self.headers):
            # httpx turns userinfo into Basic auth that wins over the header: the token would never be sent
            raise ValueError(
                "agent: the URL's userinfo (user:password@) is sent as Basic authorization in place of "
                "headers.Authorization; keep one: the header (a ${VAR} keeps its secret out of the suite) "
                "or the userinfo"
            )
        return self


# ASCII classes: the same in `re` as in `regex` (which a suite loads only for a `matches`)
_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_BREAK = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
OWN_HEADERS = ("content-type", "content-length", "host", "transfer-encoding", "connection")
"""Headers the HTTP client writes for every step: a suite may not set them."""


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
    """A caller model reference (the judge's is a JudgeRef)."""

    model: str = "scripted/caller"
    repeats: int = Field(1, ge=1, le=15)
    rubric: str = "v1"  # read only from ``judge``; the caller's keeps its old default, so hashes hold


class JudgeRef(ModelRef):
    """The judge model and the rubric it scores under."""

    rubric: str = NEWEST_GATING
    """A bundled version or a rubric file; unnamed, the newest gating one, not v1 (which let a
    call that broke a policy or missed its ``expect:`` pass). A run records which in
    ``run.started``, so a run made under the old default keeps reporting under its v1."""


class Suite(_Strict):
    """A whole suite file."""

    name: str
    description: str = ""
    seed: int = Field(0, ge=-(2**63), lt=2**63)
    max_turns: int = Field(12, ge=1, le=200)
    trials: int = Field(1, ge=1, le=100)
    configs: dict[str, ConfigSpec]
    tools: list[ToolSpec] = Field(default_factory=empty_list)
    stores: dict[str, dict[str, str]] = Field(default_factory=dict)
    forbidden_phrases: list[str] = Field(default_factory=empty_list)
    """Phrases the agent must never say (case-insensitive); an empty one would match every call.
    ``detector:card_number`` (or ``detector:email``, ``detector:phone_number``) names a detector."""
    policies: list[PolicySpec] = Field(
        default_factory=empty_list,
        description="Declarative rules over each call's trace (tools and speech), each a check "
        "``policy:<name>``; the rubric gate ``check:policy`` fails a call that broke any.",
    )
    policies_from_prompt: bool = Field(
        True,
        description="Read each configuration's prompt for explicit prohibitions of a promise "
        "(\"Never promise a refund\") and fail a call whose agent makes one (the built-in "
        "``policy:prompt_forbids``, docs/policies.md); ``false`` turns it off.",
    )
    latency_budget_ms: float = Field(0.0, ge=0, le=600_000)
    """Budget for the p95 of the agent's turn latency in one call (the ``latency`` check); 0: none."""
    # Known-valid defaults, made without building their validators on import (see StubSpec).
    noise: NoiseSpec = NoiseSpec.model_construct()
    phone: PhoneSpec = PhoneSpec.model_construct()
    caller: ModelRef = ModelRef.model_construct()
    judge: JudgeRef = JudgeRef.model_construct(model="scripted/heuristic")
    probes: list[ProbeSpec] = Field(default_factory=empty_list)
    lint: LintSpec = LintSpec.model_construct()
    """``off``, ``warn`` or ``refuse``, or ``{mode, threshold, tiers}``."""
    probe_model: str = "scripted/detector"
    """Who answers probes in ``polygon run``: the offline detectors, or a model."""
    openai_base_url: str = ""
    """Base URL of an OpenAI-compatible server (else --base-url or OPENAI_BASE_URL)."""
    personas: list[PersonaSpec] = Field(default_factory=empty_list)
    personas_file: str = ""
    """Generated personas (``polygon personas generate``) to add to ``personas``."""
    scenarios: list[ScenarioSpec] = Field(default_factory=empty_list)

    @field_validator("lint", mode="before")
    @classmethod
    def _lint_shorthand(cls, value: Any) -> Any:
        if isinstance(value, bool):  # YAML reads a bare `off` as false and `on` as true
            return {"mode": "warn" if value else "off"}
        return {"mode": value} if isinstance(value, str) else value

    def _check_expect(self, where: str, expect: ExpectSpec, persona_id: str) -> None:
        """Stores, tools and facts an expectation names must exist."""
        if expect.fallback_end and not expect.calls:
            raise ValueError(f"{where}.fallback_end: needs `calls` (the tools whose failure it answers)")
        if broken := [r for r in expect.fallback_end if r not in FALLBACK_ENDS]:
            # a loop or a crash after a failed tool is no hand-off: accepting it would pass a broken agent
            allowed = ", ".join(FALLBACK_ENDS)
            raise ValueError(f"{where}.fallback_end: {broken[0]!r} is no hand-off (use {allowed})")
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
            self._check_arguments(f"{where}.calls.{tool}", tool, args)
        for i, order in enumerate(expect.before):
            for tool in order:
                if tool not in tools:
                    have = ", ".join(sorted(tools)) or "none"
                    raise ValueError(f"{where}.before.{i}: no tool {tool!r} (have: {have})")
        for i, spoken in enumerate(expect.says_before):
            if spoken.tool not in tools:
                have = ", ".join(sorted(tools)) or "none"
                # One order is mostly written as a mapping, not a list: no index to look for then.
                at = f".{i}" if len(expect.says_before) > 1 else ""
                raise ValueError(f"{where}.says_before{at}.tool: no tool {spoken.tool!r} (have: {have})")

    def _check_arguments(self, where: str, tool: str, args: dict[str, Any]) -> None:
        """Argument names must be the tool's own (when its schema lists its properties)."""
        spec = next(t for t in self.tools if t.name == tool)
        props = spec.parameters.get("properties")
        open_schema = spec.parameters.get("additionalProperties") not in (None, False)
        if not isinstance(props, dict) or not props or open_schema:
            return  # names no properties (the default), or takes any: nothing to check against
        for arg in args:
            if arg not in props:
                have = ", ".join(sorted(props)) or "none"
                raise ValueError(f"{where}.{arg}: {tool} has no argument {arg!r} (has: {have})")

    def _check_policies(self) -> None:
        """Tools, arguments and detectors a policy names must exist; names are unique."""
        tools = {t.name for t in self.tools}
        names = [p.name for p in self.policies]
        for p in self.policies:
            where = f"policies[{p.name}]"
            if names.count(p.name) > 1:
                raise ValueError(f"{where}.name: the name {p.name!r} is used twice")
            if p.name in (BUILT_IN_POLICY, PROMPT_POLICY):
                raise ValueError(f"{where}.name: {p.name!r} is the built-in policy's name; choose another")
            for field, tool in p.tools():
                if tool not in tools:
                    have = ", ".join(sorted(tools)) or "none"
                    raise ValueError(f"{where}.{field}: no tool {tool!r} (have: {have})")
            if p.never is not None:
                self._check_arguments(f"{where}.never.when", p.never.tool, p.never.when)
            if p.requires is not None and p.requires.same:
                same = dict.fromkeys(p.requires.same)
                self._check_arguments(f"{where}.requires.same", p.requires.tool, same)
                self._check_arguments(f"{where}.requires.same", p.requires.after, same)
        for i, phrase in enumerate(self.forbidden_phrases):
            name = phrase.removeprefix(DETECTOR_PREFIX)
            if phrase.startswith(DETECTOR_PREFIX) and name not in SPEECH_DETECTORS:
                raise ValueError(
                    f"forbidden_phrases.{i}: no detector {name!r} (have: {', '.join(SPEECH_DETECTORS)})"
                )

    def recorded_policies(self) -> list[dict[str, Any]]:
        """The policies a run records (``run.started``), with a built-in one the suite turned off."""
        recorded = [p.model_dump(mode="json", exclude_defaults=True) for p in self.policies]
        if not self.policies_from_prompt:
            recorded.append({"name": PROMPT_POLICY, "off": True})
        return recorded

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> Suite:
        if not self.configs:
            raise ValueError("configs: at least one configuration is needed")
        ids = [p.id for p in self.personas]
        if not ids and not (info.context or {}).get("personas_optional"):
            raise ValueError("personas: at least one persona is needed (or run `polygon personas generate`)")
        _unique("personas", "id", ids)
        _unique("scenarios", "id", [sc.id for sc in self.scenarios])
        for sc in self.scenarios:  # items with ids are named by them, as field_path names them
            if sc.persona not in ids:
                raise ValueError(f"scenarios[{sc.id}].persona: unknown persona {sc.persona!r}")
            if sc.expect is not None:
                self._check_expect(f"scenarios[{sc.id}].expect", sc.expect, sc.persona)
        _unique("tools", "name", [t.name for t in self.tools])
        for i, phrase in enumerate(self.forbidden_phrases):
            if not phrase.strip():
                raise ValueError(f"forbidden_phrases.{i}: an empty phrase would match every agent turn")
        self._check_policies()
        _unique("probes", "id", [p.id for p in self.probes])
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
                raise ValueError(f"tools[{t.name}].stub.store: unknown store {t.stub.store!r}")
        return self


def _unique(items: str, field: str, keys: list[str]) -> None:
    """Ids name calls, streams and rows: a repeated one would write two calls under one stream."""
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise ValueError(f"{items}[{key}].{field}: the {field} {key!r} is used twice")
        seen.add(key)


def _fact_refs(conds: dict[str, Any]) -> list[str]:
    return [c[FACT] for c in conds.values() if isinstance(c, dict) and FACT in c]


def _check_model_ref(where: str, ref: str, offline: str) -> None:
    provider, sep, name = ref.partition("/")
    if not sep or not name or provider not in ("openai", "local", "scripted"):
        raise ValueError(f"{where}: {ref!r} is not provider/model (openai/…, local/…, scripted/…)")
    if provider == "scripted" and ref != offline:
        hint = f"the offline one here is {offline}" if offline else "use openai/… or local/…"
        raise ValueError(f"{where}: no scripted model {ref!r} ({hint})")
