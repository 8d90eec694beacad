"""The model judge: the rubric prompt through the model-client seam, k repeats.

Every call is recorded (``model.called``) before its answer is parsed, and the raw answer
is kept in ``judge.scored`` even when it does not parse: a bad answer becomes unscored
criteria, never an exception that kills a run.
"""

from __future__ import annotations

from collections.abc import Sequence

from polygon.events import CheckRecorded, CriterionScore
from polygon.models import Recorder
from polygon.recording import Sink
from polygon.score.judges import JudgeContext
from polygon.score.judges.parse import parse_scores
from polygon.score.judges.prompt import JUDGE_PROMPT_VERSION, judge_request
from polygon.score.rubric import Rubric
from polygon.transcript import ConversationView


class ModelJudge:
    """A judge backed by a language model."""

    heuristic = False
    prompt_version = JUDGE_PROMPT_VERSION

    def __init__(self, recorder: Recorder) -> None:
        self.name = recorder.model
        self._recorder = recorder

    async def score(
        self,
        view: ConversationView,
        checks: Sequence[CheckRecorded],
        rubric: Rubric,
        repeat: int,
        sink: Sink,
        context: JudgeContext,
    ) -> tuple[dict[str, CriterionScore], str]:
        """One repeat: ask, record, parse."""
        request = judge_request(view, rubric, self.name, repeat, context)
        recorded = self._recorder.to(sink, view.conversation_id)
        answer = await recorded.complete(request, index=repeat)
        criteria = [c.id for c in rubric.criteria]
        return parse_scores(answer.text, criteria), answer.text or ""
