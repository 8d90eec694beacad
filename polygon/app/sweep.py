"""``polygon sweep``: run a sweep's points as ordinary runs, recorded in ``sweep/<id>``.

Each point's calls are a run whose id follows from everything they depend on, so a point
met again (the base of a one-at-a-time sweep, or a later sweep with the same settings)
reuses its run, and a point killed half-way resumes like any run. Before a point starts,
its tokens are estimated and the point is refused (an event with the estimate) when the
estimate exceeds the limit; when the first point's mean composite is below the floor, the
sweep stops and says so.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec

# The call engine, callers and languages (YAML, regex) load when the sweep checks its suite (issue 31).
from polygon import score as _score
from polygon import simulate as _simulate_pkg
from polygon.app.gating import suite_warnings
from polygon.app.log import recorded_answers
from polygon.app.passes import read_run_head
from polygon.app.queries import load_run, read_sweep_head, run_streams
from polygon.app.run import RunOptions, run_suite
from polygon.app.stopping import check, stoppable
from polygon.errors import ResumeRefusedError, UnknownIdError, UserInputError, WorkInterrupted
from polygon.events import (
    POINT_RAN,
    POINT_REFUSED,
    SWEEP_FINISHED,
    SWEEP_STARTED,
    SWEEP_STOPPED,
    Event,
    EventLog,
    Pending,
    PointRan,
    PointRefused,
    SweepFinished,
    SweepPoint,
    SweepStarted,
    SweepStopped,
    fresh_id,
    identity,
    keyed,
    run_stream,
    sweep_stream,
    valid_run_id,
)
from polygon.execute import Executor, InProcessExecutor
from polygon.models import ModelHub
from polygon.projections import SweepHead
from polygon.projections import verdicts as verdict_fold
from polygon.score import GRADED
from polygon.suite import LoadedSweep
from polygon.sweep import Point, Usage, estimate, make_points, run_usage


@dataclass(frozen=True)
class SweepOptions:
    """What the user chose on the command line."""

    resume: str = ""
    sweep_id: str = ""
    concurrency: int = 8
    executor: Executor = field(default_factory=InProcessExecutor)
    """Where each point's calls and passes run (the command chose it; it closes it)."""


@dataclass
class SweepSummary:
    """What a sweep did."""

    sweep_id: str
    points: int
    ran: int = 0
    reused: int = 0
    refused: int = 0
    stopped: str = ""
    not_run: int = 0


def run_sweep(
    loaded: LoadedSweep,
    log: EventLog,
    options: SweepOptions,
    *,
    now: Callable[[], str],
    hub: ModelHub | None = None,
    say: Callable[[str], None] = lambda line: None,
) -> SweepSummary:
    """Run (or resume) every point; returns what became of each."""
    points = make_points(loaded)
    # a header's variable unset: nothing written
    _simulate_pkg.check_references(loaded.suite, (loaded.spec.base,))
    sweep_id, head = _begin(loaded, log, options, points, now)
    summary = SweepSummary(sweep_id=sweep_id, points=len(points))
    rubric = _score.load_rubric(loaded.suite.suite.judge.rubric).rubric  # read here, not at a start
    for warning in suite_warnings(loaded.suite, rubric):
        say(warning)  # once for the sweep: each point's run is told nothing (a line per point)
    try:
        with stoppable(again=f"error: interrupted again (Ctrl-C): ended at once; {_kept(loaded, sweep_id)}"):
            _run_points(loaded, log, options, points, head, summary, now, hub, say)
    except (KeyboardInterrupt, WorkInterrupted):  # Ctrl-C, at a safe point (between points or in a run)
        raise WorkInterrupted(f"interrupted: sweep {sweep_id} stopped; {_kept(loaded, sweep_id)}") from None
    if not _finished(log, sweep_id):
        _append(
            log,
            sweep_id,
            SWEEP_FINISHED,
            SweepFinished(
                sweep_id=sweep_id, ran=summary.ran, refused=summary.refused, not_run=summary.not_run
            ),
            now,
        )
    return summary


