"""The run plan: one :class:`ConversationPlan` per (configuration, scenario, trial).

A plan is everything one call needs; identical plans give identical events. The
:class:`AgentPool` turns a plan's references into a fresh agent and caller per call.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from polygon.errors import SuiteError
from polygon.events import Expectation, PersonaSnapshot, SaidBefore, conversation_id
from polygon.models import ModelHub
from polygon.recording import Sink
from polygon.simulate.agents import Agent
from polygon.simulate.agents.headers import AgentHeaders, agent_headers
from polygon.simulate.agents.model import ModelAgent
from polygon.simulate.agents.python import python_factory
from polygon.simulate.callers import Caller
from polygon.simulate.callers.model import ModelCaller
from polygon.simulate.callers.scripted import SCRIPTED_CALLER, ScriptedCaller
from polygon.simulate.noise.packs import languages
from polygon.simulate.phone import PhoneSettings
from polygon.suite import LoadedSuite, PersonaSpec, ScenarioSpec, ToolSpec, resolve_factory

if TYPE_CHECKING:
    import httpx


@dataclass(frozen=True)
class ConversationPlan:
    """Everything one call needs; identical plans give identical events."""

    run_id: str
    run_seed: int
    conversation_id: str
    config: str
    scenario: str
    trial: int
    seed: int
    persona: PersonaSnapshot | None
    max_turns: int
    noise_intensity: float
    noise_language: str
    agent_ref: str
    tools: tuple[ToolSpec, ...]
    stores: dict[str, dict[str, str]]
    caller_model: str = "scripted/caller"
    source_conversation: str = ""
    expect: Expectation | None = None
    latency_budget_ms: float = 0.0
    phone: PhoneSettings = PhoneSettings()

    @property
    def noise_key(self) -> str:
        """The noise key: scenario and trial, not configuration.

        So every version under comparison hears the same distortions at the same turn.
        """
        return f"{self.scenario}.{self.trial}"


def check_references(loaded: LoadedSuite, configs: Iterable[str] | None = None) -> None:
    """What the suite names that only the simulator knows, checked before the run writes anything.

    (Agent modules, probe detectors, templates and model references are checked when the
    suite loads; noise languages are the simulator's packs; the environment variables an HTTP
    agent's headers read are checked for the ``configs`` that run, every one by default.)
    """
    for config in loaded.suite.configs if configs is None else configs:
        agent_headers(loaded, config)
    known = languages()
    if loaded.suite.noise.language not in known:
        raise SuiteError(
            f"{loaded.path}: noise.language: no noise language pack {loaded.suite.noise.language!r} "
            f"(available: {', '.join(known)})"
        )
    for persona in loaded.suite.personas:
        if persona.language and persona.language not in known:
            raise SuiteError(
                # the caller, the checks that read speech and the noise all read this pack,
                # whatever the noise is: "no noise language pack" sent users to the noise block
                f"{loaded.path}: personas[{persona.id}].language: the caller and its checks have no "
                f"language pack {persona.language!r} (available: {', '.join(known)})"
            )


def conversation_seed(run_seed: int, scenario: str, trial: int) -> int:
    """A conversation's seed; shared by every configuration meeting this scenario."""
    data = f"conversation\x00{run_seed}\x00{scenario}\x00{trial}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=6).digest(), "big")


def tool_definitions(tools: tuple[ToolSpec, ...]) -> list[dict[str, Any]]:
    """The tools as OpenAI function definitions."""
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in tools
    ]


def plan_run(loaded: LoadedSuite, run_id: str, seed: int, configs: tuple[str, ...]) -> list[ConversationPlan]:
    """Every (configuration, scenario, trial) of the run, in a stable order."""
    return list(iter_plans(loaded, run_id, seed, configs))


def plan_count(loaded: LoadedSuite, configs: tuple[str, ...]) -> int:
    """How many calls :func:`iter_plans` yields."""
    return len(configs) * len(loaded.scenarios()) * loaded.suite.trials


