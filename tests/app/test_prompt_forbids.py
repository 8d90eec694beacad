"""End to end through the CLI: a promise the agent's prompt forbids fails the call without a suite policy (D14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner, Result

from polygon.cli.main import cli

LINE = Path(__file__).parent / "refund_line"


def polygon(log: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--log", str(log), *args])


def _line(tmp_path: Path, *, off: bool = False, rubric: str = "v4") -> Path:
    folder = tmp_path / "refund_line"
    shutil.copytree(LINE, folder, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    suite = folder / "suite.yaml"
    text = suite.read_text("utf-8").replace("rubric: v4", f"rubric: {rubric}")
    suite.write_text(text + ("policies_from_prompt: false\n" if off else ""), "utf-8")
    return suite


def _verdicts(log: Path, run_id: str) -> dict[str, str]:
    report = polygon(log, "report", run_id, "--json")
    assert report.exit_code == 0, report.output
    rows = json.loads(report.output)["conversations"]
    return {r["record"]["config"]: r["verdict"]["verdict"] for r in rows}


def test_the_agent_promising_what_its_prompt_forbids_fails_and_explain_quotes_both(tmp_path: Path) -> None:
    log = tmp_path / "log"
    ran = polygon(log, "run", str(_line(tmp_path)), "--run-id", "rf")
    assert ran.exit_code == 0, ran.output
    assert _verdicts(log, "rf") == {"keeps": "pass", "promises": "fail"}
    why = polygon(log, "explain", "rf.promises.kettle.0")
    assert why.exit_code == 0, why.output
    assert "check:policy          FIRED: broken: policy:prompt_forbids" in why.output
    said = "[promised refund: \"Don't worry, you'll get a full refund.\"; "
    assert said + "the prompt: 'Never promise a refund: the billing team decides.']" in why.output
    kept = polygon(log, "explain", "rf.keeps.kettle.0")
    assert "pass  policy:prompt_forbids" in kept.output


def test_policies_from_prompt_false_turns_it_off(tmp_path: Path) -> None:
    log = tmp_path / "log"
    ran = polygon(log, "run", str(_line(tmp_path, off=True)), "--run-id", "ro")
    assert ran.exit_code == 0, ran.output
    assert _verdicts(log, "ro") == {"keeps": "pass", "promises": "pass"}
    why = polygon(log, "explain", "ro.promises.kettle.0")
    assert "prompt_forbids" not in why.output


def test_a_rubric_that_does_not_gate_policies_is_warned_of_before_the_run(tmp_path: Path) -> None:
    ran = polygon(tmp_path / "log", "run", str(_line(tmp_path, rubric="v1")), "--run-id", "r1")
    assert ran.exit_code == 0, ran.output
    built_in = "policy:agent_language, policy:prompt_forbids"
    assert f"2 policies (built in: {built_in}), but rubric v1 does not gate on check:policy" in ran.output


def test_an_imported_call_is_held_to_its_own_system_prompt(tmp_path: Path) -> None:
    def call(call_id: str, said: str) -> str:
        messages = [
            {"role": "system", "content": "You answer the Kettle Shop's line. Never promise a refund."},
            {"role": "user", "content": "My kettle broke, I want my money back."},
            {"role": "assistant", "content": said},
            {"role": "user", "content": "ok, bye"},
        ]
        return json.dumps({"id": call_id, "messages": messages})

    calls = tmp_path / "calls.jsonl"
    kept = call("kept", "I can't promise a refund, but billing will look at it.")
    broken = call("broken", "Sorry about that! We'll refund you in full today.")
    calls.write_text(kept + "\n" + broken + "\n", "utf-8")
    log = tmp_path / "log"
    assert polygon(log, "import", str(calls), "--run-id", "imp").exit_code == 0
    rows = json.loads(polygon(log, "report", "imp", "--json").output)["conversations"]
    found = {
        r["record"]["scenario"]: next(c["event"] for c in r["checks"] if c["event"]["check"] == "policy:prompt_forbids")
        for r in rows
    }
    assert (found["kept"]["outcome"], found["broken"]["outcome"]) == ("pass", "fail")
    assert "[promised refund: \"We'll refund you in full today.\"" in found["broken"]["evidence"][0]["quote"]
