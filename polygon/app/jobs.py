"""The units of work (a whole conversation, one call's scoring and probes), and their drivers.

The driver loops commit what the jobs return.

A job runs on whichever executor the command chose (``polygon.execute``): in this process,
or on a Ray worker. Either way the driver stays the single writer: it hands what each job
returns to one group-commit writer. Everything a job carries is picklable: the loaded
suite, the plan, the identities the log already holds (a resumed call appends only what is
missing), the recorded model answers of that call, and model settings *without* the key.

Where a job runs decides its model hub (:func:`driver_hub`): in the driver's process it uses
the driver's hub (one connection pool, one judgement of a dead server for the whole run);
on a worker it makes its own, with the key from that worker's environment (its edge).
"""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable, Iterator
from contextlib import aclosing, asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from polygon.app.log import call_damage
from polygon.app.passes import DamagedCallError, Visit, damaged_message
from polygon.app.progress import Progress, no_progress
from polygon.app.stopping import run_stoppable
from polygon.errors import InfrastructureError, ModelServerDownError, PolygonError
from polygon.events import (
    Envelope,
    EventLog,
    LmdbLog,
    ModelCalled,
    Pending,
    Prepared,
    RunStarted,
    conversation_stream,
    run_conversations,
)
from polygon.execute import Executor, InProcessExecutor
from polygon.models import ModelHub, ModelSettings
from polygon.projections import fold_conversation_head
from polygon.recording import ConversationSink, GroupWriter, StreamRecorder

if TYPE_CHECKING:
    from polygon.app.probing import Probing
    from polygon.app.scoring import Scoring
    from polygon.score import LoadedRubric
    from polygon.simulate import Agent, AgentPool, ConversationPlan
    from polygon.suite import LoadedSuite  # a loaded suite comes in; a pass never loads one

# The simulation's modules (agents, callers and the languages they speak) are imported where a
# call is simulated: a scoring or probing pass (judge, probe, import) never simulates one. The
# scoring stack (checks, rubric models, judges) likewise where a pass scores: a probe pass never does.

DOWN_AFTER = 6
"""Failed connections in a row (across calls) after which a server is taken as down, as locally."""

_DRIVER_HUB: ContextVar[ModelHub | None] = ContextVar("driver_hub", default=None)
"""The driver's hub while its jobs run in its own process (unset on a worker)."""


KEEP_BYTES = 4 * 1024 * 1024
"""What a run holds of its calls for its scoring pass (format-1 records, ~10 KB a call in the
bench's calls, so ~400 calls; the calls past it are read back from the log). Bounded, so a
run's heap stays flat however many calls it makes: the keep is full, and the same size, in
every run past a few hundred calls. 16 MiB cost ~30 MB of heap (records made on the writer's
thread), which a 20k run held beside its 1k baseline: 1.29x the 1k run's peak heap."""


@contextmanager
def calls_kept(log: EventLog) -> Iterator[None]:
    """The calls simulated meanwhile are kept for the pass's first read (up to :data:`KEEP_BYTES`).

    The pass then reads a kept call from memory, not the log: the same records, decoded the
    same way (``polygon.events.kept``). A log held in memory already keeps everything.
    """
    if not isinstance(log, LmdbLog) or KEEP_BYTES <= 0:
        yield
        return
    with log.keeping(KEEP_BYTES):
        yield


def keyless(settings: ModelSettings) -> ModelSettings:
    """Model settings a job may carry: the key never leaves the driver."""
    return replace(settings, api_key="")


def worker_hub(settings: ModelSettings, recorded: dict[str, dict[str, Any]] | None = None) -> ModelHub:
    """A worker's hub: the job's settings with the key from this process's environment."""
    hub = ModelHub(replace(settings, api_key=os.environ.get("OPENAI_API_KEY", "")))
    if recorded:
        hub.remember(recorded)  # a resumed call replays its recorded answers, never asks again
    return hub


@contextmanager
def jobs_share(hub: ModelHub) -> Iterator[None]:
    """Jobs started in this context, in this process, use ``hub`` (the driver closes it)."""
    token = _DRIVER_HUB.set(hub)
    try:
        yield
    finally:
        _DRIVER_HUB.reset(token)


def driver_hub() -> ModelHub | None:
    """The driver's hub when the job runs in the driver's process; None on a worker."""
    return _DRIVER_HUB.get()


