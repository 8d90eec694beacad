"""Tier 2, surprisal: how unexpected each phrase is under the packaged local language model.

A phrase far more surprising than the rest of the prompt is odd or ambiguous wording
(ambiguity); in a long prompt, hard rules in the middle that the model finds as predictable
as the filler around them blend in (diluted attention). Words inside backticks (tool names)
and numbers are left out: they are surprising by nature, not badly worded.

The model is ``local/gemma-3-270m`` through llama-cpp-python (the ``lint`` extra): one
forward pass over the prompt, with logits kept for every position.
"""

from __future__ import annotations

import statistics
import threading
from functools import cached_property
from typing import Any

import numpy as np

from polygon.errors import UserInputError
from polygon.events import LintMark
from polygon.lint import TierReading, TokenScorer, TokenSurprisal
from polygon.lint.reading import Reading
from polygon.lint.rules import LONG_PROMPT_WORDS
from polygon.lint.text import Word

SURPRISAL_VERSION = "1"
PHRASE_WORDS = 3
"""Words per phrase: a sliding window, so an odd word is judged in its company."""
OUTLIER_Z = 2.6
"""A phrase this many robust deviations above the prompt's median stands out."""
MIN_NATS = 7.0
"""…and averages at least this many nats per token (rules out uniformly plain prompts)."""
SUPPORT_ONLY = 0.45
"""The most this tier alone gives an axis: below "worth fixing". On the labelled corpus its
standouts were names and trade words at least as often as bad wording (precision 0.31 on
ambiguity when it could decide), so it marks notes and never flips a verdict by itself."""


class LlamaScorer:
    """Token surprisal from the packaged gemma-3-270m GGUF, in process."""

    identity = "local/gemma-3-270m"

    def __init__(self, n_ctx: int = 4096) -> None:
        self._n_ctx = n_ctx
        self._lock = threading.Lock()

    @cached_property
    def _llm(self) -> Any:
        try:
            import llama_cpp
        except ImportError:
            raise UserInputError(LINT_EXTRA_HINT) from None
        from polygon.models import packaged_model_path

        return llama_cpp.Llama(
            model_path=str(packaged_model_path()), n_ctx=self._n_ctx, n_batch=256, n_ubatch=256, verbose=False
        )

    def surprisals(self, text: str) -> list[TokenSurprisal]:
        """One forward pass; the surprisal of each token given all before it."""
        with self._lock:
            llm = self._llm
            tokens = llm.tokenize(text.encode(), add_bos=True)[: self._n_ctx]
            values = _token_surprisals(llm, tokens)
            spans = _token_spans(llm, text, tokens)
        return [TokenSurprisal(s, e, float(v)) for (s, e), v in zip(spans[1:], values, strict=True)]


LINT_EXTRA_HINT = (
    "the surprisal and embeddings tiers need the optional extra: pip install 'polygon-eval[lint]'"
)


def _token_surprisals(llm: Any, tokens: list[int]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """-log p(token i+1 | tokens ≤ i) for every i, a batch at a time (no n_ctx × vocab buffer)."""
    llm.reset()
    llm._ctx.kv_cache_seq_rm(-1, 0, -1)  # noqa: SLF001 - the public eval keeps only the last logits
    n_vocab = llm.n_vocab()
    out = np.empty(len(tokens) - 1, dtype=np.float64)
    step = llm.n_batch
    row = np.empty(n_vocab, dtype=np.float32)  # one reused buffer: no batch × vocab temporaries
    for at in range(0, len(tokens), step):
        batch = tokens[at : at + step]
        llm._batch.set_batch(batch=batch, n_past=at, logits_all=True)  # noqa: SLF001
        llm._ctx.decode(llm._batch)  # noqa: SLF001
        logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(len(batch), n_vocab))  # noqa: SLF001
        for i in range(min(len(batch), len(tokens) - at - 1)):
            top = logits[i].max()
            np.subtract(logits[i], top, out=row)
            np.exp(row, out=row)
            out[at + i] = top + np.log(row.sum(dtype=np.float64)) - logits[i, tokens[at + i + 1]]
    return out


