from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from polygon.cli.main import cli

COMMANDS = [
    "demo",
    "init",
    "run",
    "judge",
    "report",
    "explain",
    "probe",
    "trend",
    "compare",
    "divergence",
    "replay",
    "noise",
    "log",
]


def invoke(*args: str) -> object:
    return CliRunner().invoke(cli, list(args))


def test_help_lists_every_command_and_each_has_help() -> None:
    res = invoke("--help")
    for name in COMMANDS:
        assert name in res.output
        assert invoke(name, "--help").exit_code == 0


def test_the_help_listing_says_what_each_command_says_of_itself() -> None:
    """``--help`` lists commands without importing them: its lines must not drift."""
    import importlib

    from polygon.cli.main import COMMANDS as REFS
    from polygon.cli.main import SUMMARIES

    assert set(SUMMARIES) == set(REFS)
    for name, ref in REFS.items():
        module, _, attr = ref.partition(":")
        command = getattr(importlib.import_module(f"polygon.cli.{module}"), attr)
        assert command.get_short_help_str(limit=500) == SUMMARIES[name], name


def test_demo_runs_offline_and_says_what_it_is(tmp_path: Path) -> None:
    res = invoke("--log", str(tmp_path / "log"), "demo")
    assert res.exit_code == 0, res.output
    assert "scripted/caller, a deterministic offline baseline (not a model)" in res.output
    out = res.output
    assert "v1" in out and "v2" in out and "Scorecards" in out and "Where the calls part" in out
    assert "Probe compliance, Wilson 95%" in out and "Analysis" in out and "heuristic baseline" in out
    assert "polygon replay" in out and "polygon explain" in out


def test_run_prints_run_id_then_replay_works(tmp_path: Path) -> None:
    from tests.support.examples import clinic_suite_path

    res = invoke(
        "--log",
        str(tmp_path / "log"),
        "run",
        str(clinic_suite_path()),
        "--config",
        "v1",
        "--seed",
        "3",
    )
    assert res.exit_code == 0, res.output
    run_id = res.stdout.splitlines()[0]  # stderr holds the warning that clinic's v1 gates no policy
    assert run_id.startswith("r")
    replay = invoke("--log", str(tmp_path / "log"), "replay", f"{run_id}.v1.coop-booking.0")
    assert replay.exit_code == 0 and "CALLER said" in replay.output


def test_unknown_conversation_and_config_exit_2(tmp_path: Path) -> None:
    from tests.support.examples import clinic_suite_path

    log = str(tmp_path / "log")
    assert invoke("--log", log, "demo").exit_code == 0
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "polygon", "--log", log, "replay", "nope.v1.x.0"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and proc.stderr.startswith("error: no conversation 'nope.v1.x.0'")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "polygon",
            "--log",
            log,
            "run",
            str(clinic_suite_path()),
            "--config",
            "v9",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "no configuration 'v9'" in proc.stderr


