"""Issue 25: no function of the shipped code is over 80 lines (a long one is split into named steps)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 80
FOLDERS = ("polygon", "events", "projections", "cli")


def _long_functions(source: str, limit: int) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit:
                found.append((node.name, lines))
    return found


def test_no_function_is_over_80_lines() -> None:
    too_long = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if (found := _long_functions(path.read_text("utf-8"), LIMIT)):
                too_long[name] = found
    assert too_long == {}


def test_the_count_sees_a_long_function() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT))
    assert _long_functions(f"def f():\n{body}", LIMIT) == [("f", LIMIT + 1)]
    assert _long_functions(f"def f():\n{body}", LIMIT + 1) == []
