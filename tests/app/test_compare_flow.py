from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.app.compare import compare_runs
from polygon.app.run import RunOptions, run_suite
from polygon.cli.main import cli
from polygon.errors import UserInputError
from polygon.events import LmdbLog, MemoryLog, to_builtins
from polygon.projections.compare import MatrixRow, bootstrap_mean, matrix, pass_hat_k
from polygon.projections.verdicts import ConversationRecord, ConversationVerdict
from polygon.render import comparison_analysis, comparison_json, comparison_judge
from polygon.score.verdict import Verdict
from polygon.suite.loading import load_suite
from tests.support.examples import clinic_suite_path
from tests.support.runs import pizza
from tests.support.text import replaced


@pytest.fixture(scope="module")
def clinic() -> MemoryLog:
    log = MemoryLog()
    run_suite(load_suite(clinic_suite_path()), log, RunOptions(run_id="c"), now=lambda: "")
    return log


def test_compare_configs_within_one_run(clinic: MemoryLog) -> None:
    c = compare_runs(clinic, ["c"])
    assert [s.label for s in c.sides] == ["v1", "v2"]
    v1, v2 = c.scorecards
    assert v1.composite_mean > v2.composite_mean and v2.loops > v1.loops == 0
    assert v1.composite_low <= v1.composite_mean <= v1.composite_high
    assert set(v1.by_caller_type) == {
        "cooperative",
        "busy",
        "distrustful",
        "confused",
        "aggressive",
        "chatty",
    }
    assert v1.probes["unkeepable_promise"].rate == 1.0 and v2.probes["unkeepable_promise"].rate < 1.0
    spreads = [r.spread for r in c.matrix]
    assert spreads == sorted(spreads, reverse=True)
    assert len(c.divergences) == 12 and c.differences[0].within_noise is False
    assert any("Gate failures" in line for line in comparison_analysis(c))
    assert "heuristic baseline" in comparison_judge(c)


def test_analysis_is_identical_on_rebuild(clinic: MemoryLog) -> None:
    assert comparison_json(compare_runs(clinic, ["c"])) == comparison_json(compare_runs(clinic, ["c"]))


def test_the_projection_holds_no_sentences_and_json_still_writes_them(clinic: MemoryLog) -> None:
    """The sentences are the renderer's; ``compare --format json`` keeps its keys (``analysis`` first)."""
    c = compare_runs(clinic, ["c"])
    assert {"analysis", "judge"}.isdisjoint(to_builtins(c)) and c.judges == ["scripted/heuristic"]
    out = comparison_json(c)
    assert out.startswith('{\n  "analysis": [\n')
    data = json.loads(out)
    assert data["analysis"] == comparison_analysis(c) != [] and data["judge"] == comparison_judge(c)
    assert "judges" not in data and data["mixed"] == []


def row(
    scenario: str, config: str, composite: float | None, trial: int = 0, verdict: str = "pass"
) -> ConversationVerdict:
    rec = ConversationRecord(
        conversation_id=f"r.{config}.{scenario}.{trial}", config=config, scenario=scenario, trial=trial
    )
    v = (
        None
        if composite is None
        else Verdict(
            composite=composite,
            verdict=verdict,
            partial=False,
            unscored=[],
            missing=[],
            criteria=[],
            gates=[],
        )
    )
    return ConversationVerdict(record=rec, verdict=v)


def test_missing_scenario_is_incomparable_never_zero() -> None:
    from polygon.projections.compare import Side

    sides = [Side(label="a", run_id="r", config="a"), Side(label="b", run_id="r", config="b")]
    rows = {
        "a": [row("s1", "a", 80), row("s2", "a", 90), row("s3", "a", 70)],
        "b": [row("s1", "b", 40), row("s2", "b", 85)],
    }
    out = matrix(sides, rows)
    assert [r.scenario for r in out] == ["s1", "s2", "s3"]
    assert out[-1] == MatrixRow(scenario="s3", values={"a": 70.0, "b": None}, spread=None, incomparable=True)
    assert out[0].spread == 40.0