@dataclass(frozen=True)
class _Here:
    """What a conversation job shares with the driver when it runs in the driver's process."""

    hub: ModelHub
    pool: AgentPool
    writer: GroupWriter
    keep: bool = False
    """Each new call's events are kept whole for whoever hears of its end (``simulate_on``'s ``on_call``)."""


_SIMULATING_HERE: ContextVar[_Here | None] = ContextVar("simulating_here", default=None)
_PASS_WRITER: ContextVar[GroupWriter | None] = ContextVar("pass_writer", default=None)
"""The driver's writer while a pass's jobs run in its own process (they hand their events over)."""
_PASS_ABORT: ContextVar[Callable[[], str]] = ContextVar("pass_abort", default=lambda: "")
"""The driver's reason to stop a pass (a server the pass asks found down), for the jobs run here."""


@asynccontextmanager
async def group_commit(log: EventLog) -> AsyncIterator[GroupWriter]:
    """The driver's one writer: what jobs return is committed every 20 ms (and at the end).

    Leaving it waits until everything submitted is durable (or raises why it is not).
    """
    import asyncio  # ~0.025 CPU s, loaded by the work that runs a loop, not at a start (issue 31)

    writer = GroupWriter(log)
    stop = asyncio.Event()
    pump = asyncio.create_task(writer.pump(stop))
    try:
        yield writer
    finally:  # what arrived before a failure is kept: a resume skips it
        stop.set()
        try:
            await pump
        finally:  # a cancelled pump never closed: no commit may outlive the log it writes
            writer.close()


def worker_fault(problem: str) -> str:
    """A worker's fault in one line, naming the worker (and the key its environment lacks)."""
    import socket  # only a fault names its host (~0.004 CPU s off every start that runs a pass)

    where = f"a worker on {socket.gethostname()} (pid {os.getpid()})"
    if "API key" in problem and not os.environ.get("OPENAI_API_KEY"):
        problem += "; OPENAI_API_KEY is not set there (set it on every node)"
    return f"{where}: {problem}"


# ---- simulation ---------------------------------------------------------------------------

CallEnded = Callable[[str, list[Prepared] | None], None]
"""Hears a call that ended (its id), with its events when they were kept whole (else None)."""


@dataclass(frozen=True)
class SimulationJob:
    """One conversation to simulate."""

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
    skipped: bool = False
    """Not started: the driver's hub already knows a model server it needs is down."""
    made: list[Prepared] | None = None
    """Made here and kept (:class:`_Here`'s ``keep``): the whole call, as handed to the writer."""


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


async def simulate_one(job: SimulationJob) -> SimulationResult:
    """A whole conversation: streamed to the driver's writer here, collected on a worker."""
    here = _SIMULATING_HERE.get()
    if here is not None:
        return await _simulate_here(job, here)
    return await _simulate_on_worker(job)


async def _simulate_here(job: SimulationJob, here: _Here) -> SimulationResult:
    """Every exchange committed as it happens (a killed run keeps it); errors go up as they are."""
    plan = job.plan
    if here.hub.unreachable():  # no new call against a dead server: it would only fail after retries
        return SimulationResult(plan.conversation_id, [], "", skipped=True)
    sink = ConversationSink(
        here.writer,
        run_id=plan.run_id,
        stream=conversation_stream(plan.conversation_id),
        conversation=plan.conversation_id,
        seed=plan.seed,
        now=job.now,
        existing=job.existing,
        keep=here.keep and not job.existing,  # a call the log holds some of is read back whole
    )
    from polygon.simulate import Conversation

    agent = here.pool.make(plan.config, sink)
    try:
        reason = await Conversation(plan, agent, sink, here.pool.caller(plan, sink)).run()
    finally:
        await agent.aclose()
    return SimulationResult(plan.conversation_id, [], reason, made=sink.made)


async def _simulate_on_worker(job: SimulationJob) -> SimulationResult:
    """A whole conversation in the worker's own hub; its new events go back to the driver."""
    from polygon.simulate import AgentPool

    plan = job.plan
    hub = worker_hub(job.settings, job.recorded or None)
    pool = AgentPool(job.loaded, hub)
    sink = collecting_sink(plan, job.existing, job.now)
    try:
        agent = pool.make(plan.config, sink)
    except (ImportError, PolygonError) as exc:  # the driver made it at load: this worker cannot
        await pool.aclose()
        await hub.aclose()
        return SimulationResult(
            plan.conversation_id, [], "", fault=worker_fault(f"cannot make the agent: {exc}")
        )
    try:
        reason = await collect_call(plan, agent, pool, sink)
        down, failing, refused = hub.unreachable(), hub.failing(), hub.refused()
    finally:
        await pool.aclose()
        await hub.aclose()
    if refused:
        return SimulationResult(plan.conversation_id, [], reason, fault=worker_fault(refused))
    return SimulationResult(plan.conversation_id, sink.collected, reason, down, failing)


