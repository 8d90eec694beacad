"""Use cases: what the CLI (and later the web UI) calls. One function per user action."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.app.calibrate import calibrate_runs as calibrate_runs
    from polygon.app.calibrate import labelled_calibration as labelled_calibration
    from polygon.app.callers import realism as realism
    from polygon.app.callers import realism_lines as realism_lines
    from polygon.app.callers import record_marks as record_marks
    from polygon.app.callers import sample_turns as sample_turns
    from polygon.app.compare import compare_runs as compare_runs
    from polygon.app.demo import run_demo as run_demo
    from polygon.app.divergence import divergence_between as divergence_between
    from polygon.app.editor_schema import KINDS as KINDS
    from polygon.app.editor_schema import attribute_docs as attribute_docs
    from polygon.app.editor_schema import json_schema as json_schema
    from polygon.app.editor_schema import render as render
    from polygon.app.explain import explain_conversation as explain_conversation
    from polygon.app.import_ import ImportOptions as ImportOptions
    from polygon.app.import_ import import_files as import_files
    from polygon.app.init import init_suite as init_suite
    from polygon.app.judge import judge_run as judge_run
    from polygon.app.label import VERDICTS as VERDICTS
    from polygon.app.label import LabelInput as LabelInput
    from polygon.app.label import check_criteria as check_criteria
    from polygon.app.label import read_label_file as read_label_file
    from polygon.app.label import record_labels as record_labels
    from polygon.app.leaderboard import sweep_leaderboard as sweep_leaderboard
    from polygon.app.lint import DEFAULT_TIERS as DEFAULT_TIERS
    from polygon.app.lint import LintOptions as LintOptions
    from polygon.app.lint import Readers as Readers
    from polygon.app.lint import lint_targets as lint_targets
    from polygon.app.lint import suite_targets as suite_targets
    from polygon.app.lint import targets as targets
    from polygon.app.log import compact_log as compact_log
    from polygon.app.log import export_jsonl as export_jsonl
    from polygon.app.log import log_stats as log_stats
    from polygon.app.log import open_log as open_log
    from polygon.app.log import recorded_answers as recorded_answers
    from polygon.app.log import upgrade_log as upgrade_log
    from polygon.app.log import verify_log as verify_log
    from polygon.app.noise import PhoneSettings as PhoneSettings
    from polygon.app.noise import preview_noise as preview_noise
    from polygon.app.noise import preview_phone as preview_phone
    from polygon.app.outputs import compare_output as compare_output
    from polygon.app.outputs import page_output as page_output
    from polygon.app.outputs import report_output as report_output
    from polygon.app.passes import run_started as run_started
    from polygon.app.personas import check_stale as check_stale
    from polygon.app.personas import generate as generate
    from polygon.app.personas import personas_path as personas_path
    from polygon.app.personas import stale_personas as stale_personas
    from polygon.app.probe import load_probes as load_probes
    from polygon.app.probe import probe_with as probe_with
    from polygon.app.prompt import lint_draft as lint_draft
    from polygon.app.prompt import save_prompt as save_prompt
    from polygon.app.queries import load_run as load_run
    from polygon.app.queries import probe_answers as probe_answers
    from polygon.app.queries import resolve_conversation as resolve_conversation
    from polygon.app.queries import resolve_run as resolve_run
    from polygon.app.replay import broken_policies as broken_policies
    from polygon.app.replay import load_conversation as load_conversation
    from polygon.app.report import load_report as load_report
    from polygon.app.report import report_run as report_run
    from polygon.app.rerun import rerun_conversation as rerun_conversation
    from polygon.app.run import RunOptions as RunOptions
    from polygon.app.run import RunSummary as RunSummary
    from polygon.app.run import missed_goals as missed_goals
    from polygon.app.run import run_suite as run_suite
    from polygon.app.runs import RunRow as RunRow
    from polygon.app.runs import hide_run as hide_run
    from polygon.app.runs import list_runs as list_runs
    from polygon.app.runs import run_state as run_state
    from polygon.app.scenarios import DraftModel as DraftModel
    from polygon.app.scenarios import from_calls as from_calls
    from polygon.app.schema import schema_text as schema_text
    from polygon.app.stopping import stoppable as stoppable
    from polygon.app.sweep import SweepOptions as SweepOptions
    from polygon.app.sweep import run_sweep as run_sweep
    from polygon.app.trend import probe_trend as probe_trend
    from polygon.app.views import fingerprint as fingerprint

_FACE = {
    "DEFAULT_TIERS": "polygon.app.lint",
    "DraftModel": "polygon.app.scenarios",
    "ImportOptions": "polygon.app.import_",
    "KINDS": "polygon.app.editor_schema",
    "LabelInput": "polygon.app.label",
    "LintOptions": "polygon.app.lint",
    "PhoneSettings": "polygon.app.noise",
    "Readers": "polygon.app.lint",
    "RunOptions": "polygon.app.run",
    "RunRow": "polygon.app.runs",
    "RunSummary": "polygon.app.run",
    "SweepOptions": "polygon.app.sweep",
    "VERDICTS": "polygon.app.label",
    "attribute_docs": "polygon.app.editor_schema",
    "broken_policies": "polygon.app.replay",
    "calibrate_runs": "polygon.app.calibrate",
    "check_criteria": "polygon.app.label",
    "check_stale": "polygon.app.personas",
    "compact_log": "polygon.app.log",
    "compare_output": "polygon.app.outputs",
    "compare_runs": "polygon.app.compare",
    "divergence_between": "polygon.app.divergence",
    "explain_conversation": "polygon.app.explain",
    "export_jsonl": "polygon.app.log",
    "fingerprint": "polygon.app.views",
    "from_calls": "polygon.app.scenarios",
    "generate": "polygon.app.personas",
    "hide_run": "polygon.app.runs",
    "import_files": "polygon.app.import_",
    "init_suite": "polygon.app.init",
    "json_schema": "polygon.app.editor_schema",
    "judge_run": "polygon.app.judge",
    "labelled_calibration": "polygon.app.calibrate",
    "lint_draft": "polygon.app.prompt",
    "lint_targets": "polygon.app.lint",
    "list_runs": "polygon.app.runs",
    "load_conversation": "polygon.app.replay",
    "load_probes": "polygon.app.probe",
    "load_report": "polygon.app.report",
    "load_run": "polygon.app.queries",
    "log_stats": "polygon.app.log",
    "missed_goals": "polygon.app.run",
    "open_log": "polygon.app.log",
    "personas_path": "polygon.app.personas",
    "preview_noise": "polygon.app.noise",
    "preview_phone": "polygon.app.noise",
    "probe_answers": "polygon.app.queries",
    "probe_trend": "polygon.app.trend",
    "probe_with": "polygon.app.probe",
    "read_label_file": "polygon.app.label",
    "realism": "polygon.app.callers",
    "realism_lines": "polygon.app.callers",
    "record_labels": "polygon.app.label",
    "record_marks": "polygon.app.callers",
    "recorded_answers": "polygon.app.log",
    "render": "polygon.app.editor_schema",
    "page_output": "polygon.app.outputs",
    "report_output": "polygon.app.outputs",
    "report_run": "polygon.app.report",
    "rerun_conversation": "polygon.app.rerun",
    "resolve_conversation": "polygon.app.queries",
    "resolve_run": "polygon.app.queries",
    "run_demo": "polygon.app.demo",
    "run_started": "polygon.app.passes",
    "run_state": "polygon.app.runs",
    "run_suite": "polygon.app.run",
    "run_sweep": "polygon.app.sweep",
    "sample_turns": "polygon.app.callers",
    "save_prompt": "polygon.app.prompt",
    "schema_text": "polygon.app.schema",
    "stale_personas": "polygon.app.personas",
    "stoppable": "polygon.app.stopping",
    "suite_targets": "polygon.app.lint",
    "sweep_leaderboard": "polygon.app.leaderboard",
    "targets": "polygon.app.lint",
    "upgrade_log": "polygon.app.log",
    "verify_log": "polygon.app.log",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
