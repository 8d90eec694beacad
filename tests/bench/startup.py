"""Start-up of the CLI (issue 31: every command starts in 0.3 s), measured as CPU seconds.

Two kinds of start: ``polygon X --help`` (what ``tests/cli/test_startup.py`` keeps free of
heavy imports), and a command's real start: the CLI, the command's module and every module
the command imports before its first line of work (its function-level imports, read from
``cli/X_cmd.py``'s syntax tree), in a fresh interpreter.

CPU (user + system of the child), not wall: a start is one process on one core, and on a
shared box its wall is mostly waiting for that core. Bytecode is compiled first: an
installed package has it (pip compiles on install, Python caches it on the first run), but
where ``PYTHONDONTWRITEBYTECODE`` is set every start would compile each module it imports
from source, several times the import itself.
"""

from __future__ import annotations

import ast
import compileall
import importlib.util
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

PACKAGES = ("polygon", "polygon.events", "polygon.projections", "polygon.cli")
"""The import namespace's folders (setuptools' package-dir maps several)."""


def compile_bytecode() -> None:
    """Write ``__pycache__`` for every module of ours, as an install (or a first run) would."""
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        folders = (spec.submodule_search_locations or []) if spec else []
        for folder in folders:
            compileall.compile_dir(folder, quiet=1)


def cpu_seconds(argv: list[str]) -> float:
    """User + system CPU seconds of running ``argv`` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def help_cases() -> dict[str, Callable[[], float]]:
    """``polygon --version``, ``--help`` and each command's ``--help``."""
    from polygon.cli.main import COMMANDS

    compile_bytecode()
    exe = str(Path(sys.executable).parent / "polygon")

    def cpu(*args: str) -> Callable[[], float]:
        return lambda: cpu_seconds([exe, *args])

    cases = {"--version": cpu("--version"), "--help": cpu("--help")}
    cases.update({name: cpu(name, "--help") for name in sorted(COMMANDS)})
    return cases


def lazy_imports(source: str) -> list[str]:
    """The import statements inside a command module's functions, as source lines."""
    lines: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import | ast.ImportFrom):
                lines.append(ast.unparse(inner))
    return sorted(set(lines))


def command_start_cases() -> dict[str, Callable[[], float]]:
    """Each command's real start: the CLI, its module and what its functions import."""
    from polygon.cli.main import COMMANDS

    compile_bytecode()
    return {name: _python(start_code(name)) for name in sorted(COMMANDS)}


def start_code(command: str) -> str:
    """The source of ``command``'s real start: the CLI, its module and what its functions import.

    The process is prepared as ``polygon``'s own is (``prepare_process``): its exit skips the
    last collections, and pydantic looks for no plugin when a first work builds a validator.
    """
    from polygon.cli.main import COMMANDS

    spec = importlib.util.find_spec("polygon.cli")
    folder = Path(next(iter(spec.submodule_search_locations or ()))) if spec else Path("cli")
    module = COMMANDS[command].split(":")[0]
    imports = lazy_imports((folder / f"{module}.py").read_text())
    prepared = "polygon.cli.main.prepare_process()"  # what ``main`` does first: the exit, pydantic
    return "\n".join(["import polygon.cli.main", prepared, f"import polygon.cli.{module}", *imports])


def command_first_work_cases(tmp: Path) -> dict[str, Callable[[], float]]:
    """A command's real start and then the first thing it validates, in a fresh interpreter.

    Beside the start: a pydantic model builds its validator on first use (``defer_build``), so
    the validators a start no longer builds are paid here, where the command first needs them.
    ``run`` and ``personas`` load the pizza suite; ``judge`` and ``import`` read every language
    and the newest bundled rubric (what scoring validates); ``probe`` reads a probe file.
    """
    compile_bytecode()
    return {name: _python(f"{start_code(name)}\n{first}") for name, first in _first_work(tmp).items()}


