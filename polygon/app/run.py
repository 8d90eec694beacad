"""``polygon run``: plan every conversation of a suite, run them, write the log.

Every exchange is committed as it happens (one group commit for all calls in flight). A
killed run is resumed by re-simulating each call that has no end: identities are
deterministic, events the log already holds are kept, and recorded model answers are
reused, so the result equals an uninterrupted run.
"""

from __future__ import annotations

import gc
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from polygon import __version__

# Faces read on use: the rubric, the checks, the call engine, the callers, the languages and
# the probe library (pydantic models, YAML, regex) load when the run first needs them, not at
# its start (issue 31).
from polygon import probe as _probe_pkg
from polygon import score as _score_pkg
from polygon import simulate as _simulate_pkg
from polygon.app.gating import NEWEST_GATING, suite_warnings
from polygon.app.jobs import (
    CallEnded,
    calls_kept,
    group_commit,
    jobs_share,
    run_recipe,
    simulate_on,
    visit_on,
)
from polygon.app.log import call_damage, check_run_intact, recorded_answers
from polygon.app.passes import DamagedCallError, damaged_message, read_run_head, start_run
from polygon.app.progress import Progress, no_progress
from polygon.app.scoring import ScoreSummary, Scoring
from polygon.app.stopping import run_stoppable, stoppable
from polygon.boundary import safe_text, shown_url
from polygon.errors import (
    InfrastructureError,
    ModelServerDownError,
    ResumeRefusedError,
    UnknownIdError,
    UserInputError,
    WorkInterrupted,
)
from polygon.events import (
    RUN_FINISHED,
    EventLog,
    LmdbLog,
    Pending,
    RunFinished,
    RunStarted,
    StorageError,
    conversation_stream,
    fresh_id,
    identity,
    run_stream,
    valid_run_id,
)
from polygon.execute import Executor, InProcessExecutor
from polygon.models import ModelHub
from polygon.projections import ConversationHead, fold_conversation_head

if TYPE_CHECKING:
    from polygon.recording import GroupWriter
    from polygon.render import Enforcement
    from polygon.score import JudgeSettings, LoadedRubric
    from polygon.simulate import ConversationPlan
    from polygon.suite import LoadedSuite


@dataclass(frozen=True)
class RunOptions:
    """What the user chose on the command line."""

    configs: tuple[str, ...] = ()
    seed: int | None = None
    concurrency: int = 8
    run_id: str = ""
    resume: str = ""
    executor: Executor = field(default_factory=InProcessExecutor)
    """Where calls and passes run (the command chose it; it closes it)."""


@dataclass
class RunSummary:
    """What a run did."""

    run_id: str
    conversations: int
    ran_now: int
    end_reasons: dict[str, int] = field(default_factory=dict)
    scoring: ScoreSummary | None = None
    agent_error: str = ""
    """When every call ended ``agent_error``: the reason most of them gave (as the log holds it,
    credentials masked where the agent's client met them), cut to one short line."""


def new_run_id(log: EventLog, suite_hash: str, seed: int, now: str) -> str:
    """A short run id, unused in ``log``: two starts in one second get two ids (--run-id fixes one)."""
    return fresh_id("r", f"{suite_hash}{seed}{now}", lambda rid: bool(log.stream_length(run_stream(rid))))


def _select_configs(loaded: LoadedSuite, wanted: tuple[str, ...]) -> tuple[str, ...]:
    known = tuple(loaded.suite.configs)
    for name in wanted:
        if name not in known:
            raise UserInputError(f"{loaded.path}: no configuration {name!r} (have: {', '.join(known)})")
    return wanted or known


def _run_started(loaded: LoadedSuite, run_id: str, seed: int, configs: tuple[str, ...]) -> RunStarted:
    return RunStarted(
        run_id=run_id,
        suite_name=loaded.suite.name,
        suite_hash=loaded.suite_hash,
        prompt_hashes={c: h for c, h in loaded.prompt_hashes().items() if c in configs},
        prompts={c: p for c, p in sorted(loaded.prompts.items()) if c in configs},
        tools=_simulate_pkg.tool_definitions(tuple(loaded.suite.tools)),
        profiles={c: _profile(loaded, c) for c in configs},
        seed=seed,
        configs=list(configs),
        scenarios=[s.id for s in loaded.scenarios()],
        trials=loaded.suite.trials,
        rubric_version=loaded.suite.judge.rubric,
        polygon_version=__version__,
        forbidden_phrases=list(loaded.suite.forbidden_phrases),
        policies=loaded.suite.recorded_policies(),
        judge_model=loaded.suite.judge.model,
        judge_repeats=loaded.suite.judge.repeats,
        probes=[p.model_dump() for p in loaded.suite.probes],
    )


