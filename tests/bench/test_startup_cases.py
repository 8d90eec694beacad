"""The bench's start-up cases find what each command imports (no timing here)."""

from __future__ import annotations

from polygon.cli.main import COMMANDS
from tests.bench.startup import command_start_cases, lazy_imports


def test_a_commands_start_is_its_function_level_imports() -> None:
    source = (
        "import click\n\n"
        "def run(x):\n    from polygon.app import run_suite, open_log\n    import msgspec\n    return x\n"
    )
    assert lazy_imports(source) == ["from polygon.app import run_suite, open_log", "import msgspec"]


def test_every_command_has_a_start_case(monkeypatch) -> None:
    monkeypatch.setattr("tests.bench.startup.compile_bytecode", lambda: None)
    assert sorted(command_start_cases()) == sorted(COMMANDS)
