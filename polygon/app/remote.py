"""Work that runs on an executor's workers, and the driver loops that write what it returns.

A worker runs a whole conversation (caller, noise, agent, stub tools, model calls) or one
call's scoring and probes, and returns the events; the driver appends them in batches — it
stays the single writer. Everything a job carries is picklable: the loaded suite, the plan,
the identities the log already holds (a resumed call appends only what is missing), the
recorded model answers of that call, and model settings *without* the key (each worker
reads ``OPENAI_API_KEY`` from its own environment: its edge).
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from polygon.app.judge import Scoring
from polygon.app.log import call_damage
from polygon.app.passes import DamagedCallError, Visit, damaged_message
from polygon.app.probe import Probing
from polygon.errors import InfrastructureError, PolygonError
from polygon.events import Envelope, EventLog, Pending
from polygon.events.families import ConversationStarted, ModelCalled, RunStarted
from polygon.events.streams import conversation_stream, run_conversations
from polygon.execute import Executor
from polygon.models.hub import ModelHub, ModelSettings
from polygon.probe.answering import answerer_for
from polygon.probe.library import probes_from
from polygon.recording import StreamRecorder
from polygon.score.conversation import JudgeSettings, judge_for
from polygon.score.rubric import LoadedRubric, load_rubric
from polygon.simulate.engine import Conversation
from polygon.simulate.plan import AgentPool, ConversationPlan
from polygon.suite.loading import LoadedSuite

DOWN_AFTER = 6
"""Failed connections in a row (across calls) after which a server is taken as down, as locally."""
BATCH_EVENTS = 2000
BATCH_SECONDS = 0.02
"""The driver commits what workers returned at least this often (as the local group commit)."""


def keyless(settings: ModelSettings) -> ModelSettings:
    """Model settings a job may carry: the key never leaves the driver."""
    return replace(settings, api_key="")


def worker_hub(settings: ModelSettings, recorded: dict[str, dict[str, Any]] | None = None) -> ModelHub:
    """A worker's hub: the job's settings with the key from this process's environment."""
    hub = ModelHub(replace(settings, api_key=os.environ.get("OPENAI_API_KEY", "")))
    if recorded:
        hub.remember(recorded)  # a resumed call replays its recorded answers, never asks again
    return hub


# ---- simulation ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationJob:
    """One conversation to simulate on a worker."""

    loaded: LoadedSuite
    plan: ConversationPlan
    existing: frozenset[str]
    settings: ModelSettings
    recorded: dict[str, dict[str, Any]]
    now: Callable[[], str]


@dataclass(frozen=True)
class SimulationResult:
    """A simulated conversation's new events and why it ended."""

    conversation_id: str
    events: list[Pending]
    end_reason: str
    down: str = ""
    """Why a model server this call used is taken as down (empty when none is)."""
    failing: tuple[int, str] = (0, "")
    """Connections to a server that failed in a row at the call's end, and the server."""
    fault: str = ""
    """Why the worker could not do the call (no key, no module): the run stops, nothing of
    the call is recorded (it is not the agent's error; a resume runs it again)."""


