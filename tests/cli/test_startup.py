"""Start-up: ``--help`` of every command imports none of the heavy libraries (issue 31).

Timing on a shared box is noise, so the test checks what is imported, not how long it took
(``make bench`` reports the seconds). One child process imports the CLI once, then forks a
grandchild per command line, so each command starts from the same clean module table.
"""

from __future__ import annotations

import json
import subprocess
import sys

import click

from polygon.cli.main import COMMANDS, cli

HEAVY = (
    "pydantic",
    "jsonschema",
    "jinja2",
    "numpy",
    "scipy",
    "lmdb",
    "httpx",
    "yaml",
    "msgspec",
    "rich",
    "starlette",
    "uvicorn",
    "ray",
    "llama_cpp",
    "polygon.app",
    "polygon.events",
    "polygon.models",
    "polygon.suite",
    "polygon.projections",
)
"""Libraries (and our layers over them) that cost tens to hundreds of milliseconds each."""

_DRIVER = """
import json, os, sys
from polygon.cli.main import cli
heavy = json.loads(sys.argv[1])
found = {}
for line in json.loads(sys.argv[2]):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        code = 0
        try:
            cli.main(args=[*line, "--help"], prog_name="polygon")
        except SystemExit as exc:
            code = exc.code or 0
        loaded = [m for m in heavy if m in sys.modules] + ([f"exit {code}"] if code else [])
        os.write(write, json.dumps(loaded).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        found[" ".join(line)] = json.loads(pipe.read() or '["no answer"]')
    os.waitpid(pid, 0)
print(json.dumps(found))
"""


def _command_lines() -> list[list[str]]:
    """The top level, every command and every subcommand of a group."""
    lines: list[list[str]] = [[]]
    ctx = click.Context(cli)
    for name in sorted(COMMANDS):
        lines.append([name])
        command = cli.get_command(ctx, name)
        if isinstance(command, click.Group):
            lines.extend([name, sub] for sub in sorted(command.commands))
    return lines


def test_no_help_imports_a_heavy_library() -> None:
    lines = _command_lines()
    assert ["log", "verify"] in lines and ["labels", "import"] in lines  # groups are walked
    out = subprocess.run(
        [sys.executable, "-c", _DRIVER, json.dumps(HEAVY), json.dumps(lines)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    found = json.loads(out.strip().splitlines()[-1])
    assert len(found) == len(lines)
    assert {line: mods for line, mods in found.items() if mods} == {}


def test_the_driver_would_see_a_heavy_import() -> None:
    """The check is live: a command run for real does load the log and the use cases."""
    code = (
        "import sys\nfrom polygon.cli.main import cli\n"
        "try:\n    cli.main(args=['--log', sys.argv[1], 'runs'], prog_name='polygon')\n"
        "except SystemExit:\n    pass\n"
        "print('polygon.app.runs' in sys.modules, 'lmdb' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, "/nonexistent-polygon-log"], capture_output=True, text=True, timeout=120
    ).stdout
    assert out.strip().splitlines()[-1] == "True True"


def test_each_option_choice_spelled_in_the_cli_equals_its_owner() -> None:
    from polygon.app.demo import EXAMPLES
    from polygon.app.lint import DEFAULT_TIERS
    from polygon.app.noise import languages
    from polygon.app.schema import KINDS
    from polygon.cli import choices
    from polygon.importing.formats import FORMATS
    from polygon.render import RENDERERS
    from polygon.suite.personas import OFFLINE_GENERATOR

    assert tuple(sorted(EXAMPLES)) == choices.DEMO_EXAMPLES
    assert choices.IMPORT_FORMATS == FORMATS
    assert choices.LINT_DEFAULT_TIERS == DEFAULT_TIERS
    assert tuple(languages()) == choices.NOISE_LANGUAGES
    assert choices.OFFLINE_PERSONA_GENERATOR == OFFLINE_GENERATOR
    assert tuple(sorted(RENDERERS)) == choices.REPORT_FORMATS
    assert tuple(KINDS) == choices.SCHEMA_KINDS
