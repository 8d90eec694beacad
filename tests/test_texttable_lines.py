"""Text tables are formatted with one format per table: the same lines as cell by cell."""

from __future__ import annotations

import random
import string
from collections.abc import Sequence

import pytest

from polygon.texttable import table


def _cell_by_cell(
    columns: Sequence[tuple[str, str]], rows: list[list[object]], indent: str, gap: int
) -> list[str]:
    """How each line was formatted before (every cell on its own)."""
    body = [[str(c) for c in r] for r in rows]
    widths = [len(h) for h, _ in columns]
    for r in body:
        widths = [max(w, len(c)) for w, c in zip(widths, r, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [f"{c:{a}{w}}" for c, (_, a), w in zip(cells, columns, widths, strict=True)]
        return (indent + (" " * gap).join(parts)).rstrip()

    return [line([h for h, _ in columns]), *(line(r) for r in body)]


ALPHABET = string.ascii_letters + "{}:<>%é—✓ \t"


def _text(rng: random.Random, most: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, most)))


@pytest.mark.parametrize("seed", range(4))
def test_random_tables_are_the_lines_they_were(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(500):
        k = rng.randint(1, 6)
        columns = [(_text(rng, 8), rng.choice("<>")) for _ in range(k)]
        pick = [lambda: _text(rng, 12), lambda: rng.randint(-99, 9999), rng.random, lambda: None]
        rows: list[list[object]] = [[rng.choice(pick)() for _ in range(k)] for _ in range(rng.randint(0, 6))]
        indent, gap = rng.choice(["", "  ", "{0}", "}"]), rng.randint(1, 3)
        assert table(columns, rows, indent=indent, gap=gap) == _cell_by_cell(columns, rows, indent, gap)


def test_a_short_row_is_refused() -> None:
    with pytest.raises(ValueError, match="a row has 1 cells for 2 columns"):
        table([("a", "<"), ("b", ">")], [["x"]])
