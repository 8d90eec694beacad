"""Logs with one B-tree page damaged on purpose, the same bytes every time.

A format-1 log keeps each turn's text in clear, so the leaf page holding a given turn is found
by its text; changing that page's type (its ``mp_flags``) to an overflow page is damage LMDB
meets in two ways: as the first leaf of a tree, reached by a search, it is refused
(``MDB_CORRUPTED: Located page was wrong type``); as a later leaf, reached from its left
sibling by ``mdb_cursor_next``, it fails the assertion ``IS_LEAF(mp)`` and LMDB aborts the
process.
"""

from __future__ import annotations

from pathlib import Path

from polygon.events import LmdbLog
from tests.support.log import turn

PAGE = 4096
_FLAGS_AT = 10  # mp_flags: after the 8-byte page number and 2 bytes of padding (64-bit LMDB)
_P_LEAF, _P_OVERFLOW = 0x02, 0x04
TURNS = 120


def text_of(n: int) -> str:
    """Turn ``n``'s text: unique, and long enough that the turns fill several leaf pages."""
    return f"marker-{n:04d} " + "booking a table for two on Tuesday evening, " * 3


def small_log(path: Path) -> Path:
    """A format-1 log of :data:`TURNS` turns in one call ``conv/d``, written in one transaction."""
    with LmdbLog(path, format_version=1) as log:
        log.append([turn("d", n, text_of(n)) for n in range(1, TURNS + 1)])
    return path


def retype_leaf(path: Path, n: int) -> int:
    """Mark the leaf page holding turn ``n`` as an overflow page; returns its page number."""
    data = path / "data.mdb"
    raw = bytearray(data.read_bytes())
    where = raw.find(f"marker-{n:04d} ".encode())
    assert where > 0, "turn not found in the file"
    page = where // PAGE
    flags = page * PAGE + _FLAGS_AT
    assert raw[flags] == _P_LEAF, f"page {page} is not a plain leaf (flags {raw[flags]:#x})"
    raw[flags] = _P_OVERFLOW
    data.write_bytes(bytes(raw))
    return page