def _profile(loaded: LoadedSuite, config: str) -> str:
    cfg = loaded.suite.configs[config]
    tools = _simulate_pkg.tool_definitions(tuple(loaded.suite.tools))
    return _simulate_pkg.profile_hash(cfg.agent, loaded.prompts[config], cfg.params, tools, cfg.headers)


def _started_configs(log: EventLog, run_id: str) -> list[str]:
    """The configurations a run started with (a resume without --config continues those)."""
    if head := read_run_head(log, run_id):
        return list(head.started.configs)
    raise UnknownIdError(f"no run {run_id!r} in the log to resume")


def _check_resume(log: EventLog, run_id: str, fresh: RunStarted) -> None:
    head = read_run_head(log, run_id)
    if head is None:
        raise UnknownIdError(f"no run {run_id!r} in the log to resume")
    old = head.started
    _check_same_rubric(run_id, old, fresh)
    for what, a, b in (
        ("suite", old.suite_hash, fresh.suite_hash),
        ("prompt", old.prompt_hashes, fresh.prompt_hashes),
        ("agent profile", old.profiles, fresh.profiles),
        ("seed", old.seed, fresh.seed),
        ("configurations", old.configs, fresh.configs),
    ):
        if a != b:
            raise ResumeRefusedError(
                f"cannot resume run {run_id}: the {what} changed since it started; start a new run"
            )


def _check_same_rubric(run_id: str, old: RunStarted, fresh: RunStarted) -> None:
    """Name the rubric when it is what changed: a suite that names none moved from v1 to the newest."""
    if old.rubric_version and old.rubric_version != fresh.rubric_version:
        raise ResumeRefusedError(
            f"cannot resume run {run_id}: it started under rubric {old.rubric_version} and the suite "
            f"now scores under {fresh.rubric_version} (a suite that names no judge.rubric is scored "
            f"under {NEWEST_GATING}); to resume it, state judge: {{rubric: {old.rubric_version}}}"
        )


def _start(
    log: EventLog, loaded: LoadedSuite, started: RunStarted, resume: str, now: Callable[[], str]
) -> None:
    """Commit ``run.started``, or check that the run to resume is the one this suite starts."""
    run_id = started.run_id
    if resume:
        _check_resume(log, run_id, started)
        check_run_intact(log, run_id)
    elif log.stream_length(run_stream(run_id)):
        raise UserInputError(f"run {run_id} already exists in the log (use --resume {run_id})")
    else:
        with _before_start(loaded, resume):
            start_run(log, started, now)


@contextmanager
def _before_start(loaded: LoadedSuite, resume: str) -> Iterator[None]:
    """A commit that fails before ``run.started`` is in the log: say how to go on from there.

    A new run has nothing to resume then (``--resume`` would answer "no run"): run the suite again.
    """
    try:
        yield
    except StorageError as exc:
        if resume:
            on = f"Nothing was written; make room, then `polygon run {loaded.path} --resume {resume}`"
        else:
            on = (
                "The run did not start, so there is nothing to resume: make room, then "
                f"`polygon run {loaded.path}` again"
            )
        raise StorageError(f"{exc}. {on}") from None


def suite_judge(loaded: LoadedSuite, hub: ModelHub, rubric: LoadedRubric) -> JudgeSettings:
    """The scoring pass a suite asks for (heuristic offline by default), with its rubric read."""
    judge = loaded.suite.judge
    return _score_pkg.JudgeSettings(
        rubric=rubric,
        judge=_score_pkg.judge_for(judge.model, hub),
        repeats=judge.repeats,
    )


def _lint_first(
    loaded: LoadedSuite,
    log: EventLog,
    resume: str,
    now: Callable[[], str],
    hub: ModelHub,
    on_warning: Callable[[str], None],
) -> None:
    """Lint the suite's prompts before any call (``refuse``: stops here, nothing started)."""
    from polygon.app.lint import lint_before_run  # the lint tiers (regex) load here, not at the start

    with _before_start(loaded, resume):
        for warning in lint_before_run(loaded, log, now=now, hub=hub):
            on_warning(warning)


