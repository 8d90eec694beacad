"""Scoring one conversation: the deterministic checks, then each judge repeat, into a sink."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from polygon.errors import UserInputError
from polygon.events import CHECK, JUDGE, CriterionScore, JudgeScored, keyed
from polygon.models import Recorder
from polygon.recording import Sink
from polygon.score.checks import run_checks
from polygon.score.judges import Judge, JudgeContext
from polygon.score.judges.heuristic import HEURISTIC_JUDGE, HeuristicJudge
from polygon.score.judges.model import ModelJudge
from polygon.score.policies import Policy
from polygon.score.rubric import LoadedRubric
from polygon.score.verdict import NOTHING_TO_JUDGE
from polygon.transcript import ConversationView

if TYPE_CHECKING:
    from polygon.models import ModelHub


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
        if not self.judge.heuristic:
            base += f"/{self.judge.prompt_version}"  # a new judge prompt is a new pass
        return f"{base}#{self.new_pass}" if self.new_pass else base


def judge_for(model: str, hub: ModelHub) -> Judge:
    """The judge a reference names, its model calls (if any) recorded as the judge's."""
    return make_judge(model, hub.resolve(model, role="judge"))


def make_judge(model: str, recorder: Recorder | None = None) -> Judge:
    """``scripted/heuristic`` offline, or a model judge whose calls are recorded."""
    if model == HEURISTIC_JUDGE:
        return HeuristicJudge()
    if recorder is None:
        raise UserInputError(
            f"judge {model!r} needs a model client (a provider/model reference resolved by the model hub); "
            f"offline, use {HEURISTIC_JUDGE}"
        )
    return ModelJudge(recorder)


async def score_conversation(
    view: ConversationView,
    settings: JudgeSettings,
    forbidden: list[str],
    sink: Sink,
    context: JudgeContext | None = None,
    *,
    policies: Sequence[Policy] = (),
) -> None:
    """Checks (the suite's policies among them), then each judge repeat, into ``sink``."""
    pass_id = settings.pass_id
    # the business's own data, to the disclosure detector and agent_contradicts_tools
    prompt = context.prompt if context else None
    found = run_checks(view, forbidden=forbidden, policies=policies, prompt=prompt)
    checks = [msgspec.structs.replace(c, pass_id=pass_id) for c in found]
    for i, check in enumerate(checks):
        sink.emit(keyed(CHECK, pass_id), check, index=i)
    r = settings.rubric
    empty = nothing_to_judge(view)
    for repeat in range(settings.repeats):
        given = context or JudgeContext()
        if empty:  # no judge is asked: every criterion unscored, so the call is inconclusive
            scores: dict[str, CriterionScore] = {
                c.id: CriterionScore(status="unscored", reason=empty) for c in r.rubric.criteria
            }
            raw = ""
        else:
            scores, raw = await settings.judge.score(view, checks, r.rubric, repeat, sink, given)
        sink.emit(
            keyed(JUDGE, pass_id),
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
                prompt_version=settings.judge.prompt_version,
            ),
            index=repeat,
        )


def nothing_to_judge(view: ConversationView) -> str:
    """Why an imported call carries nothing to judge ("" when it does).

    An imported call in which the agent neither spoke nor called a tool says nothing about
    the agent (a cut export, a caller-only fragment): judging it would score silence, and
    the heuristic judge once passed such a call at 76.25. A simulated call is never empty
    in this sense: an agent that was asked and said nothing is the agent's fault.
    """
    if view.imported is None:
        return ""
    if any((t.agent_text or "").strip() or t.tools for t in view.turns):
        return ""
    return NOTHING_TO_JUDGE
