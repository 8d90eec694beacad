"""The built wheel holds every module of the one ``polygon`` namespace and the rubric files."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
MAPPED = {
    "polygon": "polygon",
    "events": "polygon/events",
    "projections": "polygon/projections",
    "cli": "polygon/cli",
    "rubrics": "polygon/rubrics",
    "examples": "polygon/examples",
}


@pytest.mark.slow
def test_wheel_contains_every_module_and_rubric(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("polygon_eval-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set()
    for src, dest in MAPPED.items():
        for f in (ROOT / src).rglob("*"):
            if f.suffix in {".py", ".yaml"} and "__pycache__" not in f.parts:
                expected.add(f"{dest}/{f.relative_to(ROOT / src).as_posix()}")
    missing = sorted(expected - names)
    assert not missing, f"wheel lacks {missing}"
    assert {"polygon/rubrics/v1.yaml", "polygon/rubrics/v2.yaml"} <= names
    # the editors' JSON Schemas (`polygon schema`, `polygon init`) ship with the package
    assert {f"polygon/suite/json/{k}.schema.json" for k in ("suite", "rubric", "sweep")} <= names
    # the HTML report's and leaderboard's templates (the web UI's pages include the report's tables)
    assert {
        "polygon/render/templates/report/page.html",
        "polygon/render/templates/report/tables.html",
        "polygon/render/templates/leaderboard/page.html",
    } <= names
    assert {"polygon/web/templates/run.html", "polygon/web/templates/charts.html"} <= names
    for forbidden in ("events/", "projections/", "cli/"):
        assert not any(n.startswith(forbidden) for n in names), "top-level package leaked"
