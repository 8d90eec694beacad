"""Writing a view's UTF-8 bytes to stdout as ``click.echo`` would have written its text."""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Iterable

import click

from polygon.visible import visible, visible_bytes


def write_bytes(chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` (UTF-8) to stdout, byte for byte what ``click.echo(text, nl=False)`` writes.

    Straight to stdout's binary stream where that is the same: its text encoding is UTF-8,
    lines end in a plain newline, and the chunk holds no escape character (click strips
    ANSI codes when stdout is not a terminal). Otherwise as text, decoded incrementally (a
    saved view is written in pieces that may split a character). Control characters from
    agents and suites are written as visible escapes first (:mod:`polygon.visible`).
    """
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    raw = os.linesep == "\n" and codecs.lookup(encoding).name == "utf-8"
    decode = codecs.getincrementaldecoder("utf-8")().decode
    for chunk in visible_bytes(chunks):
        click.echo(chunk if raw and b"\x1b" not in chunk else decode(chunk), nl=False)


def warn(line: str) -> None:
    """One line on stderr, its control characters escaped (a warning may quote a suite's names)."""
    click.echo(visible(line), err=True)