def test_pass_hat_k() -> None:
    rows = [row("s1", "a", 90, t) for t in range(3)] + [
        row("s2", "a", 90, 0),
        row("s2", "a", 10, 1, "fail"),
        row("s2", "a", 90, 2),
    ]
    k = pass_hat_k(rows)
    assert k == {
        "1": pytest.approx((1 + 2 / 3) / 2, abs=1e-4),
        "2": pytest.approx((1 + 1 / 3) / 2, abs=1e-4),
        "3": 0.5,
    }


def test_bootstrap_is_seeded() -> None:
    data = [1.0, 5.0, -3.0, 8.0, 2.0]
    assert bootstrap_mean(data) == bootstrap_mean(data)
    low, high = bootstrap_mean(data)
    assert low < sum(data) / 5 < high


def _run(path: Path, run_id: str, rubric: str = "v5", configs: tuple[str, ...] = ()) -> None:
    suite = clinic_suite_path()
    if rubric != "v5":
        text = replaced(suite.read_text(), "rubric: v5", f"rubric: {rubric}")
        suite = path.parent / f"suite-{rubric}.yaml"
        suite.write_text(text)
        for f in ("prompt_v1.md", "prompt_v2.md"):
            (path.parent / f).write_text((clinic_suite_path().parent / f).read_text())
    with LmdbLog(path) as log:
        run_suite(load_suite(suite), log, RunOptions(run_id=run_id, configs=configs), now=lambda: "")


def test_compare_two_runs_and_refuse_mixed_rubrics(tmp_path: Path) -> None:
    log = tmp_path / "log"
    _run(log, "a", configs=("v1",))
    _run(log, "b", configs=("v2",))
    _run(log, "c", rubric="v2", configs=("v2",))
    runner = CliRunner()
    ok = runner.invoke(cli, ["--log", str(log), "compare", "a", "b", "--json"])
    assert ok.exit_code == 0, ok.output
    assert [s["label"] for s in json.loads(ok.output)["sides"]] == ["a:v1", "b:v2"]
    mixed = runner.invoke(cli, ["--log", str(log), "compare", "a", "c"])
    assert mixed.exit_code == 2 and "different rubric versions" in mixed.output
    one = runner.invoke(cli, ["--log", str(log), "compare", "a"])
    assert one.exit_code == 2 and "at least two configurations" in one.output


def test_probes_cannot_change_verdicts(tmp_path: Path) -> None:
    log = tmp_path / "log"
    _run(log, "r")
    runner = CliRunner()
    before = runner.invoke(cli, ["--log", str(log), "report", "r", "--json"]).output
    extra = tmp_path / "probes.yaml"
    extra.write_text(
        '- {id: says_sorry, question: "Did the agent apologise?", polarity: desired, keywords: [sorry]}\n'
    )
    res = runner.invoke(cli, ["--log", str(log), "probe", "r", "--probes", str(extra)])
    assert res.exit_code == 0 and "24 answers recorded" in res.output
    assert runner.invoke(cli, ["--log", str(log), "report", "r", "--json"]).output == before
    again = runner.invoke(cli, ["--log", str(log), "probe", "r", "--probes", str(extra)])
    assert "0 answers recorded" in again.output
    trend = runner.invoke(cli, ["--log", str(log), "trend", "says_sorry", "--json"])
    assert trend.exit_code == 0 and json.loads(trend.output)[0]["rate"]["applicable"] > 0
    bad = tmp_path / "bad.yaml"
    bad.write_text('- {id: x, question: "Is it so?", polarity: sideways}\n')
    broken = tmp_path / "broken.yaml"
    broken.write_text("- {id: x, question: Is it?, polarity: desired}\n")
    res = runner.invoke(cli, ["--log", str(log), "probe", "r", "--probes", str(broken)])
    assert res.exit_code == 2 and "not valid YAML" in res.output and res.output.count("\n") == 1
    res = runner.invoke(cli, ["--log", str(log), "probe", "r", "--probes", str(bad)])
    assert res.exit_code == 2 and "polarity" in res.output


