"""Lint quality on the labelled corpus: precision, recall and F1 per axis and tier set, the
share of planted spans found, and the time per prompt of each tier.

``python -m tests.bench.lint_corpus`` (also part of ``make bench``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING

from polygon.events.families import PromptLinted
from polygon.lint import AXES, OFFLINE_TIERS, TierReading
from polygon.lint.reading import Reading, read_prompt
from polygon.lint.rules import read_rules
from polygon.lint.text import Prompt
from polygon.projections.lint import PromptLint, fold_lint
from tests.lint.corpus import HELDOUT, HELDOUT2, HELDOUT3, Labelled, load_corpus

if TYPE_CHECKING:
    from polygon.lint.cache import ResultCache
    from polygon.lint.embeddings import E5Embedder
    from polygon.lint.surprisal import LlamaScorer

THRESHOLD = 0.5
GOAL_F1 = 0.8
GOAL_SPANS = 0.8


def read_all(
    items: Sequence[Labelled], tiers: Sequence[str]
) -> tuple[dict[str, dict[str, PromptLinted]], dict[str, list[float]]]:
    """Each prompt read by each tier once (as events), and each tier's times in ms."""
    from polygon.lint.embeddings import E5Embedder, read_embeddings
    from polygon.lint.surprisal import LlamaScorer, read_surprisal

    embedder, scorer = E5Embedder(), LlamaScorer()
    readings: dict[str, dict[str, PromptLinted]] = {}
    times: dict[str, list[float]] = {t: [] for t in tiers}
    for item in items:
        readings[item.name] = {}
        for tier in tiers:
            began = time.perf_counter()
            reading = read_prompt(Prompt(item.text), item.language)
            if tier == "rules":
                out: TierReading = read_rules(reading)
            elif tier == "embeddings":
                out = read_embeddings(reading, embedder)
            else:
                out = read_surprisal(reading, scorer)
            times[tier].append((time.perf_counter() - began) * 1000)
            readings[item.name][tier] = PromptLinted(
                prompt_hash="",
                tier=tier,
                model=out.model,
                language=item.language,
                scores=out.scores,
                marks=out.marks,
            )
    return readings, times


def evaluate(
    items: Sequence[Labelled], readings: dict[str, dict[str, PromptLinted]], tiers: Sequence[str]
) -> dict[str, object]:
    """Per-axis precision/recall/F1 and planted spans found, for one set of tiers."""
    lints = {i.name: fold_lint(i.name, i.name, i.text, [readings[i.name][t] for t in tiers]) for i in items}
    per_axis: dict[str, dict[str, float]] = {}
    for axis in AXES:
        tp = sum(1 for i in items if i.axis == axis and lints[i.name].scores.get(axis, 0) >= THRESHOLD)
        fp = sum(1 for i in items if i.axis != axis and lints[i.name].scores.get(axis, 0) >= THRESHOLD)
        fn = sum(1 for i in items if i.axis == axis and lints[i.name].scores.get(axis, 0) < THRESHOLD)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        per_axis[axis] = {
            "precision": p,
            "recall": r,
            "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "tp": tp,
            "fp": fp,
            "fn": fn,
        }
    planted = [i for i in items if i.axis]
    found = sum(1 for i in planted if _span_found(lints[i.name], i))
    return {"axes": per_axis, "spans_found": found / len(planted), "planted": len(planted)}


def _span_found(lint: PromptLint, item: Labelled) -> bool:
    return any(
        m.axis == item.axis and m.strength >= THRESHOLD and m.start < e and s < m.end
        for m in lint.marks
        for s, e in item.spans
    )


def misses(
    items: Sequence[Labelled], readings: dict[str, dict[str, PromptLinted]], tiers: Sequence[str]
) -> list[str]:
    """Which prompts were wrong on which axis (for tuning and the closing note)."""
    out = []
    for i in items:
        lint = fold_lint(i.name, i.name, i.text, [readings[i.name][t] for t in tiers])
        for axis in AXES:
            said = lint.scores.get(axis, 0) >= THRESHOLD
            if said != (i.axis == axis):
                out.append(
                    f"{i.name}: {axis} {'false positive' if said else 'missed'} ({lint.scores.get(axis, 0):.2f})"
                )
    return out


def main(tiers: Sequence[str] = OFFLINE_TIERS, only: str = "") -> None:
    """The tuning corpus, then the held-out prompts, for every combination of tiers."""
    if only == "heldout2":
        report(load_corpus(HELDOUT2), tiers, "Held-out set 2 (issue 30)")
        return
    report(load_corpus(), tiers, "Lint corpus (the thresholds were tuned on it)")
    report(load_corpus(HELDOUT), tiers, "Held-out prompts (written after tuning, never tuned on)")
    report(
        load_corpus(HELDOUT2),
        tiers,
        "Held-out set 2 (issue 30: seven new domains, kept apart from the corpus)",
    )
    report(load_corpus(HELDOUT3), tiers, "Held-out set 3 (written after the issue-30 rules, read once)")


