r"""Text from outside made safe to show: control characters written as visible escapes.

An agent's reply or a suite's text may hold terminal controls: an OSC sequence that retitles
the window, a BEL, a CR that lets the rest of a line overprint what came before (a fake
``PASS 100.00`` over a fail), a bidi override that reorders what is read. Outputs (terminal,
text, Markdown, JUnit) show every C0 and C1 control but ``\n`` and ``\t``, DEL, the bidi
controls and the XML non-characters U+FFFE/U+FFFF as escapes (``\x1b``, ``\r``, ``\u202e``),
which also keeps JUnit well-formed XML (XML 1.0 forbids most C0). The log keeps the raw text.

In JSON a C0 character is escaped by the encoder already; what this writes for the others
(``\u0085``, ``\u202e``) is JSON's own escape for the same character, so a JSON output
still reads back to the same values.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator

_NAMED = {"\r": "\\r", "\b": "\\b", "\f": "\\f", "\v": "\\v", "\0": "\\0"}
# C0 but \t and \n, DEL, C1, the bidi marks, embeddings, overrides and isolates, U+FFFE/U+FFFF
_CONTROLS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]"
)
_RAW = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f\xc2\xd8\xe2\xef]")
"""Bytes that may start one (in UTF-8): most chunks hold none and pass through untouched."""


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x7F else f"\\u{ord(char):04x}"  # JSON reads \u back


def visible(text: str) -> str:
    """``text`` with every control character (but newline and tab) written as an escape."""
    return _CONTROLS.sub(_escape, text) if _CONTROLS.search(text) else text


def needs_escapes(texts: Iterable[str]) -> bool:
    """Whether any of ``texts`` holds a control character (one scan, for a table's many cells)."""
    return _CONTROLS.search("\n".join(texts)) is not None


def visible_bytes(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """:func:`visible` over UTF-8 ``chunks`` (a character may be split between two)."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
    for chunk in chunks:
        if not decoder.getstate()[0] and not _RAW.search(chunk):
            yield chunk  # no control can start here, and nothing is held from the last chunk
            continue
        yield visible(decoder.decode(chunk)).encode("utf-8", "surrogateescape")
    if tail := decoder.decode(b"", final=True):
        yield tail.encode("utf-8", "surrogateescape")
