"""The event package's public surface is explicit and pinned."""

from __future__ import annotations

import polygon.events as events

PINNED = {
    "REGISTRY",
    "AppendResult",
    "DecodeError",
    "Envelope",
    "Event",
    "EventKey",
    "EventLog",
    "ForkedUseError",
    "FutureVersionError",
    "IdentityConflictError",
    "LmdbLog",
    "LogError",
    "LogFormatError",
    "LogStats",
    "MemoryLog",
    "Pending",
    "PolygonError",
    "StorageError",
    "UnknownTagError",
    "UserInputError",
    "VerifyReport",
    "WriterBusyError",
    "canonical",
    "content_hash",
    "decode_envelope",
    "digest",
    "event_type",
    "families",
    "identity",
    "identity_of",
    "to_builtins",
}


def test_events_contract_names_stay_public() -> None:
    """The log's contract names stay in the face (tests/test_faces.py pins the whole face)."""
    assert set(events.__all__) >= PINNED
    for name in events.__all__:
        assert hasattr(events, name)


def test_identity_is_deterministic_and_sensitive() -> None:
    base = dict(run="r", conversation="c", turn=1, seed=2, kind="k", index=0)
    assert events.identity(**base) == events.identity(**base)
    assert len(events.identity(**base)) == 32
    for field, other in [
        ("run", "r2"),
        ("conversation", "c2"),
        ("turn", 2),
        ("seed", 3),
        ("kind", "k2"),
        ("index", 1),
    ]:
        assert events.identity(**{**base, field: other}) != events.identity(**base)
    assert events.identity(**base) == events.identity_of(events.EventKey(**base))
    # A known value pins the canonical encoding: changing it would orphan every stored identity.
    assert events.identity(**base) == "b8478e1bc0a96a94a6127142a94935eb"
    # One conversation's identities share their first half (they cluster in the index).
    assert events.identity(**{**base, "turn": 9})[:16] == events.identity(**base)[:16]


POLYGON_PINNED = {"Agent", "AgentError", "AgentReply", "AgentStep", "Message", "ToolCall", "ToolResult", "__version__"}


def test_polygon_all_is_pinned() -> None:
    import polygon

    assert set(polygon.__all__) == POLYGON_PINNED
    for name in polygon.__all__:
        assert hasattr(polygon, name)


def test_agents_written_against_the_old_path_still_import() -> None:
    import polygon
    import polygon.agents as old

    for name in POLYGON_PINNED - {"__version__"}:
        assert getattr(old, name) is getattr(polygon, name)


def test_a_suite_agent_needs_only_the_public_surface() -> None:
    # The bundled examples are what users copy: they must import from `polygon` alone.
    import ast
    from pathlib import Path

    import polygon.examples

    root = Path(polygon.examples.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("polygon"):
                assert node.module == "polygon", f"{path}: imports {node.module}"
