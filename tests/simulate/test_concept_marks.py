"""The caller's concept look-up tables read a token exactly as the marks say (equal, or a prefix)."""

from __future__ import annotations

from polygon.languages import LANGUAGES, caller_language
from polygon.simulate.callers.understanding import _concepts_of, key_concepts


def _by_marks(token: str, concepts: dict[str, tuple[str, ...]]) -> set[str]:
    return {c for c, marks in concepts.items() if any(token == m or (len(m) >= 3 and token.startswith(m)) for m in marks)}


def test_every_mark_and_its_longer_and_shorter_forms_find_the_concepts_the_marks_name() -> None:
    for code in LANGUAGES:
        pack = caller_language(code)
        concepts = pack.understand.concepts
        marks = {m for ms in concepts.values() for m in ms}
        tokens = {t for m in marks for t in (m, m + "s", m + "ing", m[:-1], m[:2], "x" + m)} | {"", "a"}
        for token in sorted(tokens):
            assert _concepts_of((token,), pack) == _by_marks(token, concepts), (code, token)


def test_a_fact_keys_concepts_are_the_same_when_asked_again() -> None:
    pack = caller_language("en")
    first = [key_concepts(k, pack) for k in ("card_last4", "dob", "guest", "phone", "preferred_day")]
    assert [key_concepts(k, pack) for k in ("card_last4", "dob", "guest", "phone", "preferred_day")] == first
    assert "last4" in first[0] and "name" in first[2]
