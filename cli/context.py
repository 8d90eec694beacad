"""The object every command receives: global options, resolved once at the CLI edge."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Context:
    """Options shared by every command."""

    log_path: Path
    debug: bool