def _token_spans(llm: Any, text: str, tokens: list[int]) -> list[tuple[int, int]]:
    """Each token's character span, found by walking the text with each token's bytes."""
    data = text.encode()
    # byte offset → character offset, built once (decoding every prefix would be quadratic);
    # an offset inside a character counts as that character's start
    char_of = [0] * (len(data) + 1)
    byte = 0
    for i, ch in enumerate(text):
        width = len(ch.encode())
        char_of[byte : byte + width] = [i] * width
        byte += width
    char_of[len(data)] = len(text)
    spans: list[tuple[int, int]] = []
    at = 0
    for tok in tokens:
        piece = llm.detokenize([tok])
        found = data.find(piece, at, at + len(piece) + 8) if piece else -1
        start = found if found >= 0 else at
        end = start + len(piece) if found >= 0 else at
        spans.append((char_of[start], char_of[end]))
        at = max(at, end)
    return spans


def read_surprisal(reading: Reading, scorer: TokenScorer) -> TierReading:
    """Ambiguity from standout phrases; diluted attention from blended-in middle rules."""
    out = TierReading(tier="surprisal", model=f"{scorer.identity}#s{SURPRISAL_VERSION}")
    tokens = scorer.surprisals(reading.prompt.text)
    words = _word_surprisals(reading, tokens)
    out.add("ambiguity", *_standouts(words))
    out.add("diluted_attention", *_blended(reading, tokens))
    return out


def _word_surprisals(reading: Reading, tokens: list[TokenSurprisal]) -> list[tuple[Word, float]]:
    """Each plain word (no code, no number) with the summed surprisal of its tokens."""
    text = reading.prompt.text
    result: list[tuple[Word, float]] = []
    j = 0
    for word in reading.prompt.words:
        while j < len(tokens) and tokens[j].end <= word.start:
            j += 1
        total, k = 0.0, j
        while k < len(tokens) and tokens[k].start < word.end:
            total += tokens[k].surprisal
            k += 1
        if word.text.isdigit() or text.count("`", 0, word.start) % 2 == 1 or not word.text.isalpha():
            continue
        result.append((word, total))
    return result


def _standouts(words: list[tuple[Word, float]]) -> tuple[float, list[LintMark]]:
    if len(words) < 3 * PHRASE_WORDS:
        return 0.0, []
    phrases = [
        (
            words[i][0].start,
            words[i + PHRASE_WORDS - 1][0].end,
            sum(s for _, s in words[i : i + PHRASE_WORDS]) / PHRASE_WORDS,
        )
        for i in range(len(words) - PHRASE_WORDS + 1)
    ]
    values = [v for _, _, v in phrases]
    median = statistics.median(values)
    spread = statistics.median(abs(v - median) for v in values) * 1.4826 or 1.0
    marks: list[LintMark] = []
    for start, end, value in sorted(phrases, key=lambda p: -p[2]):
        z = (value - median) / spread
        if z < OUTLIER_Z or value < MIN_NATS:
            break
        if any(m.start < end and start < m.end for m in marks):
            continue
        strength = round(min(SUPPORT_ONLY, 0.3 + 0.05 * (z - OUTLIER_Z)), 3)
        marks.append(
            LintMark(
                axis="ambiguity",
                start=start,
                end=end,
                reason=f"unusual wording for the model ({value:.1f} nats per word, "
                f"{z:.1f} deviations above this prompt's median)",
                strength=strength,
            )
        )
    return max((m.strength for m in marks), default=0.0), marks


def _blended(reading: Reading, tokens: list[TokenSurprisal]) -> tuple[float, list[LintMark]]:
    """Hard rules in the middle third of a long prompt that read as predictably as filler."""
    if reading.word_count < LONG_PROMPT_WORDS or not tokens:
        return 0.0, []
    median = statistics.median(t.surprisal for t in tokens)
    marks: list[LintMark] = []
    for u in reading.units:
        if not u.hard or not 0.3 <= reading.prompt.position(u.unit) <= 0.75:
            continue
        inside = [t.surprisal for t in tokens if u.unit.start <= t.start < u.unit.end]
        if inside and statistics.mean(inside) <= median * 1.5:
            marks.append(
                LintMark(
                    axis="diluted_attention",
                    start=u.unit.start,
                    end=u.unit.end,
                    reason="a hard rule in the middle of a long prompt that the model reads as routine",
                    strength=0.4,
                )
            )
    return max((m.strength for m in marks), default=0.0), marks