class _Collecting(StreamRecorder):
    """A sink that keeps every flushed event the log does not hold yet."""

    def __init__(self, existing: frozenset[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._existing = existing
        self.collected: list[Pending] = []

    def flush(self) -> None:
        """Keep what is new."""
        self.collected.extend(p for p in self.pending if p.identity not in self._existing)
        self.pending = []


def simulate_one(job: SimulationJob) -> SimulationResult:
    """A whole conversation, in the worker's own event loop."""
    return asyncio.run(_simulate(job))


async def _simulate(job: SimulationJob) -> SimulationResult:
    plan = job.plan
    hub = worker_hub(job.settings, job.recorded or None)
    pool = AgentPool(job.loaded, hub)
    sink = _Collecting(
        job.existing,
        run_id=plan.run_id,
        stream=conversation_stream(plan.conversation_id),
        conversation=plan.conversation_id,
        seed=plan.seed,
        now=job.now,
    )
    try:
        agent = pool.make(plan.config, sink)
    except (ImportError, PolygonError) as exc:  # the driver made it at load: this worker cannot
        await pool.aclose()
        await hub.aclose()
        return SimulationResult(
            plan.conversation_id, [], "", fault=worker_fault(f"cannot make the agent: {exc}")
        )
    try:
        reason = await Conversation(plan, agent, sink, pool.caller(plan, sink)).run()
        down, failing, refused = hub.unreachable(), hub.failing(), hub.refused()
    finally:
        await agent.aclose()
        await pool.aclose()
        await hub.aclose()
    if refused:
        return SimulationResult(plan.conversation_id, [], reason, fault=worker_fault(refused))
    sink.flush()
    return SimulationResult(plan.conversation_id, sink.collected, reason, down, failing)


def worker_fault(problem: str) -> str:
    """A worker's fault in one line, naming the worker (and the key its environment lacks)."""
    where = f"a worker on {socket.gethostname()} (pid {os.getpid()})"
    if "API key" in problem and not os.environ.get("OPENAI_API_KEY"):
        problem += "; OPENAI_API_KEY is not set there (set it on every node)"
    return f"{where}: {problem}"


def simulate_on(
    executor: Executor,
    log: EventLog,
    loaded: LoadedSuite,
    plans: Iterable[ConversationPlan],
    settings: ModelSettings,
    *,
    window: int,
    now: Callable[[], str],
    finished: Callable[[int], None],
    on_end: Callable[[str], None],
) -> str:
    """Every plan on the executor; what each returns appended by this driver, in batches.

    Returns why a model server is down when a call found it so: no further call is started
    (as locally); results still in flight are dropped, and a resume runs those calls again.
    """

    def jobs() -> Iterator[SimulationJob]:
        for plan in plans:
            stream = conversation_stream(plan.conversation_id)
            held = list(log.read_stream(stream)) if log.stream_length(stream) else []
            recorded = {
                e.payload.request_hash: e.payload.response
                for e in held
                if isinstance(e.payload, ModelCalled) and e.payload.response is not None
            }
            yield SimulationJob(
                loaded, plan, frozenset(e.identity for e in held), keyless(settings), recorded, now
            )

    down, streak = "", 0
    with _Batches(log) as batches:
        for done, result in enumerate(executor.map(simulate_one, jobs(), window=window), start=1):
            if result.fault:  # what arrived before is committed; this call and later ones are not
                raise InfrastructureError(result.fault)
            batches.add(result.events)
            on_end(result.end_reason)
            finished(done)
            # Each worker has its own client, so "down" is also judged across calls: failed
            # connections in a row, summed while no call reaches the server.
            failed, url = result.failing
            streak = streak + failed if failed else 0
            if result.down or streak >= DOWN_AFTER:
                down = (
                    result.down or f"model server {url} is unreachable: {streak} connections in a row failed"
                )
                break  # the generator stops: no new job is submitted
    return down


# ---- scoring and probes --------------------------------------------------------------------


@dataclass(frozen=True)
class PassRecipe:
    """How a worker makes the visitors of a pass (clients are made there, not shipped)."""

    started: RunStarted
    settings: ModelSettings
    judge_model: str = ""
    rubric: LoadedRubric | None = None
    repeats: int = 1
    new_pass: int = 0
    probe_model: str = ""
    """Empty: no probes in this pass."""
    extra_probes: tuple[dict[str, object], ...] = ()

    def visitors(self, hub: ModelHub) -> tuple[Scoring | None, Probing | None]:
        """The scoring and probing visitors this pass asks for."""
        scoring = None
        if self.rubric is not None:
            judge = JudgeSettings(
                rubric=self.rubric,
                judge=judge_for(self.judge_model, hub),
                repeats=self.repeats,
                new_pass=self.new_pass,
            )
            scoring = Scoring(self.started, judge)
        probing = None
        if self.probe_model:
            answerer = answerer_for(self.probe_model, hub)
            probing = Probing(probes_from([*self.started.probes, *self.extra_probes]), answerer)
        return scoring, probing


def run_recipe(loaded: LoadedSuite, started: RunStarted, settings: ModelSettings) -> PassRecipe:
    """What ``polygon run`` scores and probes with: the suite's judge, rubric and probe model."""
    judge = loaded.suite.judge
    return PassRecipe(
        started=started,
        settings=keyless(settings),
        judge_model=judge.model,
        rubric=load_rubric(judge.rubric),
        repeats=judge.repeats,
        probe_model=loaded.suite.probe_model,
    )


@dataclass(frozen=True)
class VisitJob:
    """One call's events, to score and probe on a worker."""

    recipe: PassRecipe
    events: list[Envelope]
    now: Callable[[], str]


@dataclass(frozen=True)
class VisitResult:
    """What a visit recorded, and how many were new or already there."""

    events: list[Pending]
    scored: int = 0
    scored_before: int = 0
    probed: int = 0
    probed_before: int = 0
    fault: str = ""
    """Why the worker could not score or probe the call (nothing of it is recorded)."""


def visit_one(job: VisitJob) -> VisitResult:
    """Score and probe one call in the worker's own event loop."""
    return asyncio.run(_visit(job))


async def _visit(job: VisitJob) -> VisitResult:
    hub = worker_hub(job.recipe.settings)
    head = job.events[0].payload
    if not isinstance(head, ConversationStarted):  # the driver sends whole calls only
        raise DamagedCallError(f"{job.events[0].stream}: does not start with conversation.started")
    sink = StreamRecorder(
        run_id=job.recipe.started.run_id,
        stream=job.events[0].stream,
        conversation=head.conversation_id,
        seed=head.seed,
        now=job.now,
    )
    visit = Visit(job.events, head, sink)
    try:
        scoring, probing = job.recipe.visitors(hub)
        if scoring is not None:
            await scoring.visit(visit)
        if probing is not None:
            await probing.visit(visit)
        refused = hub.refused()
    except (ImportError, PolygonError) as exc:
        return VisitResult([], fault=worker_fault(f"cannot score the call: {exc}"))
    finally:
        await hub.aclose()
    if refused:
        return VisitResult([], fault=worker_fault(refused))
    return VisitResult(
        sink.pending,
        scoring.done if scoring else 0,
        scoring.already if scoring else 0,
        probing.new if probing else 0,
        probing.already if probing else 0,
    )


def visit_on(
    executor: Executor,
    log: EventLog,
    recipe: PassRecipe,
    *,
    window: int,
    now: Callable[[], str],
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> VisitResult:
    """Every conversation of the run scored and probed on the executor; totals returned."""
    streams = list(log.streams(run_conversations(recipe.started.run_id)))
    jobs = (VisitJob(recipe, _whole_call(log, recipe.started.run_id, s), now) for s in streams)
    totals = [0, 0, 0, 0]
    with _Batches(log) as batches:
        for done, result in enumerate(executor.map(visit_one, jobs, window=window), start=1):
            if result.fault:
                raise InfrastructureError(result.fault)
            batches.add(result.events)
            for i, n in enumerate((result.scored, result.scored_before, result.probed, result.probed_before)):
                totals[i] += n
            progress(done, len(streams))
    scored, before, probed, probed_before = totals
    return VisitResult([], scored, before, probed, probed_before)


def _whole_call(log: EventLog, run_id: str, stream: str) -> list[Envelope]:
    """A call's events, refused in one line (as a local pass does) when they are not whole."""
    events = list(log.read_stream(stream))
    damage = call_damage(events)
    if damage or not events or not isinstance(events[0].payload, ConversationStarted):
        raise DamagedCallError(damaged_message(run_id, stream, damage))
    return events


def visit_on_ray(
    log: EventLog,
    recipe: PassRecipe,
    hub: ModelHub,
    *,
    ray_address: str,
    window: int,
    now: Callable[[], str],
    progress: Callable[[int, int], None],
) -> VisitResult:
    """A whole pass (``judge`` or ``probe``) on Ray; the driver's hub is closed after."""
    from polygon.execute.ray import RayExecutor

    executor = RayExecutor(ray_address or None)
    try:
        return visit_on(executor, log, recipe, window=window, now=now, progress=progress)
    except InfrastructureError as exc:
        hint = "fix it, then run the same command again (what was recorded is kept, never asked twice)"
        raise InfrastructureError(f"{exc}; {hint}") from None
    finally:
        executor.close()
        asyncio.run(hub.aclose())


class _Batches:
    """The driver's group commit for results that come back whole (never split by a commit)."""

    def __init__(self, log: EventLog) -> None:
        self._log = log
        self._held: list[Pending] = []
        self._since = time.monotonic()

    def __enter__(self) -> _Batches:
        return self

    def __exit__(self, *exc: object) -> None:
        self.commit()  # what arrived before a failure is kept: a resume skips it

    def add(self, events: list[Pending]) -> None:
        self._held.extend(events)
        if len(self._held) >= BATCH_EVENTS or time.monotonic() - self._since >= BATCH_SECONDS:
            self.commit()

    def commit(self) -> None:
        if self._held:
            self._log.append(self._held)
        self._held = []
        self._since = time.monotonic()
