"""Event payload families, one small module each. Importing this package registers them."""

from polygon.events.families.check import CheckRecorded, Evidence
from polygon.events.families.conversation import (
    ConversationEnded,
    ConversationStarted,
    Expectation,
    PersonaSnapshot,
    SaidBefore,
    SpokenBesideTools,
    TurnSpoken,
)
from polygon.events.families.imported import TranscriptImported
from polygon.events.families.judge import CriterionScore, JudgeScored
from polygon.events.families.label import CallerTurnLabelled, LabelRecorded
from polygon.events.families.lint import LintMark, PromptLinted
from polygon.events.families.model import ModelCalled
from polygon.events.families.noise import NoiseApplied, NoiseOp, PhoneApplied
from polygon.events.families.probe import ProbeAnswered
from polygon.events.families.rubric import RubricRecorded
from polygon.events.families.run import RunFinished, RunHidden, RunStarted
from polygon.events.families.sweep import (
    PointRan,
    PointRefused,
    SweepFinished,
    SweepPoint,
    SweepStarted,
    SweepStopped,
)
from polygon.events.families.tool import ToolCalled

__all__ = [
    "CallerTurnLabelled",
    "CheckRecorded",
    "ConversationEnded",
    "ConversationStarted",
    "CriterionScore",
    "Evidence",
    "Expectation",
    "JudgeScored",
    "LabelRecorded",
    "LintMark",
    "ModelCalled",
    "NoiseApplied",
    "NoiseOp",
    "PersonaSnapshot",
    "PhoneApplied",
    "PointRan",
    "PointRefused",
    "ProbeAnswered",
    "PromptLinted",
    "RubricRecorded",
    "SaidBefore",
    "SpokenBesideTools",
    "RunFinished",
    "RunHidden",
    "RunStarted",
    "SweepFinished",
    "SweepPoint",
    "SweepStarted",
    "SweepStopped",
    "ToolCalled",
    "TranscriptImported",
    "TurnSpoken",
]
