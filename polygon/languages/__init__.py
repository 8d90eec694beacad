"""Languages: one data file each (``polygon/languages/<code>.yaml``), the only place words live.

A language file holds what the caller needs to understand an agent in that language (stop
words, question words and the concepts they ask for, the phrases of each dialogue act),
every sentence the caller can say in it (goal, facts, confirmations, corrections, closings,
each type's manner), the spoken label of a fact key's abbreviations, what speech-recognition
noise needs (digit names, fillers, sound-alikes) and the words ``polygon lint`` reads a
prompt's rules by. Nothing names a business: the same caller orders pizza, reports a power
cut or refills a prescription.

Every file is validated by one model on load (:mod:`polygon.languages.model`) and all have
the same fields. The scripted caller speaks and understands through them; the offline probe
detectors read an agent's dialogue acts through them (:mod:`polygon.languages.acts`); the
noise and the lint tiers read their sections.

The model and its loader are imported on first use: pydantic and YAML are slow to import,
and a command's ``--help`` lists :data:`LANGUAGES` without them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from polygon.languages.model import (
        Acts,
        Language,
        LanguagePackError,
        Lexicon,
        Manner,
        Noise,
        RuleWords,
        Say,
        SmallTalk,
        Spoken,
        Understand,
        caller_language,
        load_language,
        parse_language,
    )

CALLER_TYPES = ("cooperative", "busy", "distrustful", "confused", "aggressive", "chatty")
LANGUAGES = ("en", "hr", "ru")
"""The languages with their own file."""

__all__ = [
    "CALLER_TYPES",
    "LANGUAGES",
    "Acts",
    "Language",
    "LanguagePackError",
    "Lexicon",
    "Manner",
    "Noise",
    "RuleWords",
    "Say",
    "SmallTalk",
    "Spoken",
    "Understand",
    "caller_language",
    "load_language",
    "parse_language",
]
_LAZY = frozenset(__all__) - {"CALLER_TYPES", "LANGUAGES"}


def __getattr__(name: str) -> Any:
    """The model's names, importing it on first use."""
    if name in _LAZY:
        return getattr(importlib.import_module("polygon.languages.model"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
