"""A shipped language file is read from its JSON form while that form is current.

YAML is the source (``make docs`` writes ``<code>.json`` beside it, with the SHA-256 of the
text it came from; ``tests/test_reference_docs.py`` fails on a stale one). A form made from
another text is never used: the YAML is read, so an edited file means what it says.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
import yaml

from polygon.languages import LANGUAGES, load_language, parse_language, parsed_text
from polygon.languages.model import parsed_form


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_current_form_holds_the_yaml_files_data(code: str) -> None:
    folder = resources.files("polygon.languages")
    text = folder.joinpath(f"{code}.yaml").read_text("utf-8")
    assert parsed_form(text, folder.joinpath(f"{code}.json")) == yaml.safe_load(text)
    assert load_language(code) == parse_language(code, text, shipped=True)


def test_a_form_of_another_text_is_not_used(tmp_path: Path) -> None:
    form = tmp_path / "en.json"
    form.write_text(parsed_text("code: en\nnote: before\n"), encoding="utf-8")
    assert parsed_form("code: en\nnote: before\n", form) == {"code": "en", "note": "before"}
    assert parsed_form("code: en\nnote: after\n", form) is None  # the YAML was edited since


def test_a_missing_or_broken_form_is_not_used(tmp_path: Path) -> None:
    assert parsed_form("code: en\n", tmp_path / "missing.json") is None
    broken = tmp_path / "broken.json"
    broken.write_text('{"yaml_sha256": ', encoding="utf-8")
    assert parsed_form("code: en\n", broken) is None
    (tmp_path / "list.json").write_text("[]", encoding="utf-8")
    assert parsed_form("code: en\n", tmp_path / "list.json") is None