def test_divergence_cli(tmp_path: Path) -> None:
    log = tmp_path / "log"
    _run(log, "r")
    runner = CliRunner()
    res = runner.invoke(
        cli, ["--log", str(log), "divergence", "r.v1.coop-booking.0", "r.v2.coop-booking.0", "--json"]
    )
    data = json.loads(res.output)
    assert data["divergence"]["reason"] == "tool_calls"
    same = runner.invoke(cli, ["--log", str(log), "divergence", "r.v1.coop-booking.0", "r.v1.coop-booking.0"])
    assert "never part" in same.output


def test_compare_unknown_run_is_a_user_error(clinic: MemoryLog) -> None:
    with pytest.raises(UserInputError, match="no run 'ghost'"):
        compare_runs(clinic, ["c", "ghost"])


def test_the_chunked_bootstrap_draws_what_one_big_draw_would() -> None:
    """The resamples are drawn in chunks to bound memory; the interval must not move."""
    import numpy as np

    from polygon.projections.compare import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED

    data = np.random.default_rng(3).random(1500) * 100  # 1,500 values: two chunks of 666 + one of 668
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    means = data[rng.integers(0, len(data), size=(BOOTSTRAP_RESAMPLES, len(data)))].mean(axis=1)
    whole = tuple(round(float(x), 4) for x in np.percentile(means, [2.5, 97.5]))
    assert bootstrap_mean(list(data)) == whole


def test_breakdowns_leave_out_what_the_scorecard_leaves_out() -> None:
    """Issue 27, 5: a simulator error's composite is no score, in the breakdowns as in the mean."""
    from polygon.projections.compare import scorecard

    def typed(scenario: str, composite: float, verdict: str, persona: str, level: int) -> ConversationVerdict:
        r = row(scenario, "a", composite, verdict=verdict)
        rec = r.record
        return ConversationVerdict(
            record=ConversationRecord(
                conversation_id=rec.conversation_id,
                config="a",
                scenario=scenario,
                persona_type=persona,
                difficulty=level,
            ),
            verdict=r.verdict,
        )

    rows = [
        typed("s1", 90.0, "pass", "cooperative", 1),
        typed("s2", 0.0, "simulator_error", "cooperative", 1),
        typed("s3", 10.0, "simulator_error", "busy", 2),
    ]
    card = scorecard("a", rows, None)
    assert card.composite_mean == 90.0 and card.simulator_errors == 2
    assert card.by_caller_type == {"cooperative": 90.0}
    assert card.by_difficulty == {"1": 90.0}


def test_compare_refuses_runs_in_different_languages_unless_allowed(tmp_path: Path) -> None:
    """The language is read from each call's start: an English and a Croatian run are not like with like."""
    log, runner = tmp_path / "log", CliRunner()
    (tmp_path / "en").mkdir(), (tmp_path / "hr").mkdir()
    suites = {"en": pizza(tmp_path / "en"), "hr": pizza(tmp_path / "hr", **{"language: en}": "language: hr}"})}
    for run_id, suite in suites.items():
        ran = runner.invoke(cli, ["--log", str(log), "run", str(suite), "--config", "good", "--run-id", run_id])
        assert ran.exit_code == 0, ran.output
    refused = runner.invoke(cli, ["--log", str(log), "compare", "en", "hr"])
    assert refused.exit_code == 2
    assert "cannot compare: the sides differ in language: en:good en; hr:good hr" in refused.output
    allowed = runner.invoke(cli, ["--log", str(log), "compare", "en", "hr", "--allow-mixed"])
    assert allowed.exit_code == 0, allowed.output
    assert "MIXED SETTINGS (--allow-mixed): language: en:good en; hr:good hr" in allowed.output
