"""The prompt editor's use cases: a draft is read without a log; a save never overwrites."""

from __future__ import annotations

from pathlib import Path

import pytest

from polygon.app.prompt import NAME_MAX, lint_draft, save_prompt
from polygon.errors import UserInputError


def test_a_prompt_is_saved_as_a_new_file_beside_its_suite(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text("name: x\n")
    target = save_prompt(suite, "draft.md", "Always be kind.\n")
    assert target == tmp_path / "draft.md"
    assert target.read_text(encoding="utf-8") == "Always be kind.\n"
    assert save_prompt(suite, "notes.txt", "é").read_text(encoding="utf-8") == "é"
    assert save_prompt(suite, "Prompt v2 (draft)-é.md".replace("(", "").replace(")", ""), "x").name == "Prompt v2 draft-é.md"


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    (tmp_path / "prompt_v1.md").write_text("the original")
    with pytest.raises(UserInputError, match="that file exists"):
        save_prompt(suite, "prompt_v1.md", "replaced")
    assert (tmp_path / "prompt_v1.md").read_text() == "the original"


@pytest.mark.parametrize(
    "name",
    [
        *("", ".", "..", "../up.md", "sub/x.md", "a\\b.md", "nul\x00.md", "x.py", "suite.yaml"),
        *("x" * NAME_MAX + ".md", "..\u2215..\u2215x.md", ".hidden.md", "a\u2044b.md", "tab\tx.md"),
    ],
)
def test_only_a_plain_md_or_txt_name_is_taken(tmp_path: Path, name: str) -> None:
    with pytest.raises(UserInputError, match=r"give a new \.md or \.txt file name"):
        save_prompt(tmp_path / "suite.yaml", name, "text")
    assert list(tmp_path.iterdir()) == []


def test_a_draft_is_read_as_plain_data_and_the_same_twice() -> None:
    text = "You are the clinic's receptionist. Always confirm the date. Never quote prices."
    first = lint_draft(text, ("rules",))
    assert isinstance(first, dict) and first["scores"]  # plain data: the JSON the editor shows
    assert lint_draft(text, ("rules",)) == first  # a reading is a function of the text
