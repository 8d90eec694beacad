"""Markdown tables hold a call's own words (end reasons, tool errors): text, never markup."""

from __future__ import annotations

from polygon.render.report import markdown_table


def test_html_in_a_cell_is_shown_as_text_not_rendered() -> None:
    hostile = 'end="<img src=x onerror=alert(1)>" & | pipe'
    lines = markdown_table([("why", "left")], [[hostile]])
    assert lines[-1] == '| end="&lt;img src=x onerror=alert(1)&gt;" &amp; \\| pipe |'
    assert "<img" not in "\n".join(lines)
