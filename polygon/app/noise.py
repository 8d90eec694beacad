"""``polygon noise``: preview ASR noise exactly as a run applies it (same keys, same seed rule)."""

from __future__ import annotations

from dataclasses import dataclass

from polygon.events import NoiseOp
from polygon.simulate import PhoneSettings, apply_noise, cut_reply, draw, languages, self_correct

__all__ = ["NoisePreview", "PhonePreview", "PhoneSettings", "languages", "preview_noise", "preview_phone"]


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


@dataclass(frozen=True)
class PhonePreview:
    """What the phone behaviour knobs do at one turn, as a run would draw them."""

    lines: list[str]


def preview_phone(
    text: str, reply: str, *, settings: PhoneSettings, run_seed: int, conversation: str, turn: int
) -> PhonePreview:
    """Barge-in, silence and self-correction at (``conversation``, ``turn``) for ``run_seed``."""
    drawn = draw(settings, run_seed, conversation, turn, len(reply.split()))
    lines = []
    if drawn.barge_in_at and reply:
        lines.append(
            f"barge-in: the caller cuts in after {drawn.barge_in_at} words, hearing only: "
            f"{cut_reply(reply, drawn.barge_in_at)!r}"
        )
    elif drawn.silent:
        lines.append("silence: the caller says nothing this turn (the agent has to re-prompt)")
    if drawn.self_correction and not drawn.silent:
        corrected, wrong, right = self_correct(text, drawn.pick)
        if wrong:
            lines.append(f"self-correction: {corrected!r} (said {wrong} first, then {right})")
    return PhonePreview(lines or ["no phone behaviour at this turn"])
