"""Language packs for ASR noise: number words, digit names, sound-alike pairs, fillers.

Number words come from num2words (Croatian uses its Serbian Latin tables, which spell the
numbers 0–100 the same way). Sound-alike pairs are words speech recognisers confuse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from num2words import num2words

from polygon.errors import UserInputError


@dataclass(frozen=True)
class LanguagePack:
    """What the noise needs to know about one language."""

    code: str
    digits: tuple[str, ...]
    """Names of 0–9, used to read numbers digit by digit."""
    fillers: tuple[str, ...]
    soundalikes: dict[str, str]
    number_words: dict[str, int] = field(default_factory=dict)
    """Spoken number word → value (0–100), built from num2words."""


_SOUNDALIKES = {
    "en": {
        "two": "too",
        "four": "for",
        "eight": "ate",
        "week": "weak",
        "right": "write",
        "book": "look",
        "cancel": "council",
        "tuesday": "choose day",
        "thirteen": "thirty",
        "fifteen": "fifty",
        "appointment": "a point meant",
        "cleaning": "leaning",
        "dentist": "dense",
        "tooth": "truth",
        "monday": "one day",
        "name": "same",
    },
    "ru": {
        "код": "кот",
        "дом": "том",
        "год": "кот",
        "врач": "врать",
        "зуб": "суп",
        "запись": "записка",
        "среда": "среди",
        "пятница": "пятницу",
        "номер": "номе",
    },
    "hr": {
        "zub": "sup",
        "utorak": "u torak",
        "srijeda": "sreda",
        "termin": "tremin",
        "broj": "boj",
        "kod": "kot",
        "sutra": "sutre",
        "ime": "imeh",
        "pregled": "preglej",
    },
}
_DIGITS = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
    "ru": ("ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"),
    "hr": ("nula", "jedan", "dva", "tri", "četiri", "pet", "šest", "sedam", "osam", "devet"),
}
_FILLERS = {
    "en": ("um", "uh", "hm", "hello?", "er"),
    "ru": ("эм", "ну", "хм", "алло?", "э-э"),
    "hr": ("hm", "ovaj", "ee", "halo?", "mhm"),
}
_NUM2WORDS_LANG = {"en": "en", "ru": "ru", "hr": "sr"}


@cache
def pack(code: str) -> LanguagePack:
    """The pack for ``code`` (en, ru, hr)."""
    if code not in _DIGITS:
        raise UserInputError(f"no noise language pack {code!r}; available: {', '.join(sorted(_DIGITS))}")
    words: dict[str, int] = {}
    for n in range(0, 101):
        spoken = num2words(n, lang=_NUM2WORDS_LANG[code]).lower()
        words.setdefault(spoken, n)
    return LanguagePack(
        code=code,
        digits=_DIGITS[code],
        fillers=_FILLERS[code],
        soundalikes=_SOUNDALIKES[code],
        number_words=words,
    )


def languages() -> list[str]:
    """Available pack codes."""
    return sorted(_DIGITS)
