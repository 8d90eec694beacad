"""Random generators seeded from an integer, made the cheap way.

A run seeds a generator for every caller turn's noise and for the caller's draws: ~15 a call.
``random.Random(seed)`` runs ``Random.__init__`` and ``Random.seed`` in Python before the C
seeding (type checks for str, bytes and float seeds an int never needs); here the object is
made bare and seeded in C at once. The generator is the same: the same state, the same draws
(``tests/simulate/test_seeded.py`` holds it equal to ``random.Random(seed)``).
"""

from __future__ import annotations

import _random
import random

_NEW = random.Random.__new__
_SEED = _random.Random.seed


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` for an ``int`` seed, without its Python-level seeding."""
    rng = _NEW(random.Random)
    _SEED(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # what Random.__init__ and .seed leave (not in the stubs)
    return rng
