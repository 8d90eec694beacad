"""``polygon rerun``: re-drive a logged call against another agent configuration.

The source call's caller turns, as the agent heard them, are fed to the new agent one by
one. By default the new call stops at the first turn where the agent parts from the
original (tool calls, ending or wording, the divergence rules); with ``keep_going`` the
scripted caller takes over from there (it needs the source's persona). The new call is an
ordinary conversation in a new run, linked to its source, scored like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from polygon import __version__

# Faces read on use: the rubric, the checks, the call engine, the callers and the languages
# (pydantic models, YAML, regex) load when the rerun first needs them, not at its start (issue 31).
from polygon import score as _score
from polygon import simulate as _simulate
from polygon.app.jobs import driver_hub, jobs_share, keyless, worker_hub
from polygon.app.judge import ScoreSummary, score_run
from polygon.app.passes import start_run
from polygon.app.replay import load_conversation
from polygon.app.stopping import run_stoppable
from polygon.compare import agent_turn_divergence
from polygon.errors import UserInputError, WorkInterrupted
from polygon.events import (
    EventLog,
    Expectation,
    Pending,
    PersonaSnapshot,
    RunStarted,
    conversation_id,
    conversation_stream,
    fresh_id,
    run_stream,
)
from polygon.execute import Executor, InProcessExecutor
from polygon.models import ModelHub, ModelSettings
from polygon.recording import StreamRecorder
from polygon.suite import LoadedSuite
from polygon.transcript import ConversationView, TurnView

if TYPE_CHECKING:
    from polygon.score import LoadedRubric
    from polygon.simulate import AgentReply, ConversationPlan, ToolCall


def _parts(
    turn: int, source: TurnView | None, reply: AgentReply, tools: list[ToolCall], language: str
) -> str | None:
    """Why this agent turn parts from the source's (the divergence rules), or None."""
    found = agent_turn_divergence(
        source, turn, reply.reply, reply.end or "", [(c.name, c.arguments) for c in tools], language
    )
    if found is None:
        return None
    if found.reason == "speakers":
        return "the source call had no agent turn here"
    return f"{found.reason}: {found.detail} ({found.a_text!r} vs {found.b_text!r})"


def _scenario_terms(
    loaded: LoadedSuite, source: ConversationView
) -> tuple[PersonaSnapshot | None, Expectation | None]:
    """The persona and ``expect`` the new call is scored by: the --suite scenario's of the source's id.

    The source's own persona stands in when the suite has no such scenario (then there is no
    ``expect``); without the scenario's terms a re-driven correct call was judged by the weaker
    inferred goal and failed where its source passed.
    """
    recorded = source.started.persona if source.started else None
    name = source.started.scenario if source.started else ""
    scenario = next((s for s in loaded.scenarios() if s.id == name), None)
    if scenario is None:
        return recorded, None
    spec = next((p for p in loaded.suite.personas if p.id == scenario.persona), None)
    persona = _simulate.persona_snapshot(loaded, spec) if spec is not None else recorded
    return persona, _simulate.scenario_expectation(scenario)


@dataclass(frozen=True)
class RerunResult:
    """The re-driven call."""

    run_id: str
    conversation_id: str
    end_reason: str
    diverged_at: int
    detail: str
    scoring: ScoreSummary | None


