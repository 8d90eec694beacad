"""Language detection reads each language file's ``signature``, and tells every text as it did
when the signature words were constants in ``polygon/lint/reading.py``.

``_as_written_before`` is that code, kept as the reference: fed the same texts (every prompt
of the lint corpora and the examples, each line and sentence of them, every string of every
language file, and the edge cases below), both must answer the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
import regex
import yaml

from polygon.languages import LanguagePackError, parse_language
from polygon.lint.reading import detect_language

ROOT = Path(__file__).parents[2]
_CYRILLIC = regex.compile(r"\p{Cyrillic}")
_HR_LETTERS = regex.compile(r"[čćžšđ]", regex.IGNORECASE)
_HR_WORDS = frozenset(
    {"je", "i", "u", "se", "da", "na", "za", "ne", "što", "su", "uvijek", "nikada", "molim", "ako", "ili", "kada"}
)
_EN_WORDS = frozenset({"the", "and", "you", "to", "of", "a", "is", "if", "for", "with", "your", "are", "be", "not"})


def _as_written_before(text: str) -> str:
    letters = regex.findall(r"\p{L}", text)
    if letters and len(_CYRILLIC.findall(text)) > 0.3 * len(letters):
        return "ru"
    words = regex.findall(r"\p{L}+", text.lower())
    hr = sum(w in _HR_WORDS for w in words) + 3 * len(_HR_LETTERS.findall(text))
    en = sum(w in _EN_WORDS for w in words)
    return "hr" if hr > en else "en"


def _prompts() -> list[Path]:
    lint = sorted((ROOT / "tests" / "lint").glob("*/*.md"))
    return lint + sorted((ROOT / "examples").glob("*/*.md"))


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


EDGES = [
    "",
    "123 456",
    "Č",
    "ČĆŽ ŠĐ",  # upper-case Croatian letters count too
    "je the",  # a tie: English
    "i a",
    "da and and",
    "ŠKODA service",
    "ШШШaaaaaaa",  # 3 of 10 letters Cyrillic: not over 30%
    "ШШШaaaaaa",  # 3 of 9: over
    "Правила: always confirm the time",
    "Pravila: uvijek potvrdite vrijeme. The caller is always right, and you are not.",
]


def _texts() -> list[str]:
    texts = list(EDGES)
    for path in _prompts():
        text = path.read_text(encoding="utf-8")
        texts += [text, *text.splitlines(), *text.split(". ")]
    for code in _BEFORE:
        raw = resources.files("polygon.languages").joinpath(f"{code}.yaml").read_text("utf-8")
        texts += list(_strings(yaml.safe_load(raw)))
    return texts


_BEFORE = ("en", "hr", "ru")
"""The languages the reference knew; German and Spanish came later and are told below."""


def test_every_text_is_told_as_before_the_words_moved_to_the_language_files() -> None:
    texts = _texts()
    assert len(texts) > 4000 and len(_prompts()) >= 100
    told = [detect_language(t) for t in texts]
    assert told == [_as_written_before(t) for t in texts]
    assert set(told) == set(_BEFORE)  # every branch taken


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Fragen Sie immer nach der Versicherungsnummer, bevor Sie einen Schaden aufnehmen.", "de"),
        ("Nennen Sie niemals die Daten eines anderen Kunden.", "de"),
        ("Pregunte siempre el nombre del paciente antes de reservar una cita.", "es"),
        ("Nunca confirme una cita sin la fecha de nacimiento.", "es"),
        ("Always ask for the policy number before you file a claim.", "en"),
    ],
)
def test_german_and_spanish_prompts_are_told_by_their_signatures(text: str, code: str) -> None:
    assert detect_language(text) == code


def test_each_corpus_prompt_is_told_as_its_name_says() -> None:
    lint = [p for p in _prompts() if p.parent.parent.name == "lint"]
    assert {p.name: detect_language(p.read_text(encoding="utf-8")) for p in lint} == {
        p.name: p.name[:2] for p in lint
    }


@pytest.mark.parametrize(
    ("text", "language"),
    [("je the", "en"), ("Č", "hr"), ("ШШШaaaaaaa", "en"), ("ШШШaaaaaa", "ru"), ("", "en")],
)
def test_the_edges_of_the_rules(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_a_signature_that_tells_nothing_fails_to_load() -> None:
    raw = yaml.safe_load(resources.files("polygon.languages").joinpath("en.yaml").read_text("utf-8"))
    raw["signature"]["words"] = ""
    with pytest.raises(LanguagePackError, match="neither a script nor words"):
        parse_language("en", yaml.safe_dump(raw, allow_unicode=True))
