"""The prompt editor's use cases: read a draft through the lint tiers, save it beside its suite.

A draft is read in a log of its own (nothing of a draft goes into the run log); a save writes
one new file and never overwrites one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from polygon.app.lint import LintOptions, Readers, Target, lint_targets
from polygon.errors import UserInputError
from polygon.events import MemoryLog, to_builtins

NAME_MAX = 120
"""Longest file name a save accepts."""


def lint_draft(text: str, tiers: tuple[str, ...]) -> dict[str, Any]:
    """One draft read by ``tiers``, as plain data (a JSON object)."""
    [result] = lint_targets(
        MemoryLog(),
        [Target(name="draft", path="draft", text=text)],
        LintOptions(tiers=tiers),
        now=lambda: "",
        readers=Readers(),
    )
    reading: dict[str, Any] = to_builtins(result)  # a struct: an object, never a list
    return reading


def save_prompt(suite_path: Path, name: str, text: str) -> Path:
    """``text`` saved as a new file beside the suite: a plain .md/.txt name, created exclusively.

    An existing file is never overwritten, even one that appears between a check and a write.
    """
    if not _plain(name) or len(name) > NAME_MAX or Path(name).suffix not in (".md", ".txt"):
        why = (
            f"give a new .md or .txt file name: letters, digits, spaces, '.', '-' or '_', "
            f"not starting with '.', at most {NAME_MAX} characters"
        )
        raise UserInputError(f"{name!r:.80}: {why}")
    target = suite_path.parent / name
    try:
        with open(target, "x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        raise UserInputError(f"{name}: that file exists (nothing is overwritten); give a new name") from None
    except (OSError, UnicodeEncodeError) as exc:
        raise UserInputError(f"{name!r:.80}: cannot save there ({exc.__class__.__name__})") from None
    return target


def _plain(name: str) -> bool:
    """A file name a reader takes for what it is: no folder, no hidden file, no look-alike slash.

    "..∕..∕x.md" (U+2215) is a legal name that reads as a path escape in every listing.
    """
    return bool(name) and not name.startswith(".") and all(c.isalnum() or c in " .-_" for c in name)
