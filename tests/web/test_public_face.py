"""The web UI's shape (issue 25, item 8): one public face, pages as module-level handlers,
and no page that reads events from the log itself."""

from __future__ import annotations

import ast
from pathlib import Path

import polygon.web as web
from polygon.events import Event, families

ROOT = Path(__file__).parents[2]
WEB = ROOT / "polygon" / "web"
PINNED = {"DEFAULT_PORT", "LINT_MAX_BYTES", "PER_PAGE", "SAVE_MAX_BYTES", "make_app"}
LOG_READS = {"read_stream", "read_all", "streams"}
"""The EventLog methods that hand out events or stream names: a fold starts with one of them."""


def _modules(*roots: Path) -> list[Path]:
    return sorted(p for root in roots for p in root.rglob("*.py"))


def test_the_web_face_is_pinned() -> None:
    assert set(web.__all__) == PINNED
    for name in web.__all__:
        assert hasattr(web, name)


def test_code_outside_the_web_ui_imports_only_its_face() -> None:
    inner = {p.stem for p in WEB.glob("*.py")} | {p.name for p in WEB.iterdir() if p.is_dir()}
    product = [ROOT / d for d in ("polygon", "cli", "events", "projections")]
    reaching: list[str] = []
    for path in _modules(*product):
        if WEB in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("polygon.web."):
                reaching.append(f"{path.relative_to(ROOT)}: from {node.module}")
            elif isinstance(node, ast.ImportFrom) and node.module == "polygon.web":
                reaching += [f"{path.relative_to(ROOT)}: {a.name}" for a in node.names if a.name in inner]
            elif isinstance(node, ast.Import):
                reaching += [
                    f"{path.relative_to(ROOT)}: {a.name}" for a in node.names if a.name.startswith("polygon.web.")
                ]
    assert "server" in inner and "pages" in inner  # the scan knows what is inside
    assert reaching == []


def test_every_page_is_a_module_level_function_of_a_page_module() -> None:
    from starlette.routing import Route

    from polygon.web.pages import ROUTES

    paths = [r.path for r in ROUTES]
    assert {"/", "/runs/{run:path}", "/compare", "/prompt/save"} <= set(paths)
    assert len(paths) == len(set(paths))
    for route in ROUTES:
        assert isinstance(route, Route)
        handler = route.endpoint
        assert handler.__qualname__ == handler.__name__, route.path  # not a closure
        assert handler.__module__.startswith("polygon.web.pages."), route.path


def test_no_page_reads_or_folds_events_itself() -> None:
    """Pages read the log through use cases and projections: no event is read or matched here."""
    event_types = {name for name in families.__all__ if issubclass(getattr(families, name), Event)}
    assert "ProbeAnswered" in event_types
    found: list[str] = []
    for path in _modules(WEB):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in LOG_READS:
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
                named |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
                found += [f"{path.name}:{node.lineno} isinstance {n}" for n in named & event_types]
    assert found == []
