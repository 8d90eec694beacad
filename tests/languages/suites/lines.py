"""The benchmark's line agent (:mod:`tests.bench.accuracy.line`), reading names in any language.

The benchmark's agent takes two capitalised words in a row for a name, minus a few English
greetings. German capitalises every noun and both languages open with "Guten Tag", "Buenos
Días" or "Hallo? Mit wem …": here a pair with a word the caller's own sentences use (its
language file's) is no name.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from polygon.languages import load_language
from tests.bench.accuracy.line import NAME, Line, LineAgent, Slot

_WORD = re.compile(r"[^\W\d_][^\W\d_'-]*")


@cache
def _caller_words(code: str) -> frozenset[str]:
    """Every word of every sentence the caller of language ``code`` can say, lower case."""
    pack = load_language(code)
    said = [*pack.say.model_dump().values(), *pack.small_talk.digressions, *pack.small_talk.complaints]
    said += [s for m in pack.types.values() for s in m.model_dump().values()]
    said += [*pack.small_talk.threats, *pack.small_talk.worries]
    return frozenset(w.lower() for s in said for w in _WORD.findall(s)) | pack.stop_words


class NamedLineAgent(LineAgent):
    """The line agent, with a name told apart from the caller's words in ``language``."""

    def __init__(self, line: Line, language: str, bug: str = "") -> None:
        super().__init__(line, bug)
        self.not_names = _caller_words(language)

    def find(self, slot: Slot, heard: str) -> str:  # type: ignore[override]
        if slot.shape != NAME:
            return LineAgent.find(slot, heard)
        tokens = _WORD.findall(heard)
        pairs = [
            f"{a} {b}"
            for a, b in zip(tokens, tokens[1:], strict=False)
            if a[0].isupper() and b[0].isupper() and not {a.lower(), b.lower()} & self.not_names
        ]
        return pairs[-1] if pairs else ""


def factory(line: Line, language: str):  # type: ignore[no-untyped-def]
    """A suite factory: ``params: {bug: ...}`` picks the version (the benchmark's bugs)."""

    def make(prompt: str = "", params: dict[str, Any] | None = None) -> NamedLineAgent:
        return NamedLineAgent(line, language, str((params or {}).get("bug", "")))

    return make
