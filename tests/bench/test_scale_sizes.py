"""The sizes of the bench's CLI table: the default stays 1k/5k/20k, the 100k run is asked for."""

from __future__ import annotations

import pytest

from tests.bench.scale import CALLS_ENV, big_calls, table_sizes


def test_default_table_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CALLS_ENV, raising=False)
    assert table_sizes(big_calls(1.0)) == [1000, 5000, 20000]
    assert table_sizes(big_calls(0.1)) == [1000, 2000]


def test_the_100k_run_is_asked_for_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CALLS_ENV, "100_000")
    assert big_calls(1.0) == 100_000
    # Its middle row stays at 5,000: a 25,000-call row would add a quarter to the hour.
    assert table_sizes(big_calls(0.1)) == [1000, 5000, 100_000]


def test_never_below_the_baseline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CALLS_ENV, "10")
    assert table_sizes(big_calls(1.0)) == [1000]
