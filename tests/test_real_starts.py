"""A command's real start imports only what its path needs (issue 31: start-up ≤ 0.3 s).

``tests/cli/test_startup.py`` keeps ``--help`` light; this keeps what a command imports
before its work free of libraries that only another path uses. Each case runs in a fresh
interpreter and reads ``sys.modules`` (timing is noise on a shared box; ``make bench``
reports the seconds).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.startup import lazy_imports

ROOT = Path(__file__).resolve().parents[1]


def _loaded(code: str, watched: tuple[str, ...]) -> list[str]:
    """Which of ``watched`` a fresh interpreter has imported after running ``code``."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps([m for m in {list(watched)!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    found: list[str] = json.loads(done.stdout.splitlines()[-1])
    return found


def _real_start(command: str) -> str:
    """The CLI, the command's module and every import inside its functions (as the bench does)."""
    from polygon.cli.main import COMMANDS

    module = COMMANDS[command].split(":")[0]
    imports = lazy_imports((ROOT / "cli" / f"{module}.py").read_text())
    return "\n".join(["import polygon.cli.main", f"import polygon.cli.{module}", *imports])


@pytest.mark.parametrize("command", ["label", "labels", "callers", "runs"])
def test_commands_that_record_synchronously_start_without_asyncio(command: str) -> None:
    """Only the run's GroupWriter needs asyncio and a thread pool (~0.1 CPU s to import)."""
    assert _loaded(_real_start(command), ("asyncio", "concurrent.futures")) == []


def test_serve_listens_without_the_pages_use_cases(tmp_path: Path) -> None:
    """The server is made (routes, site, fingerprint) before any page is asked for; a page
    imports its use cases (suite models, lint tiers, probes, numpy) when it is first asked."""
    code = "\n".join(
        [
            _real_start("serve"),
            "from pathlib import Path",
            f"make_app(Path({str(tmp_path / 'log')!r}), [Path('examples/pizza/suite.yaml')])",
        ]
    )
    heavy = ("pydantic", "numpy", "yaml", "polygon.lint", "polygon.probe.library", "polygon.suite.schema")
    assert _loaded(code, heavy) == []


def test_the_checks_see_a_heavy_import() -> None:
    """Live: the run's use case does load asyncio, and the run page its probes."""
    assert _loaded("import polygon.app.run", ("asyncio",)) == ["asyncio"]
    assert _loaded("from polygon.probe import probes_from", ("polygon.probe.library",)) == [
        "polygon.probe.library"
    ]