def rerun_conversation(
    log: EventLog,
    source_id: str,
    loaded: LoadedSuite,
    config: str,
    *,
    keep_going: bool,
    run_id: str,
    hub: ModelHub,
    now: Callable[[], str],
    executor: Executor | None = None,
) -> RerunResult:
    """Re-drive ``source_id`` against ``config`` of ``loaded`` (here, or as a Ray task)."""
    if config not in loaded.suite.configs:
        raise UserInputError(f"{loaded.path}: no configuration {config!r}")
    _simulate.check_references(loaded, (config,))
    source = load_conversation(log, source_id)
    persona, expect = _scenario_terms(loaded, source)
    if keep_going and persona is None:
        raise UserInputError(
            f"{source_id} has no persona (an imported call): the scripted caller cannot take over; "
            "rerun without --continue"
        )
    scenario = source.started.scenario if source.started else "rerun"
    basis = f"{source_id}\0{config}\0{keep_going}\0{now()}"
    run_id = run_id or fresh_id("x", basis, lambda rid: bool(log.stream_length(run_stream(rid))))
    cid = conversation_id(run_id, config, scenario, 0)
    started = RunStarted(
        run_id=run_id,
        suite_name=loaded.suite.name,
        suite_hash=loaded.suite_hash,
        prompt_hashes={config: loaded.prompt_hashes()[config]},
        prompts={config: loaded.prompts[config]},
        tools=_simulate.tool_definitions(tuple(loaded.suite.tools)),
        seed=0,
        configs=[config],
        scenarios=[scenario],
        source="rerun",
        rubric_version=loaded.suite.judge.rubric,
        polygon_version=__version__,
        forbidden_phrases=list(loaded.suite.forbidden_phrases),
        policies=loaded.suite.recorded_policies(),
    )
    start_run(log, started, now)
    seed = source.started.seed if source.started else 0
    plan = _simulate.ConversationPlan(
        run_id=run_id,
        run_seed=0,
        conversation_id=cid,
        config=config,
        scenario=scenario,
        trial=0,
        seed=seed,
        persona=persona,
        max_turns=max(len(source.turns) + (loaded.suite.max_turns if keep_going else 1), 1),
        noise_intensity=0.0,
        noise_language="en",
        agent_ref=loaded.suite.configs[config].agent,
        tools=tuple(loaded.suite.tools),
        stores=loaded.suite.stores,
        caller_model="replay",
        source_conversation=source_id,
        expect=expect,
        latency_budget_ms=loaded.suite.latency_budget_ms,
    )
    job = RedriveJob(loaded, plan, source, keep_going, keyless(hub.settings), now)
    rubric = _score.load_rubric(loaded.suite.judge.rubric)
    try:
        driven, scoring = run_stoppable(
            _drive_and_score(executor or InProcessExecutor(), job, log, rubric, hub, now)
        )
    except KeyboardInterrupt:  # Ctrl-C, at a safe point: the call is written whole or not at all
        raise WorkInterrupted(
            f"interrupted: rerun {run_id} stopped; what it committed is kept (`polygon judge {run_id}` "
            "scores a call it wrote); rerun again for a whole one"
        ) from None
    turn, detail = driven.parted[0] if driven.parted else (0, "")
    return RerunResult(run_id, cid, driven.end_reason, turn, detail, scoring)


async def _drive_and_score(
    executor: Executor,
    job: RedriveJob,
    log: EventLog,
    rubric: LoadedRubric,
    hub: ModelHub,
    now: Callable[[], str],
) -> tuple[Redriven, ScoreSummary]:
    """Drive the call on the executor, then score it here (one event loop, one connection pool)."""
    try:
        with jobs_share(hub):
            [driven] = [d async for d in executor.map(redrive, [job], window=1)]
        log.append(driven.events)
        scoring = await score_run(
            log, job.plan.run_id, rubric=rubric, judge_model="scripted/heuristic", hub=hub, now=now
        )
        return driven, scoring
    finally:
        await hub.aclose()


@dataclass(frozen=True)
class RedriveJob:
    """One re-driven call: picklable, so it runs here or as a Ray task alike."""

    loaded: LoadedSuite
    plan: ConversationPlan
    source: ConversationView
    keep_going: bool
    settings: ModelSettings
    now: Callable[[], str]


@dataclass(frozen=True)
class Redriven:
    """The new call's events, why it ended, and where it parted from the source."""

    events: list[Pending]
    end_reason: str
    parted: list[tuple[int, str]]


async def redrive(job: RedriveJob) -> Redriven:
    """Feed the source's caller turns to the agent: with the driver's hub here, its own on a worker."""
    here = driver_hub()
    if here is not None:
        return await _drive(job, here)
    hub = worker_hub(job.settings)  # the key from the worker's environment
    try:
        return await _drive(job, hub)
    finally:
        await hub.aclose()


async def _drive(job: RedriveJob, hub: ModelHub) -> Redriven:
    plan, source = job.plan, job.source
    persona = plan.persona  # the --suite scenario's, as the new call is scored by
    takeover = _simulate.ScriptedCaller(persona, plan.seed) if job.keep_going and persona else None
    caller = _simulate.ReplayCaller(source, takeover)
    by_turn = {t.turn: t for t in source.turns}
    parted: list[tuple[int, str]] = []
    language = source.language

    def monitor(turn: int, reply: AgentReply, tools: list[ToolCall]) -> str | None:
        if caller.live or parted:
            return None
        why = _parts(turn, by_turn.get(turn), reply, tools, language)
        if why is None:
            return None
        parted.append((turn, why))
        if job.keep_going:
            caller.hand_over()
            return None
        return why

    pool = _simulate.AgentPool(job.loaded, hub)
    recorder = StreamRecorder(
        run_id=plan.run_id,
        stream=conversation_stream(plan.conversation_id),
        conversation=plan.conversation_id,
        seed=plan.seed,
        now=job.now,
    )
    agent = pool.make(plan.config, recorder)
    try:
        reason = await _simulate.Conversation(plan, agent, recorder, caller, monitor).run()
    finally:
        await agent.aclose()
        await pool.aclose()
    return Redriven(recorder.pending, reason, parted)
