"""Issue 28: the CI recipe (docs/ci/polygon.yml) runs as written: every ``polygon`` line of
the workflow, against the starter suite, in the workflow's order; it uploads JUnit and SARIF,
posts the Markdown, and fails the job on ``--fail-on`` after the uploads."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from polygon.cli.main import cli

ROOT = Path(__file__).parents[2]
WORKFLOW = ROOT / "docs" / "ci" / "polygon.yml"


def _steps() -> list[dict]:
    flow = yaml.safe_load(WORKFLOW.read_text())
    (job,) = flow["jobs"].values()
    return job["steps"]


def test_the_workflow_uploads_junit_and_sarif_posts_markdown_and_fails_last() -> None:
    steps = _steps()
    uses = [s.get("uses", "") for s in steps]
    assert any(u.startswith("github/codeql-action/upload-sarif") for u in uses)
    assert any(u.startswith("actions/upload-artifact") for u in uses)
    runs = [s.get("run", "") for s in steps]
    text = "\n".join(runs)
    assert "--format markdown" in text and "GITHUB_STEP_SUMMARY" in text and "gh pr comment" in text
    assert "--fail-on fail" in runs[-1]  # the gate comes after every upload
    assert all(s.get("if", "").startswith("always()") for s in steps[5:-1])


@pytest.mark.slow
def test_every_polygon_line_of_the_workflow_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples" / "starter", tmp_path / "suite")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path / "suite"))
    monkeypatch.delitem(sys.modules, "my_agent", raising=False)  # another test's (leaky) starter agent
    env = {"SUITE": str(tmp_path / "suite" / "suite.yaml")}
    lines = [
        line.strip()
        for step in _steps()
        for line in step.get("run", "").splitlines()
        if line.strip().startswith("polygon ")
    ]
    assert len(lines) >= 5
    for line in lines:
        command, _, redirect = line.partition(" > ")
        words = [w.replace("$SUITE", env["SUITE"]) for w in shlex.split(command)][1:]
        res = CliRunner().invoke(cli, ["--log", str(tmp_path / ".polygon"), *words])
        assert res.exit_code == 0, f"{line}: {res.output}"
        if redirect:
            (tmp_path / redirect.strip()).write_text(res.stdout)
    assert (tmp_path / "polygon.md").read_text().startswith("### Polygon run")
    assert "<testsuite" in (tmp_path / "polygon-junit.xml").read_text()
    assert '"version": "2.1.0"' in (tmp_path / "polygon-lint.sarif").read_text()