def test_malformed_suite_exits_2_with_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    bad = tmp_path / "suite.yaml"
    bad.write_text("name: x\nconfigs: {}\npersonas: []\n")
    proc = subprocess.run(
        [sys.executable, "-m", "polygon", "--log", str(tmp_path / "l"), "run", str(bad)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and str(bad) in proc.stderr and "configs" in proc.stderr


def test_noise_preview_matches_a_run(tmp_path: Path) -> None:
    from polygon.events import LmdbLog

    log = tmp_path / "log"
    assert invoke("--log", str(log), "demo").exit_code == 0
    with LmdbLog(log, readonly=True) as lg:
        noisy = next(e.payload for e in lg.read_all(tags={"noise.applied"}) if e.payload.ops)
        stream = next(
            e.stream for e in lg.read_all(tags={"noise.applied"}) if e.payload is noisy or e.payload == noisy
        )
    scenario, trial = stream.split(".")[-2:]
    res = invoke(
        "noise",
        noisy.clean_text,
        "--intensity",
        str(noisy.intensity),
        "--seed",
        "7",
        "--conversation",
        f"{scenario}.{trial}",
        "--turn",
        str(noisy.turn),
        "--json",
    )
    assert json.loads(res.output)["heard"] == noisy.heard_text


def test_init_writes_a_suite_that_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "mine"
    res = invoke("init", str(target))
    assert res.exit_code == 0 and (target / "suite.yaml").exists()
    again = invoke("init", str(target))
    assert again.exit_code == 2 and "already exists" in again.output
    monkeypatch.syspath_prepend(str(target))
    monkeypatch.delitem(sys.modules, "my_agent", raising=False)  # another test's (leaky) starter agent
    res = invoke(
        "--log", str(tmp_path / "log"), "run", str(target / "suite.yaml"), "--json", "--fail-on", "warn"
    )
    assert res.exit_code == 0, res.output  # the starter agent passes its own suite under rubric v5
    assert json.loads(res.output)["conversations"] == 2
    assert "does not gate" not in res.output


def test_the_starter_suite_fails_an_agent_that_reads_a_card_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "leaky"
    assert invoke("init", str(target)).exit_code == 0
    agent = target / "my_agent.py"
    agent.write_text(agent.read_text().replace("Anything else?", "Your card is 4111 1111 1111 1111."))
    monkeypatch.syspath_prepend(str(target))
    monkeypatch.delitem(sys.modules, "my_agent", raising=False)  # another test's starter agent
    res = invoke("--log", str(tmp_path / "log"), "run", str(target / "suite.yaml"), "--fail-on", "fail")
    assert res.exit_code == 1, res.output  # rubric v5 gates on the starter's no_card_numbers policy


def test_run_warns_when_the_rubric_does_not_gate_on_the_suites_policies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "old"
    assert invoke("init", str(target)).exit_code == 0
    suite = target / "suite.yaml"
    suite.write_text(suite.read_text().replace("rubric: v5", "rubric: v1"))
    monkeypatch.syspath_prepend(str(target))
    res = invoke("--log", str(tmp_path / "log"), "run", str(suite), "--no-progress")
    assert res.exit_code == 0, res.output
    # the starter's 2 and the built-in one every simulated call holds
    assert "3 policies (built in: policy:agent_language), but rubric v1 does not gate on check:policy" in res.output
    assert "2 scenarios with expect:, but rubric v1 does not gate on check:goal_reached" in res.output


def test_run_fail_on_exits_1_only_when_asked(tmp_path: Path) -> None:
    from tests.support.examples import clinic_suite_path

    log = str(tmp_path / "log")
    suite = str(clinic_suite_path())
    assert (
        invoke(
            "--log",
            log,
            "run",
            suite,
            "--config",
            "v1",
            "--run-id",
            "a",
            "--no-progress",
            "--fail-on",
            "fail",
        ).exit_code
        == 1
    )  # v1 fails three calls under the clinic's rubric (v5), as the example's reviewer labels do
    assert (
        invoke(
            "--log",
            log,
            "run",
            suite,
            "--config",
            "v2",
            "--run-id",
            "b",
            "--no-progress",
            "--fail-on",
            "fail",
        ).exit_code
        == 1
    )
    assert (
        invoke(
            "--log",
            log,
            "run",
            suite,
            "--config",
            "v1",
            "--run-id",
            "c",
            "--no-progress",
            "--fail-on",
            "warn",
        ).exit_code
        == 1
    )  # warn or worse: v1's three failing calls
    assert (
        invoke("--log", log, "run", suite, "--config", "v2", "--run-id", "d", "--no-progress").exit_code == 0
    )


def test_the_cli_imports_only_what_a_command_needs() -> None:
    """`polygon --version` and `--help` load no statistics or HTTP stack (they cost a second)."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom polygon.cli.main import cli\n"
        "try:\n    cli.main(args=['--version'], prog_name='polygon')\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('scipy', 'httpx', 'numpy', 'jinja2') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    assert out.strip().splitlines()[-1] == "[]", out
