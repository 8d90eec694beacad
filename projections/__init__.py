"""Projections: pure folds over the event log, and the reports rendered from them."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.projections.calibration import Calibration as Calibration
    from polygon.projections.calibration import calibrate as calibrate
    from polygon.projections.calibration import calibration_lines as calibration_lines
    from polygon.projections.compare import Comparison as Comparison
    from polygon.projections.compare import Side as Side
    from polygon.projections.compare import build_comparison as build_comparison
    from polygon.projections.compare_render import comparison_json as comparison_json
    from polygon.projections.compare_render import comparison_lines as comparison_lines
    from polygon.projections.compare_render import comparison_markdown as comparison_markdown
    from polygon.projections.conversation import ConversationView as ConversationView
    from polygon.projections.conversation import build as build
    from polygon.projections.explain import build_explanation as build_explanation
    from polygon.projections.explain import explain_data as explain_data
    from polygon.projections.explain import explain_lines as explain_lines
    from polygon.projections.leaderboard import Leaderboard as Leaderboard
    from polygon.projections.leaderboard import build_leaderboard as build_leaderboard
    from polygon.projections.leaderboard import leaderboard_html as leaderboard_html
    from polygon.projections.leaderboard import leaderboard_json as leaderboard_json
    from polygon.projections.leaderboard import leaderboard_lines as leaderboard_lines
    from polygon.projections.lint import PromptLint as PromptLint
    from polygon.projections.lint import fold_lint as fold_lint
    from polygon.projections.lint import lint_json as lint_json
    from polygon.projections.lint import lint_lines as lint_lines
    from polygon.projections.lint import lint_scores as lint_scores
    from polygon.projections.lint import worst as worst
    from polygon.projections.lint_sarif import build_sarif as build_sarif
    from polygon.projections.probes import ProbeTable as ProbeTable
    from polygon.projections.probes import Rate as Rate
    from polygon.projections.probes import latest_answers as latest_answers
    from polygon.projections.probes import wilson as wilson
    from polygon.projections.replay import as_data as as_data
    from polygon.projections.replay import ending_lines as ending_lines
    from polygon.projections.replay import header_lines as header_lines
    from polygon.projections.replay import policy_lines as policy_lines
    from polygon.projections.replay import turn_lines as turn_lines
    from polygon.projections.report import HEURISTIC_LABEL as HEURISTIC_LABEL
    from polygon.projections.report import RunReport as RunReport
    from polygon.projections.report import json_chunks as json_chunks
    from polygon.projections.report import make_report as make_report
    from polygon.projections.report import render_html as render_html
    from polygon.projections.report import render_json as render_json
    from polygon.projections.report import render_junit as render_junit
    from polygon.projections.report import render_markdown as render_markdown
    from polygon.projections.report import render_text as render_text
    from polygon.projections.report import state_of as state_of
    from polygon.projections.run_head import RunHead as RunHead
    from polygon.projections.run_head import fold_run_head as fold_run_head
    from polygon.projections.run_overview import RunOverview as RunOverview
    from polygon.projections.run_overview import build_overview as build_overview
    from polygon.projections.verdicts import ConversationVerdict as ConversationVerdict
    from polygon.projections.verdicts import RunRecord as RunRecord
    from polygon.projections.verdicts import build_run_record as build_run_record
    from polygon.projections.verdicts import choose_version as choose_version
    from polygon.projections.verdicts import conversation_rows as conversation_rows

_FACE = {
    "Calibration": "polygon.projections.calibration",
    "Comparison": "polygon.projections.compare",
    "ConversationVerdict": "polygon.projections.verdicts",
    "ConversationView": "polygon.projections.conversation",
    "HEURISTIC_LABEL": "polygon.projections.report",
    "Leaderboard": "polygon.projections.leaderboard",
    "ProbeTable": "polygon.projections.probes",
    "PromptLint": "polygon.projections.lint",
    "Rate": "polygon.projections.probes",
    "RunHead": "polygon.projections.run_head",
    "RunOverview": "polygon.projections.run_overview",
    "RunRecord": "polygon.projections.verdicts",
    "RunReport": "polygon.projections.report",
    "Side": "polygon.projections.compare",
    "as_data": "polygon.projections.replay",
    "build": "polygon.projections.conversation",
    "build_comparison": "polygon.projections.compare",
    "build_explanation": "polygon.projections.explain",
    "build_leaderboard": "polygon.projections.leaderboard",
    "build_overview": "polygon.projections.run_overview",
    "build_run_record": "polygon.projections.verdicts",
    "build_sarif": "polygon.projections.lint_sarif",
    "calibrate": "polygon.projections.calibration",
    "calibration_lines": "polygon.projections.calibration",
    "choose_version": "polygon.projections.verdicts",
    "comparison_json": "polygon.projections.compare_render",
    "comparison_lines": "polygon.projections.compare_render",
    "comparison_markdown": "polygon.projections.compare_render",
    "conversation_rows": "polygon.projections.verdicts",
    "ending_lines": "polygon.projections.replay",
    "explain_data": "polygon.projections.explain",
    "explain_lines": "polygon.projections.explain",
    "fold_lint": "polygon.projections.lint",
    "fold_run_head": "polygon.projections.run_head",
    "header_lines": "polygon.projections.replay",
    "json_chunks": "polygon.projections.report",
    "latest_answers": "polygon.projections.probes",
    "leaderboard_html": "polygon.projections.leaderboard",
    "leaderboard_json": "polygon.projections.leaderboard",
    "leaderboard_lines": "polygon.projections.leaderboard",
    "lint_json": "polygon.projections.lint",
    "lint_lines": "polygon.projections.lint",
    "lint_scores": "polygon.projections.lint",
    "make_report": "polygon.projections.report",
    "policy_lines": "polygon.projections.replay",
    "render_html": "polygon.projections.report",
    "render_json": "polygon.projections.report",
    "render_junit": "polygon.projections.report",
    "render_markdown": "polygon.projections.report",
    "render_text": "polygon.projections.report",
    "state_of": "polygon.projections.report",
    "turn_lines": "polygon.projections.replay",
    "wilson": "polygon.projections.probes",
    "worst": "polygon.projections.lint",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = [
    "Calibration",
    "Comparison",
    "ConversationVerdict",
    "ConversationView",
    "HEURISTIC_LABEL",
    "Leaderboard",
    "ProbeTable",
    "PromptLint",
    "Rate",
    "RunHead",
    "RunOverview",
    "RunRecord",
    "RunReport",
    "Side",
    "as_data",
    "build",
    "build_comparison",
    "build_explanation",
    "build_leaderboard",
    "build_overview",
    "build_run_record",
    "build_sarif",
    "calibrate",
    "calibration_lines",
    "choose_version",
    "comparison_json",
    "comparison_lines",
    "comparison_markdown",
    "conversation_rows",
    "ending_lines",
    "explain_data",
    "explain_lines",
    "fold_lint",
    "fold_run_head",
    "header_lines",
    "json_chunks",
    "latest_answers",
    "leaderboard_html",
    "leaderboard_json",
    "leaderboard_lines",
    "lint_json",
    "lint_lines",
    "lint_scores",
    "make_report",
    "policy_lines",
    "render_html",
    "render_json",
    "render_junit",
    "render_markdown",
    "render_text",
    "state_of",
    "turn_lines",
    "wilson",
    "worst",
]