def _run_points(
    loaded: LoadedSweep,
    log: EventLog,
    options: SweepOptions,
    points: list[Point],
    head: SweepHead | None,
    summary: SweepSummary,
    now: Callable[[], str],
    hub: ModelHub | None,
    say: Callable[[str], None],
) -> None:
    usages: list[Usage] = []
    for point in points:
        check()  # a Ctrl-C between two points stops before the next
        if head and point.index in head.refused:
            summary.refused += 1
            continue
        if summary.stopped:
            summary.not_run += 1
            continue
        ran = head.ran.get(point.index) if head else None
        if ran is not None:
            usages.append(_usage(log, point))
            summary.ran += 1
            summary.reused += ran.reused
        else:
            ran = _one_point(loaded, log, point, usages, options, now, hub, say, summary)
        if ran is not None and point.index == 0:
            _hold_floor(loaded, log, ran, summary, now, say)


def _kept(loaded: LoadedSweep, sweep_id: str) -> str:
    return (
        "every commit in the log is whole (the points run so far, the calls of the one under way); "
        f"resume with `polygon sweep {loaded.path} --resume {sweep_id}`"
    )


def _hold_floor(
    loaded: LoadedSweep,
    log: EventLog,
    first: PointRan,
    summary: SweepSummary,
    now: Callable[[], str],
    say: Callable[[str], None],
) -> None:
    """Stop the sweep when its first point is already below the floor (recorded once)."""
    floor = loaded.spec.floor
    mean = first.mean_composite or 0.0  # no graded call at all is below any floor
    if floor is None or mean >= floor:
        return
    summary.stopped = f"the first point's mean composite {mean:.1f} is below the floor {floor:g}"
    head = read_sweep_head(log, summary.sweep_id)
    if not (head and head.stopped):
        event = SweepStopped(sweep_id=summary.sweep_id, after_index=0, mean_composite=mean, floor=floor)
        _append(log, summary.sweep_id, SWEEP_STOPPED, event, now)
    say(f"sweep {summary.sweep_id}: stopped early: {summary.stopped}")


def _one_point(
    loaded: LoadedSweep,
    log: EventLog,
    point: Point,
    usages: list[Usage],
    options: SweepOptions,
    now: Callable[[], str],
    hub: ModelHub | None,
    say: Callable[[str], None],
    summary: SweepSummary,
) -> PointRan | None:
    sweep_id = summary.sweep_id
    label = _label(point)
    started = bool(log.stream_length(run_stream(point.run_id)))
    reused = started and _reused(log, sweep_id, point)
    if not started and loaded.spec.token_limit:
        calls = len(point.suite.scenarios()) * point.suite.suite.trials
        cfg = next(iter(point.suite.suite.configs.values()))
        tokens, basis = estimate(
            usages, point.prompt, calls, point.suite.suite.max_turns, cfg.params.get("max_tokens")
        )
        if tokens > loaded.spec.token_limit:
            event = PointRefused(
                sweep_id=sweep_id,
                index=point.index,
                estimated_tokens=tokens,
                limit=loaded.spec.token_limit,
                basis=basis,
            )
            _append(log, sweep_id, keyed(POINT_REFUSED, str(point.index)), event, now)
            summary.refused += 1
            say(
                f"point {point.index} ({label}): refused, estimated {tokens:,} tokens "
                f"> limit {loaded.spec.token_limit:,} ({basis})"
            )
            return None
    if not reused:
        say(f"point {point.index} ({label}): {'resuming' if started else 'running'} run {point.run_id}")
        run_hub = hub or ModelHub()
        if started:
            run_hub.remember(recorded_answers(log, point.run_id))
        run_options = RunOptions(
            run_id=point.run_id,
            resume=point.run_id if started else "",
            concurrency=options.concurrency,
            executor=options.executor,
        )
        run_suite(point.suite, log, run_options, now=now, hub=run_hub)
    else:
        say(f"point {point.index} ({label}): reusing run {point.run_id} (same profile and settings)")
    usage = _usage(log, point)
    usages.append(usage)
    ran = PointRan(
        sweep_id=sweep_id,
        index=point.index,
        run_id=point.run_id,
        reused=reused,
        tokens=usage.tokens,
        mean_composite=mean_composite(log, point),
    )
    _append(log, sweep_id, keyed(POINT_RAN, str(point.index)), ran, now)
    summary.ran += 1
    summary.reused += reused
    return ran


