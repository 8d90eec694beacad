"""Renderers: every output people and tools read, made from projections.

Text, JSON, JUnit, Markdown, HTML and SARIF, and the CI's verdict on a run: projections fold
the log, this package only writes what they folded (the layers contract puts it between app
and projections). The HTML report is drawn from Jinja templates in the one environment the
web UI's pages use too (``templating``), so they share its tables.
"""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.render.calibration import calibration_data as calibration_data
    from polygon.render.calibration import calibration_lines as calibration_lines
    from polygon.render.compare import comparison_json as comparison_json
    from polygon.render.compare import comparison_judge as comparison_judge
    from polygon.render.compare import comparison_lines as comparison_lines
    from polygon.render.compare import comparison_markdown as comparison_markdown
    from polygon.render.compare import mixed_setting_line as mixed_setting_line
    from polygon.render.compare_analysis import comparison_analysis as comparison_analysis
    from polygon.render.demo import DemoResult as DemoResult
    from polygon.render.demo import demo_lines as demo_lines
    from polygon.render.enforcement import Enforcement as Enforcement
    from polygon.render.enforcement import enforce as enforce
    from polygon.render.explain import explain_data as explain_data
    from polygon.render.explain import explain_lines as explain_lines
    from polygon.render.formats import RENDERERS as RENDERERS
    from polygon.render.leaderboard import leaderboard_data as leaderboard_data
    from polygon.render.leaderboard import leaderboard_html as leaderboard_html
    from polygon.render.leaderboard import leaderboard_json as leaderboard_json
    from polygon.render.leaderboard import leaderboard_lines as leaderboard_lines
    from polygon.render.lint import lint_json as lint_json
    from polygon.render.lint import lint_lines as lint_lines
    from polygon.render.replay import replay_data as replay_data
    from polygon.render.replay import replay_ending_lines as replay_ending_lines
    from polygon.render.replay import replay_header_lines as replay_header_lines
    from polygon.render.replay import replay_policy_lines as replay_policy_lines
    from polygon.render.replay import replay_turn_lines as replay_turn_lines
    from polygon.render.report import json_chunks as json_chunks
    from polygon.render.report import json_document as json_document
    from polygon.render.report import json_row as json_row
    from polygon.render.report import render_html as render_html
    from polygon.render.report import render_json as render_json
    from polygon.render.report import render_junit as render_junit
    from polygon.render.report import render_markdown as render_markdown
    from polygon.render.report import render_text as render_text
    from polygon.render.sarif import build_sarif as build_sarif
    from polygon.render.templating import environment as environment

_FACE = {
    "DemoResult": "polygon.render.demo",
    "Enforcement": "polygon.render.enforcement",
    "RENDERERS": "polygon.render.formats",
    "build_sarif": "polygon.render.sarif",
    "calibration_data": "polygon.render.calibration",
    "calibration_lines": "polygon.render.calibration",
    "comparison_analysis": "polygon.render.compare_analysis",
    "comparison_json": "polygon.render.compare",
    "comparison_judge": "polygon.render.compare",
    "comparison_lines": "polygon.render.compare",
    "comparison_markdown": "polygon.render.compare",
    "demo_lines": "polygon.render.demo",
    "enforce": "polygon.render.enforcement",
    "environment": "polygon.render.templating",
    "explain_data": "polygon.render.explain",
    "explain_lines": "polygon.render.explain",
    "json_chunks": "polygon.render.report",
    "json_document": "polygon.render.report",
    "json_row": "polygon.render.report",
    "leaderboard_data": "polygon.render.leaderboard",
    "leaderboard_html": "polygon.render.leaderboard",
    "leaderboard_json": "polygon.render.leaderboard",
    "leaderboard_lines": "polygon.render.leaderboard",
    "lint_json": "polygon.render.lint",
    "lint_lines": "polygon.render.lint",
    "mixed_setting_line": "polygon.render.compare",
    "render_html": "polygon.render.report",
    "render_json": "polygon.render.report",
    "render_junit": "polygon.render.report",
    "render_markdown": "polygon.render.report",
    "render_text": "polygon.render.report",
    "replay_data": "polygon.render.replay",
    "replay_ending_lines": "polygon.render.replay",
    "replay_header_lines": "polygon.render.replay",
    "replay_policy_lines": "polygon.render.replay",
    "replay_turn_lines": "polygon.render.replay",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
