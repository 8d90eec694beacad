"""The labelled lint corpus: 48 prompts (en, ru, hr), clean ones and ones with one planted
defect each, the planted span written inline as ``⟦axis|text⟧`` (hand-marked)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
HELDOUT = Path(__file__).parent / "heldout"
"""12 prompts in other domains, written after the thresholds were tuned on ``corpus`` and never
tuned on: what the figures are worth on prompts the rules were not fitted to."""
HELDOUT2 = Path(__file__).parent / "heldout2"
"""42 prompts in seven other domains (insurance, pharmacy, courier, electricity, fitness, ferry,
hair salon), written for issue 30 before the rules were changed and read once untuned: bare
imperatives, order and permission contradictions, paraphrased redundancy, long prompts."""
HELDOUT3 = Path(__file__).parent / "heldout3"
"""12 short prompts in three more domains (removals, car parks, library, cinema), written after
the issue-30 rules were final and read once: what the final rules are worth untuned."""
_MARK = re.compile(r"⟦([a-z_]+)\|(.*?)⟧", re.DOTALL)


@dataclass(frozen=True)
class Labelled:
    """A corpus prompt: its text without markup, its language, the planted axis and span."""

    name: str
    language: str
    text: str
    axis: str
    """The planted defect's axis; empty for a clean prompt."""
    spans: tuple[tuple[int, int], ...]


def parse(name: str, raw: str) -> Labelled:
    """Strip the markup, keeping where each planted span lands in the clean text."""
    out, spans, axes, at = [], [], set(), 0
    for m in _MARK.finditer(raw):
        out.append(raw[at : m.start()])
        start = sum(len(p) for p in out)
        out.append(m.group(2))
        spans.append((start, start + len(m.group(2))))
        axes.add(m.group(1))
        at = m.end()
    out.append(raw[at:])
    assert len(axes) <= 1, f"{name}: one planted axis per prompt"
    return Labelled(
        name=name, language=name[:2], text="".join(out), axis=next(iter(axes), ""), spans=tuple(spans)
    )


def load_corpus(folder: Path = CORPUS) -> list[Labelled]:
    """Every prompt of ``folder`` (the tuning corpus by default), sorted by name."""
    return [parse(p.stem, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.md"))]
