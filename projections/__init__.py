"""Projections: pure folds over the event log (what is rendered from them lives in polygon.render)."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.projections.calibration import AGREEING as AGREEING
    from polygon.projections.calibration import Calibration as Calibration
    from polygon.projections.calibration import Interval as Interval
    from polygon.projections.calibration import calibrate as calibrate
    from polygon.projections.compare import Comparison as Comparison
    from polygon.projections.compare import MixedSetting as MixedSetting
    from polygon.projections.compare import PairedDifference as PairedDifference
    from polygon.projections.compare import Scorecard as Scorecard
    from polygon.projections.compare import Side as Side
    from polygon.projections.compare import build_comparison as build_comparison
    from polygon.projections.conversation import ConversationView as ConversationView
    from polygon.projections.conversation import build as build
    from polygon.projections.conversation_head import ConversationHead as ConversationHead
    from polygon.projections.conversation_head import fold_conversation_head as fold_conversation_head
    from polygon.projections.explain import build_explanation as build_explanation
    from polygon.projections.leaderboard import Leaderboard as Leaderboard
    from polygon.projections.leaderboard import LeaderboardRow as LeaderboardRow
    from polygon.projections.leaderboard import build_leaderboard as build_leaderboard
    from polygon.projections.lint import Marked as Marked
    from polygon.projections.lint import PromptLint as PromptLint
    from polygon.projections.lint import fold_lint as fold_lint
    from polygon.projections.lint import lint_scores as lint_scores
    from polygon.projections.lint import worst as worst
    from polygon.projections.probes import ProbeTable as ProbeTable
    from polygon.projections.probes import Rate as Rate
    from polygon.projections.probes import latest_answers as latest_answers
    from polygon.projections.probes import wilson as wilson
    from polygon.projections.report import ConfigSummary as ConfigSummary
    from polygon.projections.report import RunReport as RunReport
    from polygon.projections.report import ScenarioTrials as ScenarioTrials
    from polygon.projections.report import make_report as make_report
    from polygon.projections.report import state_of as state_of
    from polygon.projections.run_head import RunHead as RunHead
    from polygon.projections.run_head import fold_run_head as fold_run_head
    from polygon.projections.run_labels import RunLabels as RunLabels
    from polygon.projections.run_labels import fold_run_labels as fold_run_labels
    from polygon.projections.run_overview import RunOverview as RunOverview
    from polygon.projections.run_overview import build_overview as build_overview
    from polygon.projections.sweep_head import SweepHead as SweepHead
    from polygon.projections.sweep_head import fold_sweep_head as fold_sweep_head
    from polygon.projections.verdicts import ConversationVerdict as ConversationVerdict
    from polygon.projections.verdicts import RunRecord as RunRecord
    from polygon.projections.verdicts import build_run_record as build_run_record
    from polygon.projections.verdicts import choose_version as choose_version
    from polygon.projections.verdicts import conversation_rows as conversation_rows

_FACE = {
    "AGREEING": "polygon.projections.calibration",
    "Calibration": "polygon.projections.calibration",
    "Comparison": "polygon.projections.compare",
    "ConfigSummary": "polygon.projections.report",
    "ConversationHead": "polygon.projections.conversation_head",
    "ConversationVerdict": "polygon.projections.verdicts",
    "ConversationView": "polygon.projections.conversation",
    "Interval": "polygon.projections.calibration",
    "Leaderboard": "polygon.projections.leaderboard",
    "LeaderboardRow": "polygon.projections.leaderboard",
    "Marked": "polygon.projections.lint",
    "MixedSetting": "polygon.projections.compare",
    "PairedDifference": "polygon.projections.compare",
    "ProbeTable": "polygon.projections.probes",
    "PromptLint": "polygon.projections.lint",
    "Rate": "polygon.projections.probes",
    "RunHead": "polygon.projections.run_head",
    "RunLabels": "polygon.projections.run_labels",
    "RunOverview": "polygon.projections.run_overview",
    "RunRecord": "polygon.projections.verdicts",
    "RunReport": "polygon.projections.report",
    "ScenarioTrials": "polygon.projections.report",
    "Scorecard": "polygon.projections.compare",
    "Side": "polygon.projections.compare",
    "SweepHead": "polygon.projections.sweep_head",
    "build": "polygon.projections.conversation",
    "build_comparison": "polygon.projections.compare",
    "build_explanation": "polygon.projections.explain",
    "build_leaderboard": "polygon.projections.leaderboard",
    "build_overview": "polygon.projections.run_overview",
    "build_run_record": "polygon.projections.verdicts",
    "calibrate": "polygon.projections.calibration",
    "choose_version": "polygon.projections.verdicts",
    "conversation_rows": "polygon.projections.verdicts",
    "fold_conversation_head": "polygon.projections.conversation_head",
    "fold_lint": "polygon.projections.lint",
    "fold_run_head": "polygon.projections.run_head",
    "fold_run_labels": "polygon.projections.run_labels",
    "fold_sweep_head": "polygon.projections.sweep_head",
    "latest_answers": "polygon.projections.probes",
    "lint_scores": "polygon.projections.lint",
    "make_report": "polygon.projections.report",
    "state_of": "polygon.projections.report",
    "wilson": "polygon.projections.probes",
    "worst": "polygon.projections.lint",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
