"""The numbers 0–999 as num2words spells them, in each shipped language file's num2words language.

The noise reads numbers as words (0–100) and the detectors hear spoken numbers (0–999) in
these spellings. They are read from ``numbers.json`` beside the language files, which
``make docs`` writes from num2words (``tests/test_reference_docs.py`` fails on a stale one),
for two reasons:

* importing num2words loads all 62 of its language modules: ~3.8 MB of memory in every
  process that hears noise or reads a number, twice in a run that scores beside its
  simulation (the forked process spells them too);
* a table fixed in the package spells the same whatever num2words release is installed,
  so the same suite and seed make the same noise and the same verdicts.

A language the table does not hold (a language file edited to name another num2words
language) is spelled by num2words itself.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

HIGHEST = 999
"""The table spells 0 up to this."""


@cache
def spelled(language: str) -> tuple[str, ...]:
    """0–:data:`HIGHEST` in num2words language ``language``, exactly as num2words writes them."""
    held = _table().get(language)
    if held is not None:
        return tuple(held)
    return spelled_by_num2words(language)


def spelled_by_num2words(language: str) -> tuple[str, ...]:
    """The same, asked of num2words (what ``make docs`` writes into the table)."""
    from num2words import num2words  # its 62 language modules load here

    return tuple(num2words(n, lang=language) for n in range(HIGHEST + 1))


@cache
def _table() -> dict[str, list[str]]:
    try:
        text = resources.files("polygon.languages").joinpath("numbers.json").read_text(encoding="utf-8")
        table = json.loads(text)
    except (OSError, ValueError):  # missing or damaged: num2words spells every language
        return {}
    spelled = table.get("spelled") if isinstance(table, dict) else None
    if not isinstance(spelled, dict):
        return {}
    return {k: v for k, v in spelled.items() if isinstance(v, list) and len(v) == HIGHEST + 1}


def numbers_table_text(languages: list[str]) -> str:
    """The table's text for ``languages`` (num2words codes), as ``make docs`` writes it."""
    spelled = {code: list(spelled_by_num2words(code)) for code in sorted(set(languages))}
    return json.dumps({"spelled": spelled}, ensure_ascii=False, indent=0) + "\n"
