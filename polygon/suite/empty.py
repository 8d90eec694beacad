"""``Field(default_factory=empty_list)`` in the suite's models, not ``default_factory=list``.

pydantic reads each default factory's signature (does it take the validated data?). For the
built-in ``list`` that signature is parsed from its text form by ``inspect``, with the
tokenizer, whose first use compiles its regular expressions (~0.005 CPU s): at import, where a
default is made with ``model_construct``, or when a suite is first validated. A Python
function's signature is read straight from its code.
"""

from __future__ import annotations

from typing import Any


def empty_list() -> list[Any]:
    """A new empty list (what ``list()`` returns)."""
    return []
