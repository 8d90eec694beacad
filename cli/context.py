"""The object every command receives: global options, resolved once at the CLI edge."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Context:
    """Options shared by every command."""

    log_path: Path
    debug: bool


def system_now() -> str:
    """UTC now, ISO-8601 to the second: the one clock, read at the CLI edge for display."""
    from datetime import UTC, datetime

    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
