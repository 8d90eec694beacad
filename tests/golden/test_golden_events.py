"""Every (tag, version) ever written keeps decoding; every registered tag has a sample."""

from __future__ import annotations

import pytest

from polygon.events.registry import REGISTRY

from .event_samples import GOLDEN_DIR, SAMPLES, golden_path, sample_for


def test_every_registered_tag_has_a_sample_and_a_golden_file() -> None:
    sampled = {REGISTRY.spec_for(s).tag for s in SAMPLES}
    assert sampled == set(REGISTRY.tags()) - {t for t in REGISTRY.tags() if t.startswith("test.")}
    for tag in sampled:
        path = golden_path(tag, REGISTRY.spec_for_tag(tag).version)
        assert path.exists(), f"run `python -m tests.golden.event_samples` to write {path.name}"


@pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.msgpack")), ids=lambda p: p.name)
def test_golden_file_decodes(path) -> None:
    tag, version = path.name.removesuffix(".msgpack").rsplit(".v", 1)
    event = REGISTRY.decode(tag, int(version), path.read_bytes())
    if int(version) == REGISTRY.spec_for_tag(tag).version:
        assert event == sample_for(tag)
