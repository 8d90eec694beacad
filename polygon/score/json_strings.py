"""The text in a JSON value: what a tool was sent or answered, or a language file's dump.

One walker for every check that reads a tool's arguments or results as text. The checks
differ only in what they count as text: a key (``"order_id"``) is a tool's name for a
value, which most checks pass over and one reads for the words it shares with a fact; a
number (``3500``) is text to a check that finds digits in it, and no text to one that reads
words. A flag (``true``) and ``null`` are never text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_KEY_WORD = re.compile(r"[^\W\d_]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def json_strings(value: object, *, keys: bool = False, numbers: bool = False) -> Iterator[str]:
    """Every string in ``value`` at any depth, in order; with ``keys``, a dict's keys too.

    A key comes before its value. With ``numbers`` an int or float is text as ``str`` writes
    it ("3500", "45.5"). Tuples and sets are walked like lists: a pydantic model's dump holds
    them, a tool's JSON (made of builtins at the log's boundary) never does.
    """
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if keys:
                yield from json_strings(key, keys=keys, numbers=numbers)
            yield from json_strings(item, keys=keys, numbers=numbers)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from json_strings(item, keys=keys, numbers=numbers)
    elif numbers and isinstance(value, int | float) and not isinstance(value, bool):
        yield str(value)


def key_words(key: str) -> list[str]:
    """A key's (or a tool name's) words in lower case, camel case split.

    "guestName" → guest, name; "order_replacement" → order, replacement; digits are no word
    ("eu261_x" → eu, x).
    """
    return [w.lower() for w in _KEY_WORD.findall(_CAMEL.sub(" ", key))]
