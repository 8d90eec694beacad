"""The bounded worker loop every pass and the run share."""

from __future__ import annotations

import asyncio

import pytest

from polygon.app.passes import for_each


def test_at_most_concurrency_items_are_in_flight_and_all_are_done() -> None:
    in_flight, peak, done = 0, 0, []

    async def work(i: int) -> None:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.001)
        in_flight -= 1
        done.append(i)

    asyncio.run(for_each(range(50), 4, work))
    assert peak == 4 and sorted(done) == list(range(50))


def test_a_failure_stops_the_other_workers_before_it_goes_up() -> None:
    """Nothing may still be writing once the pass's final commit runs."""
    seen: list[int] = []

    async def work(i: int) -> None:
        await asyncio.sleep(0.01 * i)
        if i == 2:
            raise ValueError("boom")
        seen.append(i)

    async def go() -> None:
        with pytest.raises(ValueError, match="boom"):
            await for_each(range(10), 3, work)
        after = list(seen)
        await asyncio.sleep(0.2)
        assert seen == after == [0, 1]

    asyncio.run(go())
