"""Control characters shown as escapes (polygon.visible): what an agent or a suite cannot do to a terminal."""

from __future__ import annotations

import json

import pytest

from polygon.visible import _CONTROLS, needs_escapes, visible, visible_bytes

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


CONTROLS = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and _CONTROLS.fullmatch(chr(c))]
"""Every character :func:`visible` escapes, read from its own pattern: the byte prefilter's
list of their UTF-8 sequences must hold each one added there."""
ALIKE = "·é—→\u061b\u200d\u2029\u202f\u2065\u206a\ufffd€🍕"
"""Characters that share a lead byte (or more) with a control and are not one."""


@pytest.mark.parametrize("control", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_each_control_is_found_wherever_the_chunks_cut_it(control: str) -> None:
    """The byte prefilter lets a chunk through only when it can hold no control, cut or whole."""
    data = f"{ALIKE}{control}{ALIKE}".encode()
    want = visible(data.decode()).encode()
    assert want != data
    for cut in range(1, len(data)):
        assert b"".join(visible_bytes([data[:cut], data[cut:]])) == want, cut
    for size in (1, 2, 3):
        assert b"".join(visible_bytes([data[i : i + size] for i in range(0, len(data), size)])) == want


def test_lookalikes_and_broken_utf8_pass_through_as_they_are() -> None:
    data = (ALIKE + "\n").encode() * 50 + b"\xc3 \xe2\x80 \xff"
    assert b"".join(visible_bytes([data[:100], data[100:]])) == data


def test_a_control_after_many_lookalikes_is_still_found() -> None:
    """Past the candidates checked one by one, the chunk is scanned whole: never let through."""
    from polygon.visible import LOOKS

    for text in ("·" * (LOOKS + 5) + "\u202e", "م" * (LOOKS + 5) + "\x1b[2J", "─" * LOOKS * 3):
        data = text.encode()
        assert b"".join(visible_bytes([data])) == visible(text).encode()