def _first_work(tmp: Path) -> dict[str, str]:
    probes = tmp / "probes.yaml"
    probes.write_text(
        "- id: p1\n  question: Did the agent refuse without a reason?\n"
        "  polarity: guardrail\n  detector: reason_for_refusal\n"
    )
    suite = f"from polygon.suite import load_suite\nload_suite({str(EXAMPLES / 'pizza' / 'suite.yaml')!r})"
    scoring = (
        "from polygon.languages import LANGUAGES, load_language\n"
        "from polygon.score.rubric import bundled_versions, load_rubric\n"
        "for code in LANGUAGES:\n    load_language(code)\n"
        "load_rubric(bundled_versions()[-1])"
    )
    probe = f"from pathlib import Path\nfrom polygon.app import load_probes\nload_probes(Path({str(probes)!r}))"
    return {"run": suite, "personas": suite, "judge": scoring, "import": scoring, "probe": probe}


def _python(code: str) -> Callable[[], float]:
    return lambda: cpu_seconds([sys.executable, "-c", code])


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def command_whole_cases(tmp: Path) -> dict[str, Callable[[], float]]:
    """Commands run to their end on a small input (CPU s of a fresh interpreter, start to exit).

    Beside the real start: a cost moved from import to first use shows up here, not as a saving.
    The input is the pizza example offline (12 calls): ``run`` into a fresh log each time; ``judge``
    (a new pass), ``probe`` (a new probe each time, so answers are written), ``report``,
    ``compare`` (its two configurations) and ``calibrate`` (every call labelled) over one run made
    first; ``import`` of the clinic's transcripts into a fresh log; ``personas list``.
    """
    compile_bytecode()
    polygon = str(Path(sys.executable).parent / "polygon")
    pizza, made = str(EXAMPLES / "pizza" / "suite.yaml"), str(tmp / "made")
    subprocess.run(
        [polygon, "--log", made, "run", pizza, "--run-id", "r", "--no-progress"],
        check=True,
        capture_output=True,
    )
    _label_every_call(polygon, made, pizza, tmp)
    count = iter(range(1, 1_000_000))

    def fresh() -> str:
        return str(tmp / f"log-{next(count)}")

    def new_probe() -> str:
        n = next(count)
        path = tmp / f"probe-{n}.yaml"
        path.write_text(
            f"- id: p{n}\n  question: Did the agent refuse without a reason?\n"
            "  polarity: guardrail\n  detector: reason_for_refusal\n"
        )
        return str(path)

    def cpu(args: Callable[[], list[str]]) -> Callable[[], float]:
        return lambda: cpu_seconds([polygon, *args()])

    return {
        "run": cpu(lambda: ["--log", fresh(), "run", pizza, "--run-id", "r", "--no-progress"]),
        "judge": cpu(lambda: ["--log", made, "judge", "r", "--new-pass", str(next(count))]),
        "probe": cpu(lambda: ["--log", made, "probe", "r", "--probes", new_probe()]),
        "report": cpu(lambda: ["--log", made, "report", "r"]),
        "compare": cpu(lambda: ["--log", made, "compare", "r"]),
        "calibrate": cpu(lambda: ["--log", made, "calibrate", "r"]),
        "import": cpu(lambda: ["--log", fresh(), "import", str(EXAMPLES / "clinic" / "transcripts.jsonl")]),
        "personas list": cpu(lambda: ["personas", "list", str(EXAMPLES / "clinic")]),
    }


def _label_every_call(polygon: str, log: str, suite: str, tmp: Path) -> None:
    """Human labels for each call of run ``r`` (pass and fail in turn), so calibrate has work."""
    from polygon.suite import load_suite

    loaded = load_suite(suite)
    calls = [f"{c}.{s.id}.0" for c in loaded.suite.configs for s in loaded.suite.scenarios]
    rows = [f"{call},{('pass', 'fail')[i % 2]},bench" for i, call in enumerate(calls)]
    labels = tmp / "labels.csv"
    labels.write_text("conversation,verdict,by\n" + "\n".join(rows) + "\n")
    argv = [polygon, "--log", log, "labels", "import", str(labels), "--run", "r"]
    subprocess.run(argv, check=True, capture_output=True)