def _checked_first(
    loaded: LoadedSuite,
    log: EventLog,
    options: RunOptions,
    now: Callable[[], str],
    hub: ModelHub,
    on_warning: Callable[[str], None],
) -> tuple[tuple[str, ...], LoadedRubric]:
    """What is checked before anything is written; the configurations and the rubric.

    The configurations, their references and models, the prompts' lint, and the rubric: read
    once, to warn of the suite's rules it does not gate on and then to score.
    """
    wanted = options.configs or (tuple(_started_configs(log, options.resume)) if options.resume else ())
    configs = _select_configs(loaded, wanted)
    _simulate_pkg.check_references(loaded, configs)
    _check_models(loaded, hub)
    _lint_first(loaded, log, options.resume, now, hub, on_warning)
    rubric = _score_pkg.load_rubric(loaded.suite.judge.rubric)
    for warning in suite_warnings(loaded, rubric.rubric):
        on_warning(warning)
    return configs, rubric


def missed_goals(log: EventLog, run_id: str, asked: Enforcement) -> list[str]:
    """Why the run misses what ``asked`` enforces (``--fail-on``, ``--min-pass-rate``): none asked, none.

    The run's report is folded for that only: its projection and the enforcement load here,
    not with every run's start (~0.012 CPU s).
    """
    if not asked.active:
        return []
    from polygon.app.queries import load_run
    from polygon.projections import make_report
    from polygon.render import enforce

    return enforce(make_report(load_run(log, run_id), None), asked)


def run_suite(
    loaded: LoadedSuite,
    log: EventLog,
    options: RunOptions,
    *,
    now: Callable[[], str],
    progress: Progress = no_progress,
    score_progress: Progress = no_progress,
    hub: ModelHub | None = None,
    on_end: Callable[[str], None] = lambda reason: None,
    on_warning: Callable[[str], None] = lambda warning: None,
    on_started: Callable[[str], None] = lambda run_id: None,
) -> RunSummary:
    """Run (or resume) the suite: simulate, then check, judge and probe; returns what happened.

    ``on_started`` hears the run's id once ``run.started`` is in the log (or the run to resume
    is found): from then on a stopped run is resumable.

    Everything runs in one event loop, so model clients keep one connection pool.
    """
    hub = hub or ModelHub()
    configs, rubric = _checked_first(loaded, log, options, now, hub, on_warning)
    seed = loaded.suite.seed if options.seed is None else options.seed
    run_id = options.resume or options.run_id or new_run_id(log, loaded.suite_hash, seed, now())
    if not valid_run_id(run_id):
        raise UserInputError(f"run id {run_id!r} must not contain '.' or '/'")
    _start(log, loaded, _run_started(loaded, run_id, seed, configs), options.resume, now)
    on_started(run_id)
    total = _simulate_pkg.plan_count(loaded, configs)
    # Plans are made as the calls start, not held: only a resume reads which calls ended.
    earlier = _ended_calls(log, loaded, run_id, seed, configs, on_warning) if options.resume else {}
    reasons = Counter(earlier.values())
    plans = _simulate_pkg.iter_plans(loaded, run_id, seed, configs)
    todo = (p for p in plans if p.conversation_id not in earlier)
    ran_now = total - len(earlier)

    def ended(reason: str) -> None:
        reasons[reason] += 1
        on_end(reason)

    if options.resume:
        hub.remember(recorded_answers(log, run_id))  # a half-written call replays its model answers
    progress(len(earlier), total)
    try:
        with stoppable(again=_again(loaded, run_id)):
            scored = _simulate_and_score(
                todo,
                log,
                loaded,
                options,
                now,
                progress,
                score_progress,
                total,
                run_id,
                hub,
                ran_now,
                ended,
                rubric,
                earlier,
            )
    except StorageError as exc:  # a failed commit: the writer wrote nothing after it
        raise StorageError(
            f"{exc}. Nothing after that commit was written; make room, then "
            f"`polygon run {loaded.path} --resume {run_id}`"
        ) from None
    except KeyboardInterrupt:  # Ctrl-C, at a safe point: every call that ended is in the log
        raise WorkInterrupted(
            f"interrupted: at least {sum(reasons.values())} of {total} calls of run {run_id} ended and "
            f"are kept; resume with `polygon run {loaded.path} --resume {run_id}`"
        ) from None
    _finished(log, run_id, total, reasons, now)
    summary = RunSummary(run_id, total, ran_now, dict(sorted(reasons.items())), scored)
    if ran_now and set(reasons) == {"agent_error"}:
        summary.agent_error = _agent_error(log, loaded, run_id, seed, configs)
    return summary


