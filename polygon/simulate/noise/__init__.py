"""Deliberate speech-recognition noise.

One knob, ``intensity`` from 0 to 1, scales four distortions: dropped words, numbers read
digit by digit ("fifty" / "50" → "five zero"), sound-alike swaps and a filler at the start.
The generator is derived only from (run seed, conversation, turn), so the same inputs give
the same noise in any process, and intensity 0 changes nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import lru_cache

from polygon.events import NoiseOp
from polygon.simulate.noise.packs import LanguagePack, pack
from polygon.simulate.seeded import seeded

# Per-word probabilities at intensity 1; each scales linearly with the knob.
P_DROP = 0.12
P_DIGITS = 0.9
P_SOUNDALIKE = 0.6
P_FILLER = 0.7

_TOKEN = re.compile(r"\S+")
_EDGE = re.compile(r"^([^\w]*)(.*?)([^\w]*)$", re.UNICODE)
_EIGHT_BYTES = hashlib.blake2b(digest_size=8)
"""An empty hasher of 8-byte digests: each turn's seed hashes on from a copy of it."""


def noise_seed(run_seed: int, conversation: str, turn: int) -> int:
    """The seed of one turn's noise: a hash, so it is stable across processes."""
    hashed = _EIGHT_BYTES.copy()  # a copy costs less than a new blake2b (its arguments parsed)
    hashed.update(f"noise\x00{run_seed}\x00{conversation}\x00{turn}".encode())
    return int.from_bytes(hashed.digest(), "big")


def apply_noise(
    text: str, *, intensity: float, language: str, run_seed: int, conversation: str, turn: int
) -> tuple[str, list[NoiseOp], int]:
    """Distort ``text`` as a recogniser might. Returns (heard text, operations, seed)."""
    seed = noise_seed(run_seed, conversation, turn)
    if intensity <= 0 or not text.strip():
        return text, [], seed
    rng = seeded(seed)
    ops: list[NoiseOp] = []
    words = _words(text, language) if len(text) <= KEPT_CHARS else _read_words(text, language)
    out = _distorted(words, intensity, rng.random, ops)
    if rng.random() < P_FILLER * intensity:
        filler = rng.choice(pack(language).fillers)
        out.insert(0, filler)
        ops.append(NoiseOp(kind="filler", position=0, before="", after=filler))
    return " ".join(out), ops, seed


_Parts = tuple[str, str, str, str | None, tuple[str, ...], str | None]
"""(lead, core, trail, the number read digit by digit, those words, the sound-alike)."""


def _distorted(
    words: tuple[tuple[str, _Parts], ...], intensity: float, draw: Callable[[], float], ops: list[NoiseOp]
) -> list[str]:
    """The words as heard, each dropped, read digit by digit, swapped for a sound-alike or kept.

    One loop, no call per word: it runs for every word of every caller turn of a run.
    """
    p_digits, p_sound, p_drop = P_DIGITS * intensity, P_SOUNDALIKE * intensity, P_DROP * intensity
    out: list[str] = []
    for word, (lead, core, trail, spoken, spoken_words, swapped) in words:
        # Draw every decision, used or not, so one distortion never shifts another's randomness.
        drop, digits, sound = draw(), draw(), draw()
        if spoken is not None and digits < p_digits:
            ops.append(NoiseOp(kind="digits", position=len(out), before=word, after=spoken))
            out.extend(spoken_words)
        elif swapped is not None and sound < p_sound:
            ops.append(NoiseOp(kind="soundalike", position=len(out), before=word, after=swapped))
            out.append(lead + swapped + trail)
        elif drop < p_drop and core:
            ops.append(NoiseOp(kind="drop", position=len(out), before=word, after=""))
        else:
            out.append(word)
    return out


KEPT_CHARS = 1_000
"""Longest turn whose words are kept: 4,096 kept 100,000-character turns would hold gigabytes."""


@lru_cache(maxsize=4096)
def _words(text: str, language: str) -> tuple[tuple[str, _Parts], ...]:
    """A turn's words, each with :func:`_parts`: a scripted caller says the same lines call after call."""
    return _read_words(text, language)


def _read_words(text: str, language: str) -> tuple[tuple[str, _Parts], ...]:
    return tuple((word, _parts(word, language)) for word in _TOKEN.findall(text))


@lru_cache(maxsize=8192)
def _parts(word: str, language: str) -> _Parts:
    """What noise can do to one word, whatever the dice say.

    (lead, core, trail, the number read digit by digit, its words, the sound-alike). Kept per word: a
    caller says the same words in every call of a suite, and these depend only on the word
    and the language.
    """
    lp = pack(language)
    lead, core, trail = _split_edges(word)
    low = core.lower()
    number = _as_number(low, lp)
    spoken = " ".join(lp.digits[int(d)] for d in number) if number is not None else None
    return lead, core, trail, spoken, tuple(spoken.split()) if spoken else (), lp.soundalikes.get(low)


def _split_edges(word: str) -> tuple[str, str, str]:
    if word.isalnum():  # most words: no punctuation to keep aside, no regex to run
        return "", word, ""
    match = _EDGE.match(word)
    if match is None:
        return "", word, ""
    return match.group(1), match.group(2), match.group(3)


def _as_number(low: str, lp: LanguagePack) -> str | None:
    """Digits of a spoken or written number, or None."""
    compact = low.replace("-", "") if low.replace("-", "").isdecimal() else low
    if compact.isdecimal() and len(compact) >= 2:  # not "²" or "①": isdigit, but no int
        return compact
    value = lp.number_words.get(low)
    if value is not None and value >= 10:
        return str(value)
    return None
