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

from typing import TYPE_CHECKING

from polygon.lazy import face_getattr

if TYPE_CHECKING:
    from polygon.languages.acts import (
        CODE,
        DATE,
        NUMBER,
        TIME,
        Turn,
        done,
        has,
        promises,
        read_turn,
        reports,
        tells_failure,
    )
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
        parsed_text,
    )
    from polygon.languages.numbers import numbers_table_text, spelled

CALLER_TYPES = ("cooperative", "busy", "distrustful", "confused", "aggressive", "chatty")
LANGUAGES = ("en", "hr", "ru", "de", "es")
"""The languages with their own file."""

# The public face (tests/test_faces.py pins it): each name loads its module on first use.
_FACE = {
    "Acts": "polygon.languages.model",
    "Language": "polygon.languages.model",
    "LanguagePackError": "polygon.languages.model",
    "Lexicon": "polygon.languages.model",
    "Manner": "polygon.languages.model",
    "Noise": "polygon.languages.model",
    "RuleWords": "polygon.languages.model",
    "Say": "polygon.languages.model",
    "SmallTalk": "polygon.languages.model",
    "Spoken": "polygon.languages.model",
    "Understand": "polygon.languages.model",
    "caller_language": "polygon.languages.model",
    "load_language": "polygon.languages.model",
    "parse_language": "polygon.languages.model",
    "parsed_text": "polygon.languages.model",
    "CODE": "polygon.languages.acts",
    "DATE": "polygon.languages.acts",
    "NUMBER": "polygon.languages.acts",
    "TIME": "polygon.languages.acts",
    "Turn": "polygon.languages.acts",
    "done": "polygon.languages.acts",
    "has": "polygon.languages.acts",
    "promises": "polygon.languages.acts",
    "read_turn": "polygon.languages.acts",
    "reports": "polygon.languages.acts",
    "tells_failure": "polygon.languages.acts",
    "numbers_table_text": "polygon.languages.numbers",
    "spelled": "polygon.languages.numbers",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = [
    "Acts",
    "CALLER_TYPES",
    "CODE",
    "DATE",
    "LANGUAGES",
    "Language",
    "LanguagePackError",
    "Lexicon",
    "Manner",
    "NUMBER",
    "Noise",
    "RuleWords",
    "Say",
    "SmallTalk",
    "Spoken",
    "TIME",
    "Turn",
    "Understand",
    "caller_language",
    "done",
    "has",
    "load_language",
    "numbers_table_text",
    "parse_language",
    "parsed_text",
    "promises",
    "read_turn",
    "reports",
    "spelled",
    "tells_failure",
]
