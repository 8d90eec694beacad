"""ASR noise events: what the noise did to one caller turn."""

from __future__ import annotations

import msgspec

from polygon.events.registry import Event, event_type


class NoiseOp(msgspec.Struct, frozen=True, kw_only=True):
    """One distortion applied."""

    kind: str
    """``drop``, ``digits``, ``soundalike`` or ``filler``."""
    position: int
    """Word index in the text at the time the operation ran."""
    before: str
    """The word(s) replaced (empty for a filler)."""
    after: str
    """What replaced them (empty for a drop)."""


@event_type(version=1)
class NoiseApplied(Event, frozen=True, kw_only=True, tag="noise.applied"):
    """The caller's words went through simulated speech recognition."""

    conversation_id: str
    """Conversation id."""
    turn: int
    """Exchange number."""
    intensity: float
    """Noise knob, 0–1."""
    language: str
    """Language pack used."""
    clean_text: str
    """What the caller said."""
    heard_text: str
    """What the agent received."""
    ops: list[NoiseOp]
    """Each operation, in the order applied."""
    rng_seed: int
    """The seed derived from (run seed, conversation, turn)."""


@event_type(version=1)
class PhoneApplied(Event, frozen=True, kw_only=True, tag="phone.applied"):
    """A phone behaviour happened at a caller turn: a barge-in, a silence, a self-correction."""

    conversation_id: str
    """Conversation id."""
    turn: int
    """Exchange number (of the caller turn it shaped)."""
    kind: str
    """``barge_in``, ``silence`` or ``self_correction``."""
    detail: str = ""
    """In words: what the caller cut off, or what it said wrong first."""
    heard: str = ""
    """Barge-in: the agent's reply as the caller heard it (up to where it cut in)."""
    at_word: int = 0
    """Barge-in: how many of the reply's words the caller heard."""