def collecting_sink(plan: ConversationPlan, existing: frozenset[str], now: Callable[[], str]) -> _Collecting:
    """A call's sink outside the driver: it keeps what the log does not hold yet, to return."""
    return _Collecting(
        existing,
        run_id=plan.run_id,
        stream=conversation_stream(plan.conversation_id),
        conversation=plan.conversation_id,
        seed=plan.seed,
        now=now,
    )


async def collect_call(plan: ConversationPlan, agent: Agent, pool: AgentPool, sink: _Collecting) -> str:
    """A whole call away from the driver, its events in ``sink.collected``; why it ended."""
    from polygon.simulate import Conversation

    try:
        return await Conversation(plan, agent, sink, pool.caller(plan, sink)).run()
    finally:
        await agent.aclose()
        sink.flush()


def simulation_jobs(
    log: EventLog,
    loaded: LoadedSuite,
    plans: Iterable[ConversationPlan],
    settings: ModelSettings,
    now: Callable[[], str],
) -> Iterator[SimulationJob]:
    """A job per plan, made as it starts: what the log holds of the call, and its model answers.

    A run the log holds no call of (a new run) is not asked about each call: one look at
    its stream prefix, before the first job, answers for all of them (only this run's jobs,
    one per call, write under it, so nothing a later plan would find appears meanwhile).
    """
    empty: dict[str, bool] = {}  # run id -> the log held no call of it when its first job was made
    carried = keyless(settings)  # one copy for every job, not one per call
    for plan in plans:
        stream = conversation_stream(plan.conversation_id)
        if plan.run_id not in empty:
            empty[plan.run_id] = next(log.streams(run_conversations(plan.run_id)), None) is None
        skip = empty[plan.run_id] and stream.startswith(run_conversations(plan.run_id))
        held = [] if skip or not log.stream_length(stream) else list(log.read_stream(stream))
        recorded = {
            e.payload.request_hash: e.payload.response
            for e in held
            if isinstance(e.payload, ModelCalled) and e.payload.response is not None
        }
        yield SimulationJob(loaded, plan, frozenset(e.identity for e in held), carried, recorded, now)


@dataclass
class Simulated:
    """What the driver saw of a dead model server.

    Calls not started (the driver's hub found it down), or why a worker's server is taken
    as down (the driver stopped drawing calls).
    """

    skipped: int = 0
    down: str = ""


async def simulate_on(
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
    writer: GroupWriter | None = None,
    on_call: CallEnded | None = None,
) -> Simulated:
    """Every plan on the executor; this driver commits what each call writes or returns.

    Jobs that run here share the driver's hub, agent pool and writer (``writer``, else one
    set up here); a worker's come back whole. A worker's dead server stops the drawing of
    calls (results still in flight are dropped, and a resume runs those calls again).
    ``on_call`` hears each call that ended once all its events are handed to the writer,
    with those events when the call was made here and the log held none of it before.
    """
    from polygon.simulate import AgentPool

    hub = driver_hub()
    pool = AgentPool(loaded, hub) if hub is not None else None
    jobs = simulation_jobs(log, loaded, plans, settings, now)

    async def simulate(writer: GroupWriter) -> Simulated:
        here = _Here(hub, pool, writer, keep=on_call is not None) if hub and pool else None
        token = _SIMULATING_HERE.set(here)
        try:
            async with aclosing(executor.map(simulate_one, jobs, window=window)) as results:
                return await _collect(results, writer, finished, on_end, on_call)
        finally:
            _SIMULATING_HERE.reset(token)

    try:
        if writer is not None:
            return await simulate(writer)
        async with group_commit(log) as own:
            return await simulate(own)
    finally:
        if pool is not None:
            await pool.aclose()


