"""Control characters shown as escapes (polygon.visible): what an agent or a suite cannot do to a terminal."""

from __future__ import annotations

import json

import pytest

from polygon.visible import needs_escapes, visible, visible_bytes

HOSTILE = "ok\x1b]0;pwned\x07\rPASS 100.00 \u202eevil\u2066 \x85 \x00\x7f\ufffe"


def test_every_control_but_newline_and_tab_is_an_escape() -> None:
    shown = visible(HOSTILE + "\n\tnext")
    assert shown == r"ok\x1b]0;pwned\x07\rPASS 100.00 \u202eevil\u2066 \u0085 \0\u007f\ufffe" + "\n\tnext"
    assert not needs_escapes([shown]) and needs_escapes(["plain", HOSTILE])


def test_plain_text_is_the_same_object() -> None:
    text = "Wednesday 09:00, Ana Horvat — naručiti 🍕"
    assert visible(text) is text


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_chunks_split_anywhere_give_the_same_bytes(size: int) -> None:
    data = ("é🍕 " + HOSTILE + " fine\n").encode() * 3
    chunks = [data[i : i + size] for i in range(0, len(data), size)]
    assert b"".join(visible_bytes(chunks)) == visible(data.decode()).encode()


def test_json_reads_back_the_same_values() -> None:
    """Where JSON is shown, the escapes written for C1 and bidi characters are JSON's own."""
    encoded = json.dumps({"reply": HOSTILE}, ensure_ascii=False)
    assert json.loads(visible(encoded)) == {"reply": HOSTILE}
