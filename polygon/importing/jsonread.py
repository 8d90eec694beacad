"""The one JSON decoder for transcript files: bounded nesting, one error type.

Every importer and the format detection read JSON through :func:`loads`, so a hostile line
(``[[[[…`` 100,000 deep) is refused the same way on every path: detection that parsed with
``json.loads`` directly crashed with a RecursionError that the importers' own guard never
saw. Nesting past :data:`MAX_JSON_DEPTH` is refused too, though the standard library reads
it, because what reads the value next (redaction, the log's boundary) recurses into it.
"""

from __future__ import annotations

import json
from typing import Any

MAX_JSON_DEPTH = 256
"""Deepest nesting read from a transcript (real exports nest under 20; the log keeps 32)."""


class JsonError(ValueError):
    """A text that is not JSON, or nests deeper than :data:`MAX_JSON_DEPTH`."""


def loads(text: str, max_depth: int = MAX_JSON_DEPTH, *, first_line: int = 1) -> Any:
    """``text`` decoded, or :class:`JsonError` (never a RecursionError) saying why not.

    A syntax error says where, by line and column; ``first_line`` is the file's line the text
    starts on (a JSONL record's line number), so the line named is the file's.
    """
    try:
        value = json.loads(text)  # fails fast on what is not one document (a JSONL file)
    except RecursionError:  # deeper than the interpreter's limit: refused like any too-deep value
        raise JsonError(f"nested deeper than {max_depth} levels") from None
    except json.JSONDecodeError as exc:
        # exc.msg without its "(char N)": a position a person finds in an editor
        where = f"line {first_line + exc.lineno - 1} column {exc.colno}"
        raise JsonError(f"{exc.msg.removesuffix(' at')} at {where}") from None
    except ValueError as exc:
        raise JsonError(str(exc)) from None
    # counting the openers is cheap; only a text that could be too deep is walked
    if text.count("[") + text.count("{") > max_depth and _deeper(value, max_depth):
        raise JsonError(f"nested deeper than {max_depth} levels")
    return value


def _deeper(value: Any, max_depth: int) -> bool:
    """Whether a decoded value nests deeper than ``max_depth`` (iterative: no recursion to run out of)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > max_depth:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False
