"""Scoring use cases: checks, the judge, and the rubric recorded into the run.

``score_run`` scores every conversation of a run that the chosen pass has not scored yet,
so ``polygon run``, ``--resume`` and ``polygon judge`` share one path, and re-judging
never touches earlier events: a new rubric or judge is a new pass, appended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import msgspec

from polygon.app.progress import Progress, no_progress
from polygon.checks import run_checks
from polygon.events import Envelope, EventLog, Pending, identity
from polygon.events.errors import UnknownIdError, UserInputError
from polygon.events.families import (
    CheckRecorded,
    ConversationStarted,
    CriterionScore,
    JudgeScored,
    RubricRecorded,
    RunStarted,
)
from polygon.judge.heuristic import HEURISTIC_JUDGE, HeuristicJudge
from polygon.judge.model import ModelJudge
from polygon.model_hub import ModelHub
from polygon.models import ModelClient
from polygon.recorder import Sink, StreamRecorder
from polygon.rubric import LoadedRubric, Rubric
from polygon.streams import conversation_stream, run_stream
from polygon.transcript import ConversationView, build


class Judge(Protocol):
    """Scores one repeat of one conversation."""

    name: str
    heuristic: bool

    async def score(
        self,
        view: ConversationView,
        checks: list[CheckRecorded],
        rubric: Rubric,
        repeat: int,
        sink: Sink,
    ) -> tuple[dict[str, CriterionScore], str]:
        """Criterion → score, and the raw answer."""
        ...


@dataclass(frozen=True)
class JudgeSettings:
    """One scoring pass: a rubric, a judge and a repeat count."""

    rubric: LoadedRubric
    judge: Judge
    repeats: int = 1
    new_pass: int = 0

    @property
    def pass_id(self) -> str:
        """Stable name of the pass; the same settings again are the same pass (a no-op)."""
        base = f"{self.rubric.rubric.version}/{self.judge.name}/k{self.repeats}"
        return f"{base}#{self.new_pass}" if self.new_pass else base


def make_judge(model: str, client: ModelClient | None = None) -> Judge:
    """``scripted/heuristic`` offline, or a model judge through a model client."""
    if model == HEURISTIC_JUDGE:
        return HeuristicJudge()
    if client is None:
        raise UserInputError(
            f"judge {model!r} needs a model client (a provider/model reference resolved by the model hub); "
            f"offline, use {HEURISTIC_JUDGE}"
        )
    return ModelJudge(model, client)


def run_started(log: EventLog, run_id: str) -> RunStarted:
    """The run's first event, or a user error naming the run."""
    for env in log.read_stream(run_stream(run_id)):
        if isinstance(env.payload, RunStarted):
            return env.payload
    raise UnknownIdError(f"no run {run_id!r} in the log")


def record_rubric(log: EventLog, run_id: str, rubric: LoadedRubric, now: Callable[[], str]) -> None:
    """Put the rubric into the run's stream; refuse a changed file under a used version."""
    for env in log.read_stream(run_stream(run_id)):
        p = env.payload
        if (
            isinstance(p, RubricRecorded)
            and p.version == rubric.rubric.version
            and p.rubric_hash != rubric.rubric_hash
        ):
            raise UserInputError(
                f"rubric {p.version} in {rubric.source} differs from the {p.version} this run was judged "
                f"with (hash {p.rubric_hash[:12]} in the log, {rubric.rubric_hash[:12]} in the file); "
                "a change of criteria, weights or gates needs a new version"
            )
    key = f"rubric:{rubric.rubric.version}:{rubric.rubric_hash}"
    log.append(
        [
            Pending(
                stream=run_stream(run_id),
                identity=identity(run=run_id, kind=key),
                event=rubric.recorded(run_id),
                recorded_at=now(),
            )
        ]
    )


async def score_conversation(
    view: ConversationView, settings: JudgeSettings, forbidden: list[str], sink: Sink
) -> None:
    """Checks, then each judge repeat, into ``sink``."""
    pass_id = settings.pass_id
    checks = [msgspec.structs.replace(c, pass_id=pass_id) for c in run_checks(view, forbidden=forbidden)]
    for i, check in enumerate(checks):
        sink.emit(f"check:{pass_id}", check, index=i)
    r = settings.rubric
    for repeat in range(settings.repeats):
        scores, raw = await settings.judge.score(view, checks, r.rubric, repeat, sink)
        sink.emit(
            f"judge:{pass_id}",
            JudgeScored(
                conversation_id=view.conversation_id,
                rubric_version=r.rubric.version,
                rubric_hash=r.rubric_hash,
                judge=settings.judge.name,
                repeat=repeat,
                scores=scores,
                raw=raw,
                heuristic=settings.judge.heuristic,
                pass_id=pass_id,
            ),
            index=repeat,
        )


@dataclass(frozen=True)
class ScoreSummary:
    """What a scoring pass did."""

    pass_id: str
    scored: int
    already: int


async def score_run_async(
    log: EventLog,
    run_id: str,
    settings: JudgeSettings,
    *,
    now: Callable[[], str],
    progress: Progress = no_progress,
) -> ScoreSummary:
    """Score every conversation of the run that this pass has not scored yet."""
    started = run_started(log, run_id)
    record_rubric(log, run_id, settings.rubric, now)
    streams = list(log.streams(f"conv/{run_id}."))
    done = already = 0
    for stream in streams:
        events = list(log.read_stream(stream))
        if _has_pass(events, settings.pass_id):
            already += 1
        else:
            log.append(await _score_one(events, settings, started, now))
            done += 1
        progress(done + already, len(streams))
    return ScoreSummary(settings.pass_id, done, already)


def score_run(
    log: EventLog,
    run_id: str,
    settings: JudgeSettings,
    *,
    now: Callable[[], str],
    progress: Progress = no_progress,
) -> ScoreSummary:
    """:func:`score_run_async` in its own event loop."""
    return asyncio.run(score_run_async(log, run_id, settings, now=now, progress=progress))


def _has_pass(events: list[Envelope], pass_id: str) -> bool:
    return any(isinstance(e.payload, JudgeScored) and e.payload.pass_id == pass_id for e in events)


async def _score_one(
    events: list[Envelope], settings: JudgeSettings, started: RunStarted, now: Callable[[], str]
) -> list[Pending]:
    head = events[0].payload
    assert isinstance(head, ConversationStarted)
    view = build(head.conversation_id, events)
    sink = StreamRecorder(
        run_id=started.run_id,
        stream=conversation_stream(head.conversation_id),
        conversation=head.conversation_id,
        seed=head.seed,
        now=now,
    )
    await score_conversation(view, settings, started.forbidden_phrases, sink)
    return sink.pending


def judge_run(
    log: EventLog,
    run_id: str,
    *,
    rubric: LoadedRubric,
    judge_model: str,
    repeats: int,
    new_pass: int,
    hub: ModelHub,
    now: Callable[[], str],
    progress: Progress = no_progress,
) -> ScoreSummary:
    """``polygon judge``: one new pass with any judge, in one event loop (one connection pool)."""

    async def go() -> ScoreSummary:
        try:
            client = None if judge_model.startswith("scripted/") else hub.client(judge_model)
            settings = JudgeSettings(
                rubric=rubric, judge=make_judge(judge_model, client), repeats=repeats, new_pass=new_pass
            )
            return await score_run_async(log, run_id, settings, now=now, progress=progress)
        finally:
            await hub.aclose()

    return asyncio.run(go())