def report(items: Sequence[Labelled], tiers: Sequence[str], title: str) -> None:
    """Precision, recall, F1 and spans found per tier set; times; what was wrong."""
    readings, times = read_all(items, tiers)
    langs = {lang: sum(1 for i in items if i.language == lang) for lang in ("en", "ru", "hr")}
    print(
        f"\n{title}: {len(items)} prompts ({', '.join(f'{k} {v}' for k, v in langs.items())}); "
        f"{sum(1 for i in items if not i.axis)} clean, one planted defect in each other; threshold {THRESHOLD}"
    )
    sets = [("rules",), *[("rules", *c) for n in (1, 2) for c in combinations(tiers[1:], n)]]
    for chosen in sets:
        result = evaluate(items, readings, chosen)
        axes = result["axes"]
        assert isinstance(axes, dict)
        print(
            f"\n  tiers {'+'.join(chosen)}: planted spans found {result['spans_found']:.0%} (goal ≥ {GOAL_SPANS:.0%})"
        )
        print(f"    {'axis':<18}{'P':>6}{'R':>6}{'F1':>6}   tp fp fn  goal F1 ≥ {GOAL_F1}")
        for axis, v in axes.items():
            ok = "ok" if v["f1"] >= GOAL_F1 else "MISS"
            print(
                f"    {axis:<18}{v['precision']:>6.2f}{v['recall']:>6.2f}{v['f1']:>6.2f}   {v['tp']:>2} {v['fp']:>2} {v['fn']:>2}  {ok}"
            )
    print("\n  time per prompt (ms): min / median / max")
    for tier, ms in times.items():
        print(f"    {tier:<11} {min(ms):8.1f} {statistics.median(ms):8.1f} {max(ms):8.1f}")
    print("\n  wrong with all offline tiers:")
    for line in misses(items, readings, tiers):
        print(f"    {line}")


def long_prompt(words: int = 1500) -> str:
    """A realistic long prompt: the corpus's English prompts one after another, cut at ``words``."""
    parts, count = [], 0
    for item in load_corpus():
        if item.language == "en" and count < words:
            parts.append(item.text)
            count += len(item.text.split())
    return " ".join(" ".join(parts).split(" ")[:words])


def tier_time_cases() -> dict[str, Callable[[], float]]:
    """Seconds each offline tier takes on a 1,500-word prompt (models loaded once, beforehand)."""
    from polygon.lint.embeddings import E5Embedder, read_embeddings
    from polygon.lint.surprisal import LlamaScorer, read_surprisal

    text = long_prompt()
    embedder, scorer = E5Embedder(), LlamaScorer()
    embedder.embed(["warm up"])
    scorer.surprisals("warm up")

    def timed(read: Callable[[], object]) -> float:
        began = time.perf_counter()
        read()
        return time.perf_counter() - began

    def reading() -> Reading:
        return read_prompt(Prompt(text), "en")

    return {
        "rules": lambda: timed(lambda: read_rules(reading())),
        "embeddings": lambda: timed(lambda: read_embeddings(reading(), embedder)),
        "surprisal": lambda: timed(lambda: read_surprisal(reading(), scorer)),
    }


def rules_time_per_prompt() -> float:
    """The median milliseconds the rules tier takes on a corpus prompt."""
    times = []
    for item in load_corpus():
        began = time.perf_counter()
        read_rules(read_prompt(Prompt(item.text), item.language))
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def rules_ms_per_thousand_words() -> float:
    """The rules tier's milliseconds per 1,000 words: a 1,500-word prompt and a 200,000-character
    one (the longest lint reads), the slower of the two (issue 30's goal: at most 10 ms)."""
    from polygon.lint import MAX_PROMPT_CHARS

    worst = 0.0
    for text in (long_prompt(), long_prompt(10**6)[:MAX_PROMPT_CHARS]):
        read_rules(read_prompt(Prompt(text), "en"))  # warm: regular expressions compiled once
        began = time.perf_counter()
        read_rules(read_prompt(Prompt(text), "en"))
        worst = max(worst, (time.perf_counter() - began) * 1000 / (len(text.split()) / 1000))
    return worst


