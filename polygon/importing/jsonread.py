"""The one JSON decoder for transcript files: bounded nesting, one error type.

Every importer and the format detection read JSON through :func:`loads`, so a hostile line
(``[[[[…`` 100,000 deep) is refused the same way on every path, before the standard library
decoder recurses into it: detection that parsed with ``json.loads`` directly crashed with a
RecursionError that the importers' own guard never saw.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_JSON_DEPTH = 256
"""Deepest nesting read from a transcript (real exports nest under 20; the log keeps 32)."""
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
"""A string (possibly unterminated: it runs to the end) or a bracket; linear, no backtracking."""


class JsonError(ValueError):
    """A text that is not JSON, or nests deeper than :data:`MAX_JSON_DEPTH`."""


def depth_of(text: str) -> int:
    """How deep ``text``'s brackets nest, brackets inside strings not counted."""
    deepest = depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("]", "}"):
            depth -= 1
    return deepest


def loads(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``text`` decoded, or :class:`JsonError` (never a RecursionError) saying why not."""
    # Counting the openers is cheap; only a text that could be too deep is scanned.
    if text.count("[") + text.count("{") > max_depth and depth_of(text) > max_depth:
        raise JsonError(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except RecursionError:  # the cap is above the interpreter's limit on this platform
        raise JsonError(f"nested too deep to read (cap {max_depth})") from None
    except ValueError as exc:
        raise JsonError(str(getattr(exc, "msg", exc))) from None


def try_loads(text: str, default: Any = None) -> Any:
    """``text`` decoded, or ``default`` when it is not (bounded) JSON."""
    try:
        return loads(text)
    except JsonError:
        return default
