"""Every lint test gets its own tier cache: no test reads what another (or the user) stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from polygon.lint.cache import CACHE_ENV


@pytest.fixture(autouse=True)
def _own_tier_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path_factory.mktemp("tier-cache")
    monkeypatch.setenv(CACHE_ENV, str(root))
    return root