def edited_prompt(text: str) -> str:
    """``text`` with one sentence changed: the first sentence past the middle gets a new word."""
    found = text.find(". ", len(text) // 2)
    at = found + 2 if found >= 0 else len(text) // 2
    return text[:at] + "Please " + text[at].lower() + text[at + 1 :]


SPEED_CASES = ("cold", "warm", "one edit")
TIER_SETS = (("rules",), ("rules", "embeddings"), ("rules", "embeddings", "surprisal"))
"""The rules alone, lint's default tiers, and all offline tiers."""
Sample = tuple[float, float]
"""(CPU s of the process, its threads included; wall s)."""


def loaded_models() -> tuple[E5Embedder, LlamaScorer, dict[str, Sample]]:
    """Both models loaded (each read two words once), and what loading them cost."""
    from polygon.lint.embeddings import E5Embedder
    from polygon.lint.surprisal import LlamaScorer

    e5, llm = E5Embedder(), LlamaScorer()
    loads = {
        "embeddings": _timed(lambda: e5.embed(["warm up"])),
        "surprisal": _timed(lambda: llm.surprisals("warm up")),
    }
    return e5, llm, loads


def _timed(read: Callable[[], object]) -> Sample:
    cpu, wall = time.process_time(), time.perf_counter()
    read()
    return time.process_time() - cpu, time.perf_counter() - wall


def speed_samples(
    repeats: int, models: tuple[E5Embedder, LlamaScorer] | None = None
) -> dict[tuple[str, str], list[Sample]]:
    """Each tier set × case on the 1,500-word prompt, ``repeats`` times, interleaved.

    cold: an empty tiers' cache (the models already loaded, as a long-lived process or
    the web editor has them; :func:`loaded_models` says what a load costs); warm: the same
    prompt again; one edit: then the prompt with one sentence changed
    (:func:`edited_prompt`). Every tier set of every repeat starts from a new, empty cache.
    """
    import tempfile
    from pathlib import Path

    from polygon.lint.cache import ResultCache

    text = long_prompt()
    texts = {"cold": text, "warm": text, "one edit": edited_prompt(text)}
    e5, llm = models or loaded_models()[:2]
    out: dict[tuple[str, str], list[Sample]] = {}
    for _ in range(repeats):
        for tiers in TIER_SETS:
            with tempfile.TemporaryDirectory() as folder:
                read = _reader(tiers, e5, llm, ResultCache(Path(folder), max_bytes=None))
                for case in SPEED_CASES:
                    took = _timed(partial(_lint, read, texts[case]))
                    out.setdefault(("+".join(tiers), case), []).append(took)
    return out


def _reader(
    tiers: Sequence[str], e5: E5Embedder, llm: LlamaScorer, cache: ResultCache
) -> Callable[[Reading], None]:
    """Reads a prompt with ``tiers``: the loaded models, over ``cache``."""
    from polygon.lint.embeddings import E5Embedder, read_embeddings
    from polygon.lint.surprisal import LlamaScorer, read_surprisal

    embedder, scorer = E5Embedder(cache=cache), LlamaScorer(cache=cache)
    embedder.__dict__["_model"] = e5._model  # the loaded model behind a fresh cache
    scorer.__dict__["_llm"] = llm._llm

    def read(reading: Reading) -> None:
        read_rules(reading)
        if "embeddings" in tiers:
            read_embeddings(reading, embedder)
        if "surprisal" in tiers:
            read_surprisal(reading, scorer)

    return read


def _lint(read: Callable[[Reading], None], text: str) -> None:
    read(read_prompt(Prompt(text), "en"))


def speed_table(samples: dict[tuple[str, str], list[Sample]], loads: dict[str, Sample] | None = None) -> str:
    """Markdown: per tier set and case, wall s as median (min–max), and the median CPU s."""
    lines = [
        "| tiers | " + " | ".join(f"{c}: wall s | CPU s" for c in SPEED_CASES) + " |",
        "|---|" + "---:|" * (2 * len(SPEED_CASES)),
    ]
    for tiers in TIER_SETS:
        name = "+".join(tiers)
        cells = [_cell(samples[(name, case)]) for case in SPEED_CASES]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [""] if loads else []
    for tier, (cpu, wall) in (loads or {}).items():
        lines.append(
            f"loading the {tier} tier's model (once a process, on a miss): {wall:.2f} s wall, {cpu:.2f} CPU s"
        )
    return "\n".join(lines)


def _cell(samples: list[Sample]) -> str:
    walls = [w for _, w in samples]
    cpu = statistics.median(c for c, _ in samples)
    return f"{statistics.median(walls):.2f} ({min(walls):.2f}–{max(walls):.2f}) | {cpu:.2f}"


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["speed"]:  # [repeats]
        e5, llm, loads = loaded_models()
        print(speed_table(speed_samples(int(sys.argv[2]) if len(sys.argv) > 2 else 3, (e5, llm)), loads))
        sys.exit(0)
    main(
        tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else OFFLINE_TIERS,
        sys.argv[2] if len(sys.argv) > 2 else "",
    )