def _label(point: Point) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.values.items()) or "base"


def _usage(log: EventLog, point: Point) -> Usage:
    _, conversations = run_streams(log, point.run_id)
    return run_usage(point.prompt, conversations)


def mean_composite(log: EventLog, point: Point) -> float | None:
    """The mean composite of the point's graded calls under the suite's rubric."""
    state = load_run(log, point.run_id)
    version = point.suite.suite.judge.rubric
    if version not in verdict_fold.versions(state):
        return None
    graded = [
        r.verdict.composite
        for r in verdict_fold.verdicts(state, version)
        if r.verdict and r.verdict.verdict in GRADED
    ]
    return round(statistics.fmean(graded), 4) if graded else None


def _begin(
    loaded: LoadedSweep, log: EventLog, options: SweepOptions, points: list[Point], now: Callable[[], str]
) -> tuple[str, SweepHead | None]:
    """The sweep's id, and its head when resumed (None for a new sweep)."""
    spec = loaded.spec
    started = SweepStarted(
        sweep_id="",
        name=spec.name,
        sweep_hash=loaded.sweep_hash,
        suite_name=loaded.suite.suite.name,
        mode=spec.mode,
        base=spec.base,
        points=[
            SweepPoint(index=p.index, values=p.values, profile=p.profile, run_id=p.run_id) for p in points
        ],
        scenarios=[s.id for s in points[0].suite.scenarios()] if points else [],
        trials=points[0].suite.suite.trials if points else 0,
        floor=spec.floor,
        token_limit=spec.token_limit,
    )
    if options.resume:
        return options.resume, _resumed(log, options.resume, started)
    taken = lambda sid: bool(log.stream_length(sweep_stream(sid)))  # noqa: E731
    sweep_id = options.sweep_id or fresh_id("w", f"{loaded.sweep_hash}{now()}", taken)
    if not valid_run_id(sweep_id):
        raise UserInputError(f"sweep id {sweep_id!r} must not contain '.' or '/'")
    if log.stream_length(sweep_stream(sweep_id)):
        raise UserInputError(f"sweep {sweep_id} already exists in the log (use --resume {sweep_id})")
    event = msgspec.structs.replace(started, sweep_id=sweep_id)
    _append(log, sweep_id, SWEEP_STARTED, event, now)
    return sweep_id, None


def _resumed(log: EventLog, sweep_id: str, fresh: SweepStarted) -> SweepHead:
    head = read_sweep_head(log, sweep_id)
    if head is None:
        raise UnknownIdError(f"no sweep {sweep_id!r} in the log to resume")
    if head.started.sweep_hash != fresh.sweep_hash or head.started.points != fresh.points:
        raise ResumeRefusedError(
            f"cannot resume sweep {sweep_id}: the sweep file, its suite or a prompt changed since it started"
        )
    return head


def _finished(log: EventLog, sweep_id: str) -> bool:
    head = read_sweep_head(log, sweep_id)
    return bool(head and head.finished)


def _reused(log: EventLog, sweep_id: str, point: Point) -> bool:
    """The point's run was finished by someone else: before this sweep began, or for another point.

    A run this sweep finished itself, whose ``point.ran`` a kill kept out of the log, is not
    reused: resuming must not change what the leaderboard says.
    """
    head = read_run_head(log, point.run_id)
    finished = head.finished_seq if head else None
    if finished is None:
        return False
    ours = read_sweep_head(log, sweep_id)
    if ours is None or finished < ours.seq:
        return True
    return any(e.run_id == point.run_id and e.index != point.index for e in ours.ran.values())


def _append(log: EventLog, sweep_id: str, kind: str, event: Event, now: Callable[[], str]) -> None:
    ident = identity(run=sweep_id, kind=kind)
    log.append([Pending(stream=sweep_stream(sweep_id), identity=ident, event=event, recorded_at=now())])