async def _collect(
    results: AsyncGenerator[SimulationResult, None],
    writer: GroupWriter,
    finished: Callable[[int], None],
    on_end: Callable[[str], None],
    on_call: CallEnded | None,
) -> Simulated:
    seen = Simulated()
    done = streak = 0
    async for result in results:
        if result.fault:  # what arrived before is committed; this call and later ones are not
            raise InfrastructureError(result.fault)
        if result.skipped:
            seen.skipped += 1
            continue
        writer.submit(result.events)
        on_end(result.end_reason)
        if on_call is not None:
            on_call(result.conversation_id, result.made)
        done += 1
        finished(done)
        # Each worker has its own client, so "down" is also judged across calls: failed
        # connections in a row, summed while no call reaches the server.
        failed, url = result.failing
        streak = streak + failed if failed else 0
        if result.down or streak >= DOWN_AFTER:
            seen.down = (
                result.down or f"model server {url} is unreachable: {streak} connections in a row failed"
            )
            break  # no new job is drawn
    return seen


# ---- scoring and probes --------------------------------------------------------------------


@dataclass(frozen=True)
class PassRecipe:
    """How a job makes the visitors of a pass (clients are made where it runs, not shipped)."""

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
            from polygon.app.scoring import Scoring
            from polygon.score import JudgeSettings, judge_for

            judge = JudgeSettings(
                rubric=self.rubric,
                judge=judge_for(self.judge_model, hub),
                repeats=self.repeats,
                new_pass=self.new_pass,
            )
            scoring = Scoring(self.started, judge)
        probing = None
        if self.probe_model:
            # Only a pass that probes loads the probe library and the languages its detectors
            # read (pydantic models, YAML, regex): a judge pass never does.
            from polygon.app.probing import Probing
            from polygon.probe import answerer_for, probes_from

            answerer = answerer_for(self.probe_model, hub)
            probing = Probing(probes_from([*self.started.probes, *self.extra_probes]), answerer)
        return scoring, probing


def run_recipe(
    loaded: LoadedSuite, started: RunStarted, settings: ModelSettings, rubric: LoadedRubric | None = None
) -> PassRecipe:
    """What ``polygon run`` scores and probes with: the suite's judge, rubric and probe model.

    ``rubric``: the suite's rubric when the caller has loaded it already (the run has, to
    record the scoring pass): the same one, not parsed again, and not a file edited since.
    """
    from polygon.score import load_rubric

    judge = loaded.suite.judge
    return PassRecipe(
        started=started,
        settings=keyless(settings),
        judge_model=judge.model,
        rubric=rubric or load_rubric(judge.rubric),
        repeats=judge.repeats,
        probe_model=loaded.suite.probe_model,
    )


@dataclass(frozen=True)
class VisitJob:
    """One call's events, to score and probe."""

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
    down: str = ""
    """A model server the visit needed was found down: nothing of the call is recorded (what
    it did record would be the failures, not the model's answers), and the pass stops."""


async def visit_one(job: VisitJob) -> VisitResult:
    """Score and probe one call: with the driver's hub here, with its own on a worker."""
    here, writer = driver_hub(), _PASS_WRITER.get()
    if here is not None and writer is not None:  # the driver's errors are its own: they go up as they are
        result = await visit_events(job, here)
        if reason := _PASS_ABORT.get()():
            return VisitResult([], down=reason)
        if result.events:  # the conversation's events whole, the moment they are made
            writer.submit(result.events)
        return replace(result, events=[])
    hub = worker_hub(job.recipe.settings)
    try:
        result = await visit_events(job, hub)
        refused = hub.refused()
        if reason := hub.unreachable():
            return VisitResult([], down=reason)
    except (ImportError, PolygonError) as exc:
        return VisitResult([], fault=worker_fault(f"cannot score the call: {exc}"))
    finally:
        await hub.aclose()
    if refused:
        return VisitResult([], fault=worker_fault(refused))
    return result


async def visit_events(job: VisitJob, hub: ModelHub) -> VisitResult:
    """One call scored and probed with ``hub``; the events it made are returned, not written."""
    found = fold_conversation_head(job.events)
    if found is None:  # the driver sends whole calls only
        raise DamagedCallError(f"{job.events[0].stream}: does not start with conversation.started")
    head = found.started
    sink = StreamRecorder(
        run_id=job.recipe.started.run_id,
        stream=job.events[0].stream,
        conversation=head.conversation_id,
        seed=head.seed,
        now=job.now,
    )
    visit = Visit(job.events, found, sink)
    scoring, probing = job.recipe.visitors(hub)
    if scoring is not None:
        await scoring.visit(visit)
    if probing is not None:
        await probing.visit(visit)
    return VisitResult(
        sink.pending,
        scoring.done if scoring else 0,
        scoring.already if scoring else 0,
        probing.new if probing else 0,
        probing.already if probing else 0,
    )


