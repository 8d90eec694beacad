"""`polygon lint` ends with the promises the prompt forbids, as the run's policy reads them."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from polygon.cli.main import cli

FORBIDDING = "You take claims.\nNever promise that the claim will be paid.\nDo not offer refunds.\n"


def _lint(tmp_path: Path, target: Path) -> str:
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "lint", str(target), "--tiers", "rules"])
    assert res.exit_code == 0, res.output
    return res.output


def test_the_prohibitions_read_are_listed_with_their_sentences(tmp_path: Path) -> None:
    prompt = tmp_path / "prompt.md"
    prompt.write_text(FORBIDDING)
    out = _lint(tmp_path, prompt)
    tail = out[out.index("Promises it forbids") :].splitlines()
    assert tail == [
        "Promises it forbids (each simulated call is checked against them: policy:prompt_forbids)",
        "  payment: 'Never promise that the claim will be paid.'",
        "  refund: 'Do not offer refunds.'",
    ]


def test_a_prompt_forbidding_nothing_it_reads_says_none_read(tmp_path: Path) -> None:
    prompt = tmp_path / "prompt.md"
    prompt.write_text("You take claims. Be polite and brief.\n")
    assert "Promises it forbids: none read" in _lint(tmp_path, prompt)


def test_a_suite_that_turns_the_policy_off_shows_no_such_section(tmp_path: Path) -> None:
    (tmp_path / "prompt.md").write_text(FORBIDDING)
    suite = tmp_path / "suite.yaml"
    base = (
        "name: t\nconfigs: {a: {agent: 'python:polygon.examples.clinic.agents:make_v1', "
        "prompt_file: prompt.md}}\npersonas: [{id: p, type: busy, goal: g}]\n"
    )
    suite.write_text(base)
    assert "payment: 'Never promise that the claim will be paid.'" in _lint(tmp_path, suite)
    suite.write_text(base + "policies_from_prompt: false\n")
    assert "Promises it forbids" not in _lint(tmp_path, suite)
