"""The web UI's interval bar: a macro in templates/charts.html, the bytes the f-string SVG wrote."""

from __future__ import annotations

import pytest

from polygon.web.site import templates

# Written by polygon/web/svg.py's f-string interval_bar before the markup moved to the macro.
BAR_72 = (
    '<svg class="bar" width="220" height="14" viewBox="0 0 220 14" role="img" aria-label="72.5 [60.0, 81.2]">'
    '<rect x="0" y="6" width="220" height="2" fill="#ddd"/>'
    '<rect x="132.0" y="3" width="46.80000000000001" height="8" fill="#7aa6d8"/>'
    '<rect x="158.5" y="0" width="2" height="14" fill="#1d3f6e"/></svg>'
)
BAR_40 = (
    '<svg class="bar" width="220" height="14" viewBox="0 0 220 14" role="img" aria-label="40.0 [40.0, 40.0]">'
    '<rect x="0" y="6" width="220" height="2" fill="#ddd"/>'
    '<rect x="88.0" y="3" width="1.0" height="8" fill="#7aa6d8"/>'
    '<rect x="87.0" y="0" width="2" height="14" fill="#1d3f6e"/></svg>'
)


@pytest.mark.parametrize(
    ("mean", "lo", "hi", "svg"),
    [
        (72.5, 60.0, 81.25, BAR_72),
        (40.0, None, None, BAR_40),  # no interval: a one-pixel bar at the mean
        (None, 10.0, 20.0, "—"),  # no mean: no chart
    ],
)
def test_interval_bar_keeps_its_bytes(
    mean: float | None, lo: float | None, hi: float | None, svg: str
) -> None:
    page = templates().from_string('{% import "charts.html" as charts %}{{ charts.interval_bar(m, l, h) }}')
    assert page.render(m=mean, l=lo, h=hi) == svg
