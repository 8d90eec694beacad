"""What the noise knows of a language: digit names, fillers, sound-alikes, number words.

The words are the language file's ``noise`` section (:mod:`polygon.languages`). Number
words are num2words' in the language the file names (Croatian's file names Serbian Latin,
whose tables spell the numbers 0–100 the same way), from the table shipped beside the
language files (:mod:`polygon.languages.numbers`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from polygon import languages as _languages
from polygon.errors import UserInputError
from polygon.languages import LANGUAGES


@dataclass(frozen=True)
class LanguagePack:
    """What the noise needs to know about one language."""

    code: str
    digits: tuple[str, ...]
    """Names of 0–9, used to read numbers digit by digit."""
    fillers: tuple[str, ...]
    soundalikes: dict[str, str]
    number_words: dict[str, int] = field(default_factory=dict)
    """Spoken number word → value (0–100), as num2words spells them."""


@cache
def pack(code: str) -> LanguagePack:
    """The pack for ``code`` (en, ru, hr)."""
    if code not in LANGUAGES:
        raise UserInputError(f"no noise language pack {code!r}; available: {', '.join(languages())}")
    language = _languages.load_language(code)  # the model loads here, not on import
    noise = language.noise
    words: dict[str, int] = {}
    for n, spoken in enumerate(_languages.spelled(language.num2words)[:101]):
        words.setdefault(spoken.lower(), n)
    return LanguagePack(
        code=code,
        digits=noise.digits,
        fillers=noise.fillers,
        soundalikes=noise.soundalikes,
        number_words=words,
    )


def languages() -> list[str]:
    """Available pack codes."""
    return sorted(LANGUAGES)