AGENT_ERROR_CALLS, AGENT_ERROR_CHARS = 100, 200
"""Calls read for the reason every call ended ``agent_error`` (the first ones), and the most of it said."""


def _agent_error(log: EventLog, loaded: LoadedSuite, run_id: str, seed: int, configs: tuple[str, ...]) -> str:
    """The reason most of the run's first calls gave for ending ``agent_error``, on one short line.

    Read from the log, where an agent's client wrote it with the URL's credentials masked
    (``polygon report`` shows the same words); an exception's text from a Python agent is the
    agent's own.
    """
    details: Counter[str] = Counter()
    for plan in itertools.islice(_simulate_pkg.iter_plans(loaded, run_id, seed, configs), AGENT_ERROR_CALLS):
        head = _recorded_head(log, run_id, plan.conversation_id)
        if head and head.ended and head.ended.detail:
            details[" ".join(head.ended.detail.split())] += 1
    if not details:
        return ""
    said = details.most_common(1)[0][0]
    half = AGENT_ERROR_CHARS // 2
    # Both ends: an exception names itself first, a client's retries end with their conclusion.
    return safe_text(said if len(said) <= AGENT_ERROR_CHARS else f"{said[:half]} … {said[-half:]}")


def _finished(log: EventLog, run_id: str, total: int, reasons: Counter[str], now: Callable[[], str]) -> None:
    """``run.finished``: how many calls the run has and how they ended."""
    log.append(
        [
            Pending(
                stream=run_stream(run_id),
                identity=identity(run=run_id, kind=RUN_FINISHED),
                event=RunFinished(
                    run_id=run_id, conversations=total, end_reasons=dict(sorted(reasons.items()))
                ),
                recorded_at=now(),
            )
        ]
    )


def _again(loaded: LoadedSuite, run_id: str) -> str:
    """What a second Ctrl-C says: the process ends at once, the run resumes from what was committed."""
    return (
        "error: interrupted again (Ctrl-C): ended at once; every commit in the log is whole; resume with "
        f"`polygon run {loaded.path} --resume {run_id}`"
    )


def _simulate_and_score(
    todo: Iterator[ConversationPlan],
    log: EventLog,
    loaded: LoadedSuite,
    options: RunOptions,
    now: Callable[[], str],
    progress: Progress,
    score_progress: Progress,
    total: int,
    run_id: str,
    hub: ModelHub,
    ran_now: int,
    ended: Callable[[str], None],
    rubric: LoadedRubric,
    earlier: Iterable[str],
) -> ScoreSummary:
    """Simulate, then check, judge and probe, on the chosen executor; this process writes.

    An offline pass on a run made here goes beside the simulation (``polygon.app.alongside``),
    each call scored in a second process as it ends; otherwise it follows the simulation.

    Everything the driver does runs in one event loop, so model clients keep one connection pool.
    """
    offset = total - ran_now
    finished = lambda done: progress(offset + done, total)  # noqa: E731

    async def go() -> ScoreSummary:
        try:
            from polygon.app import alongside as _alongside  # ~7 ms (pickle), for a run that gets this far

            with jobs_share(hub):
                settings = suite_judge(loaded, hub, rubric)
                here = isinstance(options.executor, InProcessExecutor)
                if _alongside.possible(log, offline=_offline(loaded, settings), here=here, calls=total):
                    pair = _Alongside(log, loaded, options, now, score_progress, total, run_id, hub, settings)
                    return await pair.run(todo, finished, ended, earlier)
                with calls_kept(log):  # the pass reads the calls kept meanwhile
                    await _simulate(todo, log, loaded, options, now, finished, total, run_id, hub, ended)
                    return await _score(log, loaded, options, now, score_progress, run_id, hub, settings)
        except InfrastructureError as exc:  # the worker's or Ray's fault, never the agent's
            raise InfrastructureError(
                f"{exc}; the run stopped (what finished is in the log). Fix it, then "
                f"`polygon run SUITE --resume {run_id}` (on either executor)"
            ) from None
        finally:
            await hub.aclose()

    with _collector_eased():
        return run_stoppable(go())


