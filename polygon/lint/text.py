"""A prompt cut into what the tiers read: sections, units (one rule or sentence each), words.

Every piece keeps its character offsets into the original text, so a mark made on a unit or
a word lands on the exact span the author wrote (and ``line:col`` follows from the offset).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import regex

_BULLET = regex.compile(r"^[ \t]*(?:[-*•+]|\d{1,3}[.)])[ \t]+")
_HEADING = regex.compile(r"^[ \t]*(?:#{1,6}[ \t]+\S.*|[^\n.!?]{1,60}:[ \t]*)$")
_SENTENCE_END = regex.compile(r"(?<=[.!?…])[\"'»”)]*\s+(?=[\"'«“(⟦]?[\p{Lu}\d`])|(?<=[;])\s+")
_NEWLINE = regex.compile(r"\n")
_WORD = regex.compile(r"[\p{L}\p{N}_'’-]+")


@dataclass(frozen=True)
class Unit:
    """One rule or sentence: the smallest thing a mark points at."""

    index: int
    start: int
    end: int
    text: str
    section: int
    bullet: bool
    """Written as a list item (a rule in a list) rather than inside a paragraph."""


@dataclass(frozen=True)
class Section:
    """A heading and what follows it, or a paragraph block when there are no headings."""

    index: int
    start: int
    end: int
    title: str


class Word(NamedTuple):
    """A word with its offsets (lower-cased for matching).

    A named tuple, not a dataclass: a long prompt makes hundreds of thousands of them.
    """

    start: int
    end: int
    text: str


class Prompt:
    """The prompt text, cut once and shared by every tier."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sections, self.units = _cut(text)
        self._line_starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    @cached_property
    def words(self) -> list[Word]:
        """Every word of the prompt, in order."""
        return [Word(m.start(), m.end(), m.group().lower()) for m in _WORD.finditer(self.text)]

    @cached_property
    def _word_starts(self) -> list[int]:
        return [w.start for w in self.words]

    def unit_words(self, unit: Unit) -> list[Word]:
        """The words inside ``unit``."""
        lo = bisect.bisect_left(self._word_starts, unit.start)
        hi = bisect.bisect_left(self._word_starts, unit.end, lo)
        return self.words[lo:hi]

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line + 1, offset - self._line_starts[line] + 1

    def position(self, unit: Unit) -> float:
        """Where the unit's middle sits in the prompt, 0 (start) to 1 (end)."""
        return ((unit.start + unit.end) / 2) / max(1, len(self.text))


def _cut(text: str) -> tuple[list[Section], list[Unit]]:
    sections: list[Section] = []
    units: list[Unit] = []
    blocks = _blocks(text)
    titled = any(kind == "heading" for kind, _, _ in blocks)
    for kind, start, end in blocks:
        if kind == "heading" or not sections or (not titled and kind == "para-start"):
            title = text[start:end].strip().rstrip(":").lstrip("#").strip() if kind == "heading" else ""
            sections.append(Section(len(sections), start, end, title))
        if kind == "heading":
            continue
        for s, e in _sentences(text, start, end):
            units.append(Unit(len(units), s, e, text[s:e], len(sections) - 1, kind == "bullet"))
    sections = [
        Section(
            sec.index, sec.start, (sections[i + 1].start if i + 1 < len(sections) else len(text)), sec.title
        )
        for i, sec in enumerate(sections)
    ]
    return sections, units


def _blocks(text: str) -> list[tuple[str, int, int]]:
    """Lines grouped into headings, bullets (with their continuation lines) and paragraphs."""
    blocks: list[tuple[str, int, int]] = []
    offset = 0
    blank_before = True
    for line in text.splitlines(keepends=True):
        start, stripped = offset, line.strip()
        offset += len(line)
        if not stripped:
            blank_before = True
            continue
        lead = start + len(line) - len(line.lstrip())
        end = start + len(line.rstrip())
        bullet = _BULLET.match(line)
        if bullet:
            blocks.append(("bullet", start + bullet.end(), end))
        elif _HEADING.match(line.rstrip("\n")) and not _continues(blocks, blank_before):
            blocks.append(("heading", lead, end))
        elif blocks and not blank_before and blocks[-1][0] != "heading":
            kind, s, _ = blocks[-1]
            blocks[-1] = (kind, s, end)  # a wrapped line continues its block
        else:
            blocks.append(("para-start" if blank_before else "para", lead, end))
        blank_before = False
    return blocks


def _continues(blocks: list[tuple[str, int, int]], blank_before: bool) -> bool:
    return bool(blocks) and not blank_before and blocks[-1][0] in ("para", "para-start")


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans inside ``text[start:end]``, trimmed of surrounding space."""
    spans: list[tuple[int, int]] = []
    at = start
    for m in _SENTENCE_END.finditer(text, start, end):
        spans.append((at, m.start()))
        at = m.end()
    spans.append((at, end))
    return [(s, e) for s, e in spans if text[s:e].strip()]
