"""``polygon noise``: preview ASR noise exactly as a run applies it (same keys, same seed rule)."""

from __future__ import annotations

from dataclasses import dataclass

from polygon.events.families import NoiseOp
from polygon.simulate.noise import apply_noise
from polygon.simulate.noise.packs import languages

__all__ = ["NoisePreview", "languages", "preview_noise"]


@dataclass(frozen=True)
class NoisePreview:
    """What the agent would hear, each distortion, and the seed that drew them."""

    clean: str
    heard: str
    ops: list[NoiseOp]
    rng_seed: int


def preview_noise(
    text: str, *, intensity: float, language: str, run_seed: int, conversation: str, turn: int
) -> NoisePreview:
    """The noise a run with ``run_seed`` applies to ``text`` at (``conversation``, ``turn``)."""
    heard, ops, rng_seed = apply_noise(
        text, intensity=intensity, language=language, run_seed=run_seed, conversation=conversation, turn=turn
    )
    return NoisePreview(text, heard, ops, rng_seed)