async def visit_on(
    executor: Executor,
    log: EventLog,
    recipe: PassRecipe,
    *,
    window: int,
    now: Callable[[], str],
    progress: Progress = no_progress,
    abort: Callable[[], str] = lambda: "",
) -> VisitResult:
    """Every conversation of the run scored and probed on the executor; totals returned.

    ``abort`` names a reason to stop (a model server that is down): no further call is
    started, what was done so far is committed, and running the pass again finishes it.
    """
    run_id = recipe.started.run_id
    prefix = run_conversations(run_id)
    # Counted, then read again page by page: a list of every name held ~90 B per call for the
    # whole pass (~9 MB at 100,000 calls). The pass only appends to these streams, so the
    # names, and their order, are the same on both reads.
    total = sum(1 for _ in log.streams(prefix))
    totals = [0, 0, 0, 0]
    done, down = 0, ""

    def jobs() -> Iterator[VisitJob]:
        for stream in log.streams(prefix):
            if down or abort():  # no further call starts; those under way finish first
                return
            yield VisitJob(recipe, whole_call(log, run_id, stream), now)

    async with group_commit(log) as writer:
        token = _PASS_WRITER.set(writer)  # jobs that run here hand their events over at once
        stop = _PASS_ABORT.set(abort)
        try:
            async with aclosing(executor.map(visit_one, jobs(), window=window)) as results:
                async for result in results:
                    if result.fault:
                        raise InfrastructureError(result.fault)
                    if result.down:  # not counted: nothing of the call was recorded
                        down = result.down
                        continue
                    if result.events:  # a worker's call, whole: never split by a commit
                        writer.submit(result.events)
                    counts = (result.scored, result.scored_before, result.probed, result.probed_before)
                    for i, n in enumerate(counts):
                        totals[i] += n
                    done += 1
                    progress(done, total)
        finally:
            _PASS_WRITER.reset(token)
            _PASS_ABORT.reset(stop)
    if reason := down or abort():
        raise ModelServerDownError(
            f"{reason}; the pass stopped after {done} of {total} conversations (run it again to finish)"
        )
    scored, before, probed, probed_before = totals
    return VisitResult([], scored, before, probed, probed_before)


def whole_call(log: EventLog, run_id: str, stream: str) -> list[Envelope]:
    """A call's events, refused in one line when they are not whole."""
    return checked_call(run_id, stream, list(log.read_stream(stream)))


def checked_call(run_id: str, stream: str, events: list[Envelope]) -> list[Envelope]:
    """``events``, read from ``stream``, refused in one line when they are not a whole call."""
    damage = call_damage(events)
    if damage or not events:  # not damaged: it opens with conversation.started
        raise DamagedCallError(damaged_message(run_id, stream, damage))
    return events


async def run_pass(
    executor: Executor,
    log: EventLog,
    recipe: PassRecipe,
    hub: ModelHub,
    *,
    window: int,
    now: Callable[[], str],
    progress: Progress,
    abort: Callable[[], str],
) -> VisitResult:
    """A whole pass (``judge`` or ``probe``) on the executor; the driver's hub is closed after."""
    try:
        with jobs_share(hub):
            return await visit_on(
                executor, log, recipe, window=window, now=now, progress=progress, abort=abort
            )
    except InfrastructureError as exc:
        hint = "fix it, then run the same command again (what was recorded is kept, never asked twice)"
        raise InfrastructureError(f"{exc}; {hint}") from None
    finally:
        await hub.aclose()


def pass_on(
    executor: Executor | None,
    log: EventLog,
    recipe: PassRecipe,
    hub: ModelHub,
    *,
    window: int,
    now: Callable[[], str],
    progress: Progress,
) -> VisitResult:
    """A command's whole pass (``judge``, ``probe``) on its executor, here when none was chosen.

    It stops when the hub finds a model server down, and at its next await on Ctrl-C
    (``KeyboardInterrupt`` once what was handed over is committed).
    """
    runner = executor or InProcessExecutor()
    return run_stoppable(
        run_pass(runner, log, recipe, hub, window=window, now=now, progress=progress, abort=hub.unreachable)
    )


async def pass_here(
    log: EventLog, recipe: PassRecipe, hub: ModelHub, *, now: Callable[[], str]
) -> VisitResult:
    """A pass inside a command's own event loop (an import's, a rerun's): a call at a time, here.

    The caller's hub serves it, and the caller closes it.
    """
    with jobs_share(hub):
        return await visit_on(InProcessExecutor(), log, recipe, window=1, now=now)
