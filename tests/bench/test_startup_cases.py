"""The bench's start-up cases: what each command imports, and that each whole command runs.

No timing is asserted here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from polygon.cli.main import COMMANDS
from tests.bench.startup import (
    command_first_work_cases,
    command_start_cases,
    command_whole_cases,
    lazy_imports,
    start_code,
)


def test_a_commands_start_is_its_function_level_imports() -> None:
    source = (
        "import click\n\n"
        "def run(x):\n    from polygon.app import run_suite, open_log\n    import msgspec\n    return x\n"
    )
    assert lazy_imports(source) == ["from polygon.app import run_suite, open_log", "import msgspec"]


def test_every_command_has_a_start_case(monkeypatch) -> None:
    monkeypatch.setattr("tests.bench.startup.compile_bytecode", lambda: None)
    assert sorted(command_start_cases()) == sorted(COMMANDS)


def test_every_whole_command_case_runs_to_its_end(tmp_path: Path, monkeypatch) -> None:
    """Each case exits 0 (cpu_seconds checks), and a probe case writes answers, not "already there"."""
    monkeypatch.setattr("tests.bench.startup.compile_bytecode", lambda: None)
    cases = command_whole_cases(tmp_path)
    assert sorted(cases) == [
        "calibrate",
        "compare",
        "import",
        "judge",
        "personas list",
        "probe",
        "report",
        "run",
    ]
    for case in cases.values():
        assert case() > 0
    from polygon.app import open_log, probe_answers

    probe_id = "p" + next(tmp_path.glob("probe-*.yaml")).stem.removeprefix("probe-")
    with open_log(tmp_path / "made", readonly=True) as log:
        assert len(probe_answers(log, "r", probe_id)) == 12  # every call of the pizza run answered it


def test_every_first_work_case_runs_to_its_end(tmp_path: Path, monkeypatch) -> None:
    """Each start + first validation exits 0 (cpu_seconds checks) for the commands it names."""
    monkeypatch.setattr("tests.bench.startup.compile_bytecode", lambda: None)
    cases = command_first_work_cases(tmp_path)
    assert sorted(cases) == ["import", "judge", "personas", "probe", "run"]
    for case in cases.values():
        assert case() > 0


def test_a_start_case_prepares_its_process_as_polygon_does() -> None:
    """A real start costs what ``polygon``'s process does: its exit skips the last collections
    (~0.045 CPU s of a run's start) and pydantic looks for no plugin (``prepare_process``)."""
    code = f"{start_code('runs')}\nimport atexit, os\nprint(os.environ.get('PYDANTIC_DISABLE_PLUGINS'), atexit._ncallbacks())"
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == ["__all__", "1"]
