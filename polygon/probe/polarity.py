"""Which answer to a probe is the compliant one.

Apart from the library (pydantic, YAML, the language models it reads with): the probe fold
needs only this, and every view of a run imports that fold.
"""

from __future__ import annotations


def right_answer(polarity: str) -> str:
    """The compliant answer for a polarity."""
    return "yes" if polarity == "desired" else "no"
