"""The words the rules tier reads, per language: each language file's ``lint`` section.

The lists live with the language's other words (:mod:`polygon.languages`); this module
hands them to the tiers. They favour precision: a clean, ordinary prompt should light up
few of them.
"""

from __future__ import annotations

from functools import cache

from polygon.languages import LANGUAGES, Lexicon, load_language

__all__ = ["Lexicon", "code_of", "lexicon", "words_of"]


def words_of(block: str) -> tuple[str, ...]:
    """One marker per line (phrases keep their spaces); a single line splits at spaces."""
    lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
    return tuple(lines) if len(lines) > 1 else tuple(block.split())


def lexicon(language: str) -> Lexicon:
    """The lexicon of ``language`` (one of :data:`polygon.languages.LANGUAGES`)."""
    return load_language(language).lint


@cache
def _codes() -> dict[int, str]:
    return {id(lexicon(code)): code for code in LANGUAGES}


def code_of(lex: Lexicon) -> str | None:
    """The language a loaded lexicon belongs to (``None`` for one built by hand)."""
    return _codes().get(id(lex))
