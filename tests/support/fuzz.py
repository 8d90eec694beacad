"""Hypothesis settings and value strategies shared by the fuzz suites (tests/fuzz).

``make test`` runs a bounded number of examples; ``make fuzz`` sets ``POLYGON_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("POLYGON_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    derandomize=EXAMPLES <= 100,  # make test: the same examples every time; make fuzz: new ones
)

TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=40)
SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
)
JSONISH = st.recursive(
    SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)), max_leaves=20
)