YOUNG_GC_EVERY = 20_000
"""Allocations between two collections of the young generation while a run runs (Python's
default is 700): 32 calls in flight keep most young objects alive, so each collection walked
hundreds of live ones, ~110 times per 300 calls; at 5,000 it is ~11 times, half the CPU. At
20,000 (~4 times) the collector's CPU in a 300-call run went from ~23 to ~11 ms (the young
collections walk the calls in flight each time); the peak heap stayed within 0.3 MB."""


@contextmanager
def _collector_eased() -> Iterator[None]:
    """The cyclic collector's work cut while the run runs (issue 31: the main thread's CPU).

    What is alive when the run starts (the modules, the suite, the language tables) lives
    through it, yet each full collection walked it again (~35 ms a time, per 300 calls or
    so): it is frozen, still freed when no longer referenced, and after the run the oldest
    generation takes it back (as ``snapshots.gc_paused`` does), so a long-lived server
    keeps no cycle out of the collector's reach for ever. The young generation is collected
    less often (:data:`YOUNG_GC_EVERY`). Both are as they were after the run; a collector
    switched off (threshold 0) stays off.
    """
    _load_what_the_run_uses()
    young, middle, old = gc.get_threshold()
    gc.freeze()
    if young:
        gc.set_threshold(max(young, YOUNG_GC_EVERY), middle, old)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, old)
        gc.unfreeze()


def _load_what_the_run_uses() -> None:
    """Import the run's event loop and its scoring pass before the collector freezes what is alive.

    A command's start no longer imports them (issue 31); imported later, inside the run, their
    modules' objects would be walked by every full collection instead of frozen with the rest.
    """
    import asyncio  # noqa: F401

    from polygon.score import judge_for, score_conversation  # noqa: F401


async def _simulate(
    todo: Iterator[ConversationPlan],
    log: EventLog,
    loaded: LoadedSuite,
    options: RunOptions,
    now: Callable[[], str],
    finished: Callable[[int], None],
    total: int,
    run_id: str,
    hub: ModelHub,
    on_end: Callable[[str], None],
    *,
    writer: GroupWriter | None = None,
    on_call: CallEnded | None = None,
) -> None:
    """Every planned call; a model server found down stops the run with a resume hint."""
    window = options.concurrency
    seen = await simulate_on(
        options.executor,
        log,
        loaded,
        todo,
        hub.settings,
        window=window,
        now=now,
        finished=finished,
        on_end=on_end,
        writer=writer,
        on_call=on_call,
    )
    if seen.skipped:  # the calls ran here: the driver's hub found the server down
        raise ModelServerDownError(
            f"{hub.unreachable()}; {seen.skipped} of {total} calls were not run. Start the server, then "
            f"`polygon run SUITE --resume {run_id}`"
        )
    if seen.down:  # a worker found it down: the driver stopped drawing calls
        raise ModelServerDownError(
            f"{seen.down}; the run stopped before every call was made. Start the server, then "
            f"`polygon run SUITE --resume {run_id}` (on either executor)"
        )


async def _score(
    log: EventLog,
    loaded: LoadedSuite,
    options: RunOptions,
    now: Callable[[], str],
    progress: Progress,
    run_id: str,
    hub: ModelHub,
    settings: JudgeSettings,
) -> ScoreSummary:
    """Checks, judge and probes in one read of each call.

    The pass stops on a dead server only if it asks one (the offline baselines never do).
    """
    started = Scoring.start(log, run_id, settings, now).started  # the rubric goes in first
    judge_asks = _asks(settings.judge.heuristic, hub)
    probe_asks = _asks(loaded.suite.probe_model == _probe_pkg.DETECTOR, hub)
    result = await visit_on(
        options.executor,
        log,
        run_recipe(loaded, started, hub.settings, settings.rubric),
        window=options.concurrency,
        now=now,
        progress=progress,
        abort=lambda: judge_asks() or probe_asks(),
    )
    return ScoreSummary(settings.pass_id, result.scored, result.scored_before)


def _offline(loaded: LoadedSuite, settings: JudgeSettings) -> bool:
    """Whether the run's pass asks no model server (the heuristic judge, detector probes)."""
    return settings.judge.heuristic and loaded.suite.probe_model in ("", _probe_pkg.DETECTOR)


