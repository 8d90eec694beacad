"""Test modules import shared helpers from tests/support, never from another test module."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.text import replaced

TESTS = Path(__file__).parent


def _imported_modules(source: str, package: list[str]) -> list[str]:
    """Every module ``source`` imports, relative imports resolved against ``package``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found += [module] + [f"{module}.{alias.name}" for alias in node.names]
    return found


def _test_module_imports() -> list[str]:
    return [
        f"{path.relative_to(TESTS.parent)} imports {module}"
        for path in sorted(TESTS.rglob("*.py"))
        for module in _imported_modules(path.read_text(encoding="utf-8"), _package(path))
        if module.startswith("tests.") and module.rsplit(".", 1)[-1].startswith("test_")
    ]


def test_no_test_module_imports_another() -> None:
    assert _test_module_imports() == []


def _package(path: Path) -> list[str]:
    return list(path.relative_to(TESTS.parent).with_suffix("").parts[:-1])


def test_the_check_sees_relative_and_absolute_imports() -> None:
    package = ["tests", "app"]
    assert "tests.app.test_run.contents" in _imported_modules("from tests.app.test_run import contents\n", package)
    assert "tests.app.test_x.y" in _imported_modules("from .test_x import y\n", package)
    assert "tests.views.conv" in _imported_modules("from ..views import conv\n", package)
    assert "tests.app.test_x" in _imported_modules("import tests.app.test_x\n", package)


def test_replaced_fails_when_the_fixture_text_drifted() -> None:
    assert replaced("a b a", "a", "c") == "c b a"
    assert replaced("a b a", "a", "c", -1) == "c b c"
    for count in (1, -1, 2):
        try:
            replaced("a b", "z" if count != 2 else "a", "c", count)
        except AssertionError as err:
            assert "occurrence" in str(err)
        else:
            raise AssertionError(f"replaced() accepted a miss (count={count})")
