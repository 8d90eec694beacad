"""Scoring: deterministic checks, the rubric and its verdict math, and the judges."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.score.checks import AGENT_CHECKS as AGENT_CHECKS
    from polygon.score.conversation import JudgeSettings as JudgeSettings
    from polygon.score.conversation import judge_for as judge_for
    from polygon.score.conversation import make_judge as make_judge
    from polygon.score.conversation import score_conversation as score_conversation
    from polygon.score.criteria import CRITERIA as CRITERIA
    from polygon.score.judges import JudgeContext as JudgeContext
    from polygon.score.policies import decode as decode
    from polygon.score.prompt_forbids import prohibitions as prohibitions
    from polygon.score.rubric import BUILTIN_GATES as BUILTIN_GATES
    from polygon.score.rubric import CHECK_GATE as CHECK_GATE
    from polygon.score.rubric import LoadedRubric as LoadedRubric
    from polygon.score.rubric import Rubric as Rubric
    from polygon.score.rubric import bundled_versions as bundled_versions
    from polygon.score.rubric import load_rubric as load_rubric
    from polygon.score.spoken import stated_values as stated_values
    from polygon.score.tool_facts import values_in as values_in
    from polygon.score.verdict import GRADED as GRADED
    from polygon.score.verdict import OUT_OF_SCORECARD as OUT_OF_SCORECARD
    from polygon.score.verdict import STATES as STATES
    from polygon.score.verdict import CallState as CallState
    from polygon.score.verdict import GateResult as GateResult
    from polygon.score.verdict import Verdict as Verdict
    from polygon.score.verdict import reach_verdict as reach_verdict

_FACE = {
    "AGENT_CHECKS": "polygon.score.checks",
    "BUILTIN_GATES": "polygon.score.rubric",
    "CHECK_GATE": "polygon.score.rubric",
    "CRITERIA": "polygon.score.criteria",
    "CallState": "polygon.score.verdict",
    "GRADED": "polygon.score.verdict",
    "GateResult": "polygon.score.verdict",
    "JudgeContext": "polygon.score.judges",
    "JudgeSettings": "polygon.score.conversation",
    "LoadedRubric": "polygon.score.rubric",
    "OUT_OF_SCORECARD": "polygon.score.verdict",
    "Rubric": "polygon.score.rubric",
    "STATES": "polygon.score.verdict",
    "Verdict": "polygon.score.verdict",
    "bundled_versions": "polygon.score.rubric",
    "decode": "polygon.score.policies",
    "judge_for": "polygon.score.conversation",
    "load_rubric": "polygon.score.rubric",
    "make_judge": "polygon.score.conversation",
    "prohibitions": "polygon.score.prompt_forbids",
    "reach_verdict": "polygon.score.verdict",
    "score_conversation": "polygon.score.conversation",
    "stated_values": "polygon.score.spoken",
    "values_in": "polygon.score.tool_facts",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
