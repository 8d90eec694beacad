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
_CONTROL_AT = re.compile(
    rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xaa-\xae]"
    rb"|\xe2\x81[\xa6-\xa9]|\xef\xbf[\xbe\xbf]"
)
"""Each of :data:`_CONTROLS` as UTF-8 (matched where a byte of :data:`_MARKS` is)."""
_LEADS = b"\xc2\xd8\xe2\xef"
_MARKS = bytes(b in _LEADS or (b < 0x20 and b not in b"\t\n") or b == 0x7F for b in range(256))
"""1 for a byte that may start one of them, else 0: a chunk's bytes mapped through it (C speed)."""


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
        if not decoder.getstate()[0] and not _may_hold_control(chunk):
            yield chunk  # no control here, none cut at its end, nothing held from the last chunk
            continue
        yield visible(decoder.decode(chunk)).encode("utf-8", "surrogateescape")
    if tail := decoder.decode(b"", final=True):
        yield tail.encode("utf-8", "surrogateescape")


def _may_hold_control(chunk: bytes) -> bool:
    r"""Whether ``chunk`` holds a control character (UTF-8), or may hold the start of one at its end.

    Only the bytes that may start one are looked at, each found at C speed: a report holds the
    lead bytes of "·", "é", "—" or "→" everywhere, and a search for any lead byte sent nearly
    every piece of a large view through the decoder and the character scan (0.77 of 2.3 CPU s
    writing a 342 MB JSON report), a search for the whole sequences scanned slower still. Past
    :data:`LOOKS` candidates it answers yes: text dense with them (Arabic letters lead with
    \xd8, box drawing with \xe2) costs the decoder's scan, never a Python step per character.
    """
    marks = chunk.translate(_MARKS)
    tail = len(chunk) - 2  # a lead byte here may have the rest of its character in the next chunk
    at = marks.find(1)
    for _ in range(LOOKS):
        if at == -1:
            return False
        if _CONTROL_AT.match(chunk, at) or (at >= tail and chunk[at] in _LEADS):
            return True
        at = marks.find(1, at + 1)
    return at != -1


LOOKS = 1024
"""Candidate bytes :func:`_may_hold_control` checks one by one in a chunk: ~0.3 ms at most, a
tenth of decoding and scanning a 1 MiB piece (of the 342 MB JSON report's 327 pieces, half
hold none, the most 641)."""
