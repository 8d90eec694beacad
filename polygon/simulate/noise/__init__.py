"""Deliberate speech-recognition noise.

One knob, ``intensity`` from 0 to 1, scales four distortions: dropped words, numbers read
digit by digit ("fifty" / "50" → "five zero"), sound-alike swaps and a filler at the start.
The generator is derived only from (run seed, conversation, turn), so the same inputs give
the same noise in any process, and intensity 0 changes nothing.
"""

from __future__ import annotations

import hashlib
import random
import re
from functools import lru_cache

from polygon.events import NoiseOp
from polygon.simulate.noise.packs import LanguagePack, pack

# Per-word probabilities at intensity 1; each scales linearly with the knob.
P_DROP = 0.12
P_DIGITS = 0.9
P_SOUNDALIKE = 0.6
P_FILLER = 0.7

_TOKEN = re.compile(r"\S+")
_EDGE = re.compile(r"^([^\w]*)(.*?)([^\w]*)$", re.UNICODE)


def noise_seed(run_seed: int, conversation: str, turn: int) -> int:
    """The seed of one turn's noise: a hash, so it is stable across processes."""
    data = f"noise\x00{run_seed}\x00{conversation}\x00{turn}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def apply_noise(
    text: str, *, intensity: float, language: str, run_seed: int, conversation: str, turn: int
) -> tuple[str, list[NoiseOp], int]:
    """Distort ``text`` as a recogniser might. Returns (heard text, operations, seed)."""
    seed = noise_seed(run_seed, conversation, turn)
    if intensity <= 0 or not text.strip():
        return text, [], seed
    rng = random.Random(seed)
    lp = pack(language)
    words = _TOKEN.findall(text)
    ops: list[NoiseOp] = []
    out: list[str] = []
    for word in words:
        replaced = _distort_word(word, _parts(word, language), len(out), intensity, rng, ops)
        out.extend(replaced)
    if rng.random() < P_FILLER * intensity:
        filler = rng.choice(lp.fillers)
        out.insert(0, filler)
        ops.append(NoiseOp(kind="filler", position=0, before="", after=filler))
    return " ".join(out), ops, seed


@lru_cache(maxsize=8192)
def _parts(word: str, language: str) -> tuple[str, str, str, str | None, str | None]:
    """What noise can do to one word, whatever the dice say.

    (lead, core, trail, the number read digit by digit, the sound-alike). Kept per word: a
    caller says the same words in every call of a suite, and these depend only on the word
    and the language.
    """
    lp = pack(language)
    lead, core, trail = _split_edges(word)
    low = core.lower()
    number = _as_number(low, lp)
    spoken = " ".join(lp.digits[int(d)] for d in number) if number is not None else None
    return lead, core, trail, spoken, lp.soundalikes.get(low)


def _distort_word(
    word: str,
    parts: tuple[str, str, str, str | None, str | None],
    position: int,
    intensity: float,
    rng: random.Random,
    ops: list[NoiseOp],
) -> list[str]:
    lead, core, trail, spoken, swapped = parts
    # Draw every decision, used or not, so one distortion never shifts another's randomness.
    drop, digits, sound = rng.random(), rng.random(), rng.random()
    if spoken is not None and digits < P_DIGITS * intensity:
        ops.append(NoiseOp(kind="digits", position=position, before=word, after=spoken))
        return spoken.split()
    if swapped is not None and sound < P_SOUNDALIKE * intensity:
        ops.append(NoiseOp(kind="soundalike", position=position, before=word, after=swapped))
        return [lead + swapped + trail]
    if drop < P_DROP * intensity and len(core) > 0:
        ops.append(NoiseOp(kind="drop", position=position, before=word, after=""))
        return []
    return [word]


def _split_edges(word: str) -> tuple[str, str, str]:
    if word.isalnum():  # most words: no punctuation to keep aside, no regex to run
        return "", word, ""
    match = _EDGE.match(word)
    if match is None:
        return "", word, ""
    return match.group(1), match.group(2), match.group(3)


def _as_number(low: str, lp: LanguagePack) -> str | None:
    """Digits of a spoken or written number, or None."""
    compact = low.replace("-", "") if low.replace("-", "").isdigit() else low
    if compact.isdigit() and len(compact) >= 2:
        return compact
    value = lp.number_words.get(low)
    if value is not None and value >= 10:
        return str(value)
    return None
