"""The words the rules tier reads, per language: each language file's ``lint`` section.

The lists live with the language's other words (:mod:`polygon.languages`); this module
hands them to the tiers. They favour precision: a clean, ordinary prompt should light up
few of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polygon import languages as _languages

if TYPE_CHECKING:
    from polygon.languages import Lexicon

__all__ = ["code_of", "lexicon"]


_CODES: dict[int, str] = {}
"""A loaded lexicon's identity → its language (loaded languages live for the process)."""


def lexicon(language: str) -> Lexicon:
    """The lexicon of ``language`` (one of :data:`polygon.languages.LANGUAGES`)."""
    lex = _languages.load_language(language).lint  # the model loads on first use, not on import
    _CODES[id(lex)] = language
    return lex


def code_of(lex: Lexicon) -> str | None:
    """The language of a lexicon handed out by :func:`lexicon` (``None`` for any other)."""
    return _CODES.get(id(lex))