def iter_plans(
    loaded: LoadedSuite, run_id: str, seed: int, configs: tuple[str, ...]
) -> Iterator[ConversationPlan]:
    """:func:`plan_run` one plan at a time (a 20,000-call run never holds them all)."""
    suite = loaded.suite
    tools = tuple(suite.tools)
    knobs = suite.phone
    phone = PhoneSettings(
        barge_in=knobs.barge_in, silence=knobs.silence, self_correction=knobs.self_correction
    )
    # Looked up by id once: ``loaded.persona`` scans the list, so a scan per scenario made
    # planning quadratic in the personas (a suite of 20,000 made 200 million comparisons).
    by_id: dict[str, PersonaSpec] = {}
    for spec in suite.personas:
        by_id.setdefault(spec.id, spec)  # the first of a repeated id, as the scan found
    for config in configs:
        cfg = suite.configs[config]
        for scenario in loaded.scenarios():
            persona = by_id.get(scenario.persona) or loaded.persona(scenario.persona)
            snapshot = persona_snapshot(loaded, persona)
            expect = scenario_expectation(scenario)
            for trial in range(suite.trials):
                yield ConversationPlan(
                    run_id=run_id,
                    run_seed=seed,
                    conversation_id=conversation_id(run_id, config, scenario.id, trial),
                    config=config,
                    scenario=scenario.id,
                    trial=trial,
                    seed=conversation_seed(seed, scenario.id, trial),
                    persona=snapshot,
                    max_turns=scenario.max_turns or suite.max_turns,
                    noise_intensity=suite.noise.intensity,
                    noise_language=persona.language or suite.noise.language,
                    agent_ref=cfg.agent,
                    tools=tools,
                    stores=suite.stores,
                    caller_model=suite.caller.model,
                    expect=expect,
                    latency_budget_ms=suite.latency_budget_ms,
                    phone=phone,
                )


def persona_snapshot(loaded: LoadedSuite, persona: PersonaSpec) -> PersonaSnapshot:
    """The persona as it goes into the log (its language defaults to the suite's noise language)."""
    return PersonaSnapshot(
        persona_id=persona.id,
        type=persona.type,
        outcome=persona.outcome,
        difficulty=persona.difficulty,
        goal=persona.goal,
        facts=dict(persona.facts),
        language=persona.language or loaded.suite.noise.language,
        prompt_hash=persona.prompt_hash,
    )


def scenario_expectation(scenario: ScenarioSpec) -> Expectation | None:
    """The scenario's ``expect`` as it goes into the log."""
    spec = scenario.expect
    if spec is None:
        return None
    return Expectation(
        end=list(spec.end),
        state=spec.state,
        calls=spec.calls,
        no_calls=list(spec.no_calls),
        before=[list(tools) for tools in spec.before],
        says=[list(phrases) for phrases in spec.says],
        says_before=[SaidBefore(phrase=list(s.phrase), tool=s.tool) for s in spec.says_before],
        fallback_end=list(spec.fallback_end),
    )


class AgentPool:
    """Builds one agent and one caller per conversation from the suite's references."""

    def __init__(self, loaded: LoadedSuite, hub: ModelHub) -> None:
        self._loaded = loaded
        self._hub = hub
        self._factories: dict[str, Callable[[], Agent]] = {}
        self._header_values: dict[str, AgentHeaders] = {}
        self._http: httpx.AsyncClient | None = None

    @property
    def http(self) -> httpx.AsyncClient:
        """One HTTP client for every HTTP agent of the run (made, and httpx imported, on first use)."""
        if self._http is None:
            import httpx  # only a suite with an HTTP agent pays for it

            self._http = httpx.AsyncClient()
        return self._http

    def make(self, config: str, sink: Sink) -> Agent:
        """A fresh agent for one call."""
        cfg = self._loaded.suite.configs[config]
        if cfg.agent.startswith(("http://", "https://")):
            from polygon.simulate.agents.http import HttpAgent

            return HttpAgent(
                cfg.agent,
                self.http,
                config=config,
                prompt=self._loaded.prompts[config],
                params=cfg.params,
                headers=self._headers(config),
            )
        if cfg.agent.startswith("model:"):
            ref = cfg.agent.removeprefix("model:")
            client = self._hub.client(ref, sink=sink, role="agent")
            return ModelAgent(client, self._loaded.prompts[config], cfg.params)
        if config not in self._factories:
            resolved = resolve_factory(self._loaded.path, f"configs.{config}.agent", cfg.agent)
            self._factories[config] = python_factory(
                resolved, prompt=self._loaded.prompts[config], params=cfg.params
            )
        return self._factories[config]()

    def _headers(self, config: str) -> AgentHeaders:
        """The configuration's headers, read from the environment once per pool (a worker's own)."""
        if config not in self._header_values:
            self._header_values[config] = agent_headers(self._loaded, config)
        return self._header_values[config]

    def caller(self, plan: ConversationPlan, sink: Sink) -> Caller:
        """The scripted caller offline, or a model playing the persona."""
        assert plan.persona is not None  # planned from the suite: every scenario has one
        if plan.caller_model == SCRIPTED_CALLER:
            return ScriptedCaller(plan.persona, plan.seed)
        client = self._hub.client(
            plan.caller_model, sink=sink, role="caller", conversation_id=plan.conversation_id
        )
        return ModelCaller(client, plan.persona, plan.seed)

    async def aclose(self) -> None:
        """Close the shared HTTP client."""
        if self._http is not None:
            await self._http.aclose()
