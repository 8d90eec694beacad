"""Fuzzing sweep files: whatever a sweep file holds, loading and planning its points give a
sweep or one Polygon error, never another exception, and every point a sweep would record
encodes in the log (issue 26: NaN, infinity, huge integers, uncapped oat and random sweeps).

``make test`` runs a bounded number of examples; ``make fuzz`` sets ``POLYGON_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any

import msgspec
import yaml
from hypothesis import event, given
from hypothesis import strategies as st

from polygon.errors import PolygonError
from polygon.events.families import SweepPoint
from polygon.suite.sweep import load_sweep
from polygon.sweep.points import make_points
from tests.support.faults import small_suite
from tests.support.fuzz import FUZZ

NUMBER = st.one_of(
    st.integers(min_value=-5, max_value=50),
    st.floats(min_value=-10, max_value=10, allow_nan=False),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, -1, 2**63 - 1, 2**63, -(2**63) - 1, 1e30, -1e30]),
)
VALUE = st.one_of(NUMBER, st.none(), st.booleans(), st.text(max_size=8), st.lists(NUMBER, max_size=3))
PARAM = st.sampled_from(["patience", "params.check_calendar", "temperature", "reassure", "params.x"])
LISTED = st.lists(VALUE, min_size=1, max_size=6)
RANGE = st.fixed_dictionaries({"min": NUMBER, "max": NUMBER})
SIZE = st.one_of(st.integers(min_value=1, max_value=30), st.integers(min_value=-3, max_value=30), NUMBER)

_FOLDER = Path(tempfile.mkdtemp(prefix="polygon-fuzz-sweeps-"))
small_suite(_FOLDER)  # one suite for every example: the sweep file is what varies


@FUZZ
@given(
    mode=st.sampled_from(["oat", "grid", "random", "other"]),
    parameters=st.dictionaries(PARAM, st.one_of(LISTED, RANGE), min_size=1, max_size=3),
    points=SIZE,
    max_points=st.one_of(st.integers(min_value=1, max_value=12), SIZE),
    token_limit=st.one_of(
        st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=2**90), NUMBER
    ),
)
def test_sweep_files_load_and_plan_or_fail_in_one_line(
    mode: str, parameters: dict[str, Any], points: Any, max_points: Any, token_limit: Any
) -> None:
    doc = {
        "name": "fuzz",
        "suite": "suite.yaml",
        "base": "v1",
        "mode": mode,
        "parameters": parameters,
        "points": points,
        "max_points": max_points,
        "token_limit": token_limit,
        "trials": 1,
    }
    path = _FOLDER / "sweep.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    try:
        loaded = load_sweep(path)
        planned = make_points(loaded)
    except PolygonError as exc:
        event(f"refused: {str(exc).split(': ', 2)[-1][:40]}")
        return
    event(f"planned {len(planned)} points")
    assert len(planned) <= loaded.spec.max_points
    assert loaded.spec.token_limit <= 2**63 - 1
    for point in planned:
        record = SweepPoint(
            index=point.index, values=point.values, profile=point.profile, run_id=point.run_id
        )
        msgspec.msgpack.encode(record)  # what SweepStarted records: no OverflowError
        for value in point.values.values():
            assert not (isinstance(value, float) and not math.isfinite(value)), point.values
