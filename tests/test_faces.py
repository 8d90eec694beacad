"""Every package has a public face, and code outside a package imports only that face.

A package's ``__init__`` lists its face in ``__all__`` (generated from what other packages use,
loaded lazily through ``polygon.lazy``); this test pins each face so that a change to one is a
decision, and checks that product code never reaches into another package's submodules.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {
    "polygon": "polygon",
    "events": "polygon.events",
    "projections": "polygon.projections",
    "cli": "polygon.cli",
}
ENTRY = "polygon.cli"  # the entry point: nothing imports it but ``python -m polygon``

FACES: dict[str, list[str]] = {
    "polygon.app": [
        "DEFAULT_TIERS",
        "DraftModel",
        "Enforcement",
        "ImportOptions",
        "KINDS",
        "LabelInput",
        "LintOptions",
        "PhoneSettings",
        "Readers",
        "RunOptions",
        "RunRow",
        "RunSummary",
        "SweepOptions",
        "VERDICTS",
        "attribute_docs",
        "broken_policies",
        "calibrate_runs",
        "check_criteria",
        "check_stale",
        "compact_log",
        "compare_runs",
        "demo_lines",
        "divergence_between",
        "enforce",
        "explain_conversation",
        "export_jsonl",
        "from_calls",
        "generate",
        "hide_run",
        "import_files",
        "init_suite",
        "json_schema",
        "judge_run",
        "labelled_calibration",
        "lint_draft",
        "lint_targets",
        "list_runs",
        "load_conversation",
        "load_probes",
        "load_run",
        "open_log",
        "personas_path",
        "preview_noise",
        "preview_phone",
        "probe_answers",
        "probe_trend",
        "probe_with",
        "read_label_file",
        "realism",
        "realism_lines",
        "record_labels",
        "record_marks",
        "recorded_answers",
        "render",
        "report_run",
        "rerun_conversation",
        "resolve_conversation",
        "resolve_run",
        "run_demo",
        "run_started",
        "run_state",
        "run_suite",
        "run_sweep",
        "sample_turns",
        "save_prompt",
        "schema_text",
        "stale_personas",
        "suite_targets",
        "sweep_leaderboard",
        "targets",
        "upgrade_log",
        "verify_log",
    ],
    "polygon.compare": [
        "Divergence",
        "agent_turn_divergence",
        "find_divergence",
    ],
    "polygon.execute": [
        "Executor",
        "InProcessExecutor",
        "Work",
        "make_executor",
    ],
    "polygon.importing": [
        "AGENT_NAMES",
        "CALLER_NAMES",
        "Draft",
        "END_CALL_TOOLS",
        "FORMATS",
        "ImportProblem",
        "ImportedConversation",
        "TRANSFER_TOOLS",
        "clusters",
        "coverage",
        "draft",
        "ending_of",
        "is_ending_tool",
        "parse",
        "redact",
        "redact_value",
        "refine_request",
        "refined",
        "safe_key",
        "suite_intents",
        "transcript_text",
    ],
    "polygon.languages": [
        "Acts",
        "CALLER_TYPES",
        "CODE",
        "DATE",
        "LANGUAGES",
        "Language",
        "LanguagePackError",
        "Lexicon",
        "Manner",
        "NUMBER",
        "Noise",
        "RuleWords",
        "Say",
        "SmallTalk",
        "Spoken",
        "TIME",
        "Turn",
        "Understand",
        "caller_language",
        "has",
        "load_language",
        "parse_language",
        "read_turn",
    ],
    "polygon.lint": [
        "AXES",
        "E5Embedder",
        "EMBEDDINGS_VERSION",
        "Embedder",
        "JUDGE_VERSION",
        "LANGUAGES",
        "LlamaScorer",
        "MAX_MARKS",
        "MAX_MARKS_PER_AXIS",
        "MAX_PARTNERS",
        "MAX_PROMPT_CHARS",
        "OFFLINE_TIERS",
        "Prompt",
        "RULES_MODEL",
        "Reading",
        "SURPRISAL_VERSION",
        "TIERS",
        "TierReading",
        "TokenScorer",
        "TokenSurprisal",
        "detect_language",
        "read_embeddings",
        "read_judge",
        "read_prompt",
        "read_rules",
        "read_surprisal",
        "size_error",
        "strongest",
    ],
    "polygon.models": [
        "ModelClient",
        "ModelHub",
        "ModelSettings",
        "RecordedClient",
        "Recorder",
        "is_scripted",
        "packaged_model_path",
    ],
    "polygon.probe": [
        "DETECTOR",
        "ProbeAnswerer",
        "answered",
        "answerer_for",
        "detect",
        "parse_answer",
        "probe_request",
        "probes_from",
        "right_answer",
    ],
    "polygon.render": [
        "build_sarif",
        "calibration_lines",
        "comparison_json",
        "comparison_lines",
        "comparison_markdown",
        "explain_data",
        "explain_lines",
        "json_chunks",
        "leaderboard_html",
        "leaderboard_json",
        "leaderboard_lines",
        "lint_json",
        "lint_lines",
        "render_html",
        "render_json",
        "render_junit",
        "render_markdown",
        "render_text",
    ],
    "polygon.score": [
        "AGENT_CHECKS",
        "BUILTIN_GATES",
        "CHECK_GATE",
        "CRITERIA",
        "CallState",
        "GRADED",
        "GateResult",
        "JudgeContext",
        "JudgeSettings",
        "LoadedRubric",
        "OUT_OF_SCORECARD",
        "Rubric",
        "STATES",
        "Verdict",
        "bundled_versions",
        "decode",
        "judge_for",
        "load_rubric",
        "make_judge",
        "reach_verdict",
        "score_conversation",
    ],
    "polygon.simulate": [
        "AGENT_ENDINGS",
        "Agent",
        "AgentError",
        "AgentPool",
        "AgentReply",
        "AgentStep",
        "Conversation",
        "ConversationPlan",
        "HttpAgent",
        "MAX_TOOL_ROUNDS",
        "Message",
        "PhoneSettings",
        "ReplayCaller",
        "ScriptedCaller",
        "ToolBox",
        "ToolCall",
        "ToolResult",
        "apply_noise",
        "check_references",
        "cut_reply",
        "draw",
        "iter_plans",
        "languages",
        "percentile",
        "plan_count",
        "profile_hash",
        "self_correct",
        "tool_definitions",
    ],
    "polygon.suite": [
        "ConfigSpec",
        "DETECTOR_PREFIX",
        "LoadedSuite",
        "LoadedSweep",
        "NAMED",
        "OFFLINE_GENERATOR",
        "OUTCOMES",
        "PERSONA_TYPES",
        "POLICY_KINDS",
        "PersonaSpec",
        "ProbeSpec",
        "Range",
        "Rule",
        "ScenarioSpec",
        "Slot",
        "StubSpec",
        "Suite",
        "SweepSpec",
        "ToolSpec",
        "coverage",
        "derive_suite",
        "inside",
        "load_suite",
        "load_sweep",
        "offline_persona",
        "resolve_factory",
    ],
    "polygon.sweep": [
        "Point",
        "Usage",
        "estimate",
        "make_points",
        "run_usage",
    ],
    "polygon.web": [
        "DEFAULT_PORT",
        "LINT_MAX_BYTES",
        "PER_PAGE",
        "SAVE_MAX_BYTES",
        "make_app",
    ],
}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder, package in SOURCES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder).with_suffix("")
            if folder == "polygon" and rel.parts[0] in ("events", "projections", "cli", "examples"):
                continue
            parts = [p for p in rel.parts if p != "__init__"]
            found[".".join([package, *parts])] = path
    return found


def _top(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_code_outside_a_package_imports_only_its_face() -> None:
    modules = _modules()
    packages = {_top(m) for m, p in modules.items() if p.name == "__init__.py" and m.count(".") == 1}
    reaching = []
    for module, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            target, top = node.module, _top(node.module)
            if top not in packages or top == _top(module) or top == ENTRY or target == top:
                continue
            reaching.append(f"{path.relative_to(ROOT)}:{node.lineno} imports from {target}")
    assert reaching == [], "import the package's face instead:\n" + "\n".join(reaching)


@pytest.mark.parametrize("package", sorted(FACES))
def test_face_is_pinned_and_every_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    assert sorted(module.__all__) == FACES[package]
    for name in module.__all__:
        assert getattr(module, name) is not None, f"{package}.{name}"


def test_unknown_face_name_is_an_attribute_error() -> None:
    app = importlib.import_module("polygon.app")
    with pytest.raises(AttributeError, match="no attribute 'no_such_use_case'"):
        app.no_such_use_case  # noqa: B018


def test_importing_a_face_loads_no_submodule_until_a_name_is_used() -> None:
    probe = (
        "import sys, polygon.app, polygon.projections, polygon.score; "
        "print(sorted(m for m in sys.modules if m.startswith(('polygon.app.', 'polygon.projections.', 'polygon.score.'))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
