"""Text tables whose columns are as wide as their widest cell.

Every text table Polygon prints goes through :func:`table`: a name of any length (a
40-character configuration, scenario or run id) widens its column instead of running
into the next one, and nothing is cut, so two different names never read alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

LEFT = "<"
RIGHT = ">"


def table(
    columns: Sequence[tuple[str, str]],
    rows: Iterable[Sequence[object]],
    *,
    indent: str = "",
    gap: int = 2,
) -> list[str]:
    """The header line and one line per row.

    ``columns`` are (header, alignment) pairs, alignment ``"<"`` or ``">"``; a cell is
    shown with ``str``. Columns are separated by ``gap`` spaces at least; the last column
    is not padded, so lines carry no trailing spaces.
    """
    body = [[str(cell) for cell in row] for row in rows]
    widths = [len(header) for header, _ in columns]
    for row in body:
        if len(row) != len(columns):
            raise ValueError(f"a row has {len(row)} cells for {len(columns)} columns")
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]
    lines = [_line([h for h, _ in columns], columns, widths, indent, gap)]
    lines += [_line(row, columns, widths, indent, gap) for row in body]
    return lines


def _line(
    cells: Sequence[str], columns: Sequence[tuple[str, str]], widths: Sequence[int], indent: str, gap: int
) -> str:
    parts = [f"{cell:{align}{width}}" for cell, (_, align), width in zip(cells, columns, widths, strict=True)]
    return (indent + (" " * gap).join(parts)).rstrip()
