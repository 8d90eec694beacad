"""A scoring pass (checks and the judge) as a visitor of each conversation of a run.

The visitor scores each call the chosen pass has not scored yet, so ``polygon run``,
``--resume``, ``polygon judge``, imports and reruns share one path (the pass driver,
``jobs.visit_on``), and re-judging never touches earlier events: a new rubric or judge is a
new pass, appended.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

# Read on use: the checks, the languages and the rubric's models (pydantic, YAML, regex) load
# with the first call scored, not with a command's start (issue 31).
from polygon import score as _score
from polygon.app.passes import Visit, read_run_head, run_started
from polygon.errors import UserInputError
from polygon.events import (
    RUBRIC,
    EventLog,
    Pending,
    RunStarted,
    identity,
    keyed,
    run_stream,
)
from polygon.transcript import ConversationView

if TYPE_CHECKING:
    from polygon.score import JudgeContext, JudgeSettings, LoadedRubric


def record_rubric(log: EventLog, run_id: str, rubric: LoadedRubric, now: Callable[[], str]) -> None:
    """Put the rubric into the run's stream; refuse a changed file under a used version."""
    head = read_run_head(log, run_id)
    for p in head.rubrics if head else ():
        if p.version == rubric.rubric.version and p.rubric_hash != rubric.rubric_hash:
            raise UserInputError(
                f"rubric {p.version} in {rubric.source} differs from the {p.version} this run was judged "
                f"with (hash {p.rubric_hash[:12]} in the log, {rubric.rubric_hash[:12]} in the file); "
                "a change of criteria, weights or gates needs a new version"
            )
    key = keyed(RUBRIC, rubric.rubric.version, rubric.rubric_hash)
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


@dataclass(frozen=True)
class ScoreSummary:
    """What a scoring pass did."""

    pass_id: str
    scored: int
    already: int
    rubric_version: str = ""
    warnings: tuple[str, ...] = ()
    """Said before the summary (a rubric that gates less than the run's own)."""


@dataclass
class Scoring:
    """A scoring pass as a visitor: ``polygon run`` reads each call once for it and the probes."""

    started: RunStarted
    settings: JudgeSettings
    done: int = 0
    already: int = 0

    @classmethod
    def start(cls, log: EventLog, run_id: str, settings: JudgeSettings, now: Callable[[], str]) -> Scoring:
        """Record the rubric (refusing a changed one) and make the visitor."""
        started = run_started(log, run_id)
        record_rubric(log, run_id, settings.rubric, now)
        return cls(started, settings)

    async def visit(self, conversation: Visit) -> None:
        """Score one call unless this pass already has."""
        if self.settings.pass_id in conversation.head.passes:
            self.already += 1
            return
        context = judge_context(self.started, conversation.view)
        forbidden = self.started.forbidden_phrases
        policies = _score.decode(self.started.policies)
        await _score.score_conversation(
            conversation.view, self.settings, forbidden, conversation.sink, context, policies=policies
        )
        self.done += 1

    def summary(self) -> ScoreSummary:
        """What the pass did."""
        return ScoreSummary(self.settings.pass_id, self.done, self.already)


def judge_context(started: RunStarted, view: ConversationView) -> JudgeContext:
    """The prompt and tools the call was made under: recorded with the run, or carried by an import."""
    if view.imported is not None:
        tools = list(view.imported.tools) or list(started.tools)  # the export's own, when it had them
        return _score.JudgeContext(prompt=view.imported.system_prompt or None, tools=tools)
    config = view.started.config if view.started else ""
    return _score.JudgeContext(prompt=started.prompts.get(config), tools=list(started.tools))