@dataclass(frozen=True)
class _Alongside:
    """A run whose pass goes beside its simulation: one writer for both, one scoring process."""

    log: EventLog
    loaded: LoadedSuite
    options: RunOptions
    now: Callable[[], str]
    progress: Progress
    total: int
    run_id: str
    hub: ModelHub
    settings: JudgeSettings

    async def run(
        self,
        todo: Iterator[ConversationPlan],
        finished: Callable[[int], None],
        ended: Callable[[str], None],
        earlier: Iterable[str],
    ) -> ScoreSummary:
        """The rubric recorded first, the process forked, then every call simulated and scored.

        The process simulates some of a new run's calls too when none needs a server.
        """
        from polygon.app import alongside as _alongside

        assert isinstance(self.log, LmdbLog)
        started = Scoring.start(self.log, self.run_id, self.settings, self.now).started
        recipe = run_recipe(self.loaded, started, self.hub.settings, self.settings.rubric)
        done = 0

        def one_more(_: int = 0) -> None:  # either process's call: one count for the progress
            nonlocal done
            done += 1
            finished(done)

        sharing = _alongside.Simulating(ended, one_more) if self._offline_calls() else None
        # The writer's thread starts at its first commit: after the fork.
        async with (
            group_commit(self.log) as writer,
            _alongside.scoring_alongside(
                self.log,
                recipe,
                writer,
                now=self.now,
                progress=self.progress,
                total=self.total,
                simulating=sharing,
                loaded=self.loaded,
                hub=self.hub,
            ) as beside,
        ):
            await _simulate(
                beside.shared(todo),
                self.log,
                self.loaded,
                self.options,
                self.now,
                one_more,
                self.total,
                self.run_id,
                self.hub,
                ended,
                writer=writer,
                on_call=beside.ended,
            )
            result = await beside.finish(earlier)
        return ScoreSummary(self.settings.pass_id, result.scored, result.scored_before)

    def _offline_calls(self) -> bool:
        """A new run whose calls ask no server: Python agents and the scripted caller."""
        suite = self.loaded.suite
        agents = all(c.agent.startswith("python:") for c in suite.configs.values())
        return not self.options.resume and agents and suite.caller.model == _simulate_pkg.SCRIPTED_CALLER


def _check_models(loaded: LoadedSuite, hub: ModelHub) -> None:
    """Resolve every model the suite names before anything is written (no server is called)."""
    suite = loaded.suite
    refs = [suite.caller.model, suite.judge.model, suite.probe_model]
    refs += [c.agent.removeprefix("model:") for c in suite.configs.values() if c.agent.startswith("model:")]
    for ref in refs:
        hub.check(ref)


def _asks(offline: bool, hub: ModelHub) -> Callable[[], str]:
    return (lambda: "") if offline else hub.unreachable


def _ended_calls(
    log: EventLog,
    loaded: LoadedSuite,
    run_id: str,
    seed: int,
    configs: tuple[str, ...],
    on_warning: Callable[[str], None],
) -> dict[str, str]:
    """The resumed run's calls that ended, and why; a warning if they recorded a URL's secrets."""
    earlier: dict[str, str] = {}
    unmasked: dict[str, str] = {}
    for plan in _simulate_pkg.iter_plans(loaded, run_id, seed, configs):
        head = _recorded_head(log, run_id, plan.conversation_id)
        if head and head.ended:
            earlier[plan.conversation_id] = head.ended.reason
        if head and head.started.agent != shown_url(head.started.agent):
            unmasked[plan.config] = shown_url(head.started.agent)
    for config, shown in unmasked.items():
        on_warning(
            f"warning: run {run_id}: its earlier calls of configuration {config} recorded the agent "
            f"URL with its credentials (an older Polygon wrote them; calls run now record {shown}). "
            "They stay in this log: change those credentials, and leave the run out of a copy of the "
            f"log with `polygon log compact --drop {run_id} -o NEW_LOG`; `headers:` with `${{VAR}}` "
            "keeps a token out of the URL (docs/agents.md)"
        )
    return earlier


def _recorded_head(log: EventLog, run_id: str, conversation_id: str) -> ConversationHead | None:
    """What the log holds of a call so far (None for a call not run).

    A call that is not whole (a hole an older Polygon's failed commit left) cannot be
    completed in place: re-simulating it would append its missing start after its end.
    """
    stream = conversation_stream(conversation_id)
    if not log.stream_length(stream):
        return None
    events = list(log.read_stream(stream))
    if damage := call_damage(events):
        raise DamagedCallError(damaged_message(run_id, stream, damage))
    return fold_conversation_head(events)
