"""Probe statistics: compliance with a Wilson 95% interval, and trends across runs.

Compliance is right answers over applicable answers; n/a leaves the denominator, it is
never counted as 0. A trend joins runs (in log order) only while a probe's wording hash is
unchanged; a reworded probe starts a new series and says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import msgspec

from polygon.events import ConversationStarted, Envelope, ProbeAnswered
from polygon.probe import right_answer

VERSION = 1


class Rate(msgspec.Struct, frozen=True, kw_only=True):
    """k of n with a Wilson interval (None when n is 0)."""

    right: int
    applicable: int
    not_applicable: int
    rate: float | None
    low: float | None
    high: float | None


Z_95 = 1.959963984540054
"""The two-sided 95% normal quantile exactly as scipy computes it (``ndtri(0.975)``).

Python's ``NormalDist().inv_cdf(0.975)`` is one unit in the last place away, which could
move a rounded bound: the interval must stay the one scipy's ``binomtest`` gave.
"""


def wilson(right: int, applicable: int, not_applicable: int = 0) -> Rate:
    """Compliance and its Wilson 95% interval (as scipy's binomtest gives it)."""
    if applicable == 0:
        return Rate(right=0, applicable=0, not_applicable=not_applicable, rate=None, low=None, high=None)
    low, high = wilson_interval(right, applicable, Z_95)
    return Rate(
        right=right,
        applicable=applicable,
        not_applicable=not_applicable,
        rate=round(right / applicable, 6),
        low=round(low, 6),
        high=round(high, 6),
    )


def wilson_interval(k: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of ``k`` in ``n`` for the normal quantile ``z``.

    The same operations, in the same order, as scipy's ``binomtest(k, n).proportion_ci(
    method="wilson")`` (Newcombe 1998), so the same floats to the last bit (a test checks
    this against scipy); importing scipy.stats for it cost compare ~2.5 CPU s.
    """
    p = k / n
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    q = 1 - p
    delta = z / denom * math.sqrt(4 * n * p * q + z**2)
    low = 0.0 if k == 0 else center - delta
    high = 1.0 if k == n else center + delta
    return low, high


class ProbeCount(msgspec.Struct, kw_only=True):
    """Answers of one probe wording in one configuration."""

    probe_id: str
    probe_hash: str
    question: str
    polarity: str
    answered_by: str
    yes: int = 0
    no: int = 0
    na: int = 0

    def rate(self) -> Rate:
        """Compliance of these answers."""
        right = self.yes if right_answer(self.polarity) == "yes" else self.no
        return wilson(right, self.yes + self.no, self.na)


class ProbeTable(msgspec.Struct, kw_only=True):
    """Probe answers of some conversations, by configuration label."""

    counts: dict[str, dict[str, ProbeCount]] = msgspec.field(default_factory=dict)
    """label → (probe id + hash + answerer) → counts."""
    first_seq: int = 0
    _label_of: dict[str, str] = msgspec.field(default_factory=dict)


def apply(table: ProbeTable, env: Envelope, label_prefix: str = "") -> ProbeTable:
    """Fold one event."""
    p = env.payload
    if isinstance(p, ConversationStarted):
        table._label_of[p.conversation_id] = f"{label_prefix}{p.config}"
    elif isinstance(p, ProbeAnswered):
        table.first_seq = table.first_seq or env.seq
        label = table._label_of.get(p.conversation_id, "?")
        key = f"{p.probe_id}:{p.probe_hash}:{p.answered_by}"
        count = table.counts.setdefault(label, {}).setdefault(
            key,
            ProbeCount(
                probe_id=p.probe_id,
                probe_hash=p.probe_hash,
                question=p.question,
                polarity=p.polarity,
                answered_by=p.answered_by,
            ),
        )
        if p.answer == "yes":
            count.yes += 1
        elif p.answer == "no":
            count.no += 1
        else:
            count.na += 1
    return table


def build(events: Iterable[Envelope], label_prefix: str = "") -> ProbeTable:
    """Fold a run's events."""
    table = ProbeTable()
    for env in events:
        table = apply(table, env, label_prefix)
    return table


def latest_answers(events: Iterable[Envelope], probe_id: str) -> dict[str, str]:
    """Each conversation's latest answer to ``probe_id`` (in log order: a later answer wins)."""
    out: dict[str, str] = {}
    for env in events:
        p = env.payload
        if isinstance(p, ProbeAnswered) and p.probe_id == probe_id:
            out[p.conversation_id] = p.answer
    return out


class TrendPoint(msgspec.Struct, frozen=True, kw_only=True):
    """One run in a probe's trend."""

    run_id: str
    config: str
    probe_hash: str
    rate: Rate
    new_series: bool
    note: str = ""


def trend(runs: list[tuple[str, ProbeTable]], probe_id: str, config: str | None) -> list[TrendPoint]:
    """Points in log order; a changed wording hash starts a new series (and says so)."""
    points: list[TrendPoint] = []
    last_hash: dict[str, str] = {}
    for run_id, table in sorted(runs, key=lambda r: r[1].first_seq):
        for label in sorted(table.counts):
            if config is not None and label != config:
                continue
            for count in sorted(table.counts[label].values(), key=lambda c: c.probe_hash):
                if count.probe_id != probe_id:
                    continue
                before = last_hash.get(label)
                new = before is not None and before != count.probe_hash
                last_hash[label] = count.probe_hash
                note = "wording changed: a new series starts here" if new else ""
                points.append(
                    TrendPoint(
                        run_id=run_id,
                        config=label,
                        probe_hash=count.probe_hash,
                        rate=count.rate(),
                        new_series=new or before is None,
                        note=note,
                    )
                )
    return points
