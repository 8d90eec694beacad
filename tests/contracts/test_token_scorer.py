"""The TokenScorer contract (the lint surprisal tier's port): gemma-3-270m through llama.cpp.

Every scorer names what scores (part of the cache key); gives each token of the text its
character span, in order, without gaps or overlaps, with a finite surprisal of at least
zero nats; scores the same text the same way every time; and finds an expected word less
surprising than an odd one in the same place. Needs the ``lint`` extra.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod

import pytest

from polygon.lint import TokenScorer, TokenSurprisal

TEXT = "Please book the appointment for Tuesday morning."


class TokenScorerContract(ABC):
    @classmethod
    @abstractmethod
    def make(cls) -> TokenScorer:
        """The scorer (built once per class: loading a model takes seconds)."""

    @pytest.fixture(scope="class")
    @classmethod
    def scorer(cls) -> TokenScorer:
        return cls.make()

    def test_names_what_scores(self, scorer: TokenScorer) -> None:
        assert isinstance(scorer.identity, str) and "/" in scorer.identity

    def test_spans_cover_the_text_in_order(self, scorer: TokenScorer) -> None:
        tokens = scorer.surprisals(TEXT)
        assert tokens and all(isinstance(t, TokenSurprisal) for t in tokens)
        assert all(0 <= t.start < t.end <= len(TEXT) for t in tokens)
        assert all(a.end == b.start for a, b in zip(tokens, tokens[1:], strict=False)), "no gaps, no overlaps"
        assert tokens[-1].end == len(TEXT)
        assert "".join(TEXT[t.start : t.end] for t in tokens) == TEXT[tokens[0].start :]

    def test_surprisals_are_finite_nats(self, scorer: TokenScorer) -> None:
        assert all(math.isfinite(t.surprisal) and t.surprisal >= 0 for t in scorer.surprisals(TEXT))

    def test_the_same_text_scores_the_same(self, scorer: TokenScorer) -> None:
        assert scorer.surprisals(TEXT) == scorer.surprisals(TEXT)

    def test_an_expected_word_is_less_surprising_than_an_odd_one(self, scorer: TokenScorer) -> None:
        expected = scorer.surprisals("one two three four five six")[-1]
        odd = scorer.surprisals("one two three four five banana")[-1]
        assert expected.surprisal + 3 < odd.surprisal


class TestLlamaScorer(TokenScorerContract):
    @classmethod
    def make(cls) -> TokenScorer:
        pytest.importorskip("llama_cpp")
        from polygon.lint.surprisal import LlamaScorer

        return LlamaScorer()
