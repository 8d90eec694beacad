"""Editing fixture text so that a drifted fixture fails loudly instead of testing nothing."""

from __future__ import annotations


def replaced(text: str, old: str, new: str, count: int = 1) -> str:
    """``text`` with the first ``count`` occurrences of ``old`` replaced by ``new``.

    Fails when ``old`` occurs fewer than ``count`` times: a plain ``str.replace`` would return
    the text unchanged and the test would silently run on the unedited fixture. ``count=-1``
    replaces every occurrence, of which there must be at least one.
    """
    found = text.count(old)
    needed = max(count, 1)
    assert found >= needed, f"expected {needed} occurrence(s) of {old!r} in the fixture text, found {found}"
    return text.replace(old, new, count)
