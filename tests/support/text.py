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


def without_rubric_warning(output: str) -> str:
    """``output`` stripped, less the line that warns a suite's rubric gates no policy.

    A suite that chooses rubric v1–v3 (the clinic and pizza examples) is warned before every
    run that it does not gate on the built-in ``policy:agent_language``; a test of what else
    the run said reads past it.
    """
    lines = output.strip().splitlines()
    return "\n".join(line for line in lines if not (line.startswith("warning:") and "does not gate on" in line))
