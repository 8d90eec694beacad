"""Lint quality on the labelled corpus: precision, recall and F1 per axis and tier set, the
share of planted spans found, and the time per prompt of each tier.

``python -m tests.bench.lint_corpus`` (also part of ``make bench``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations

from polygon.events.families import PromptLinted
from polygon.lint import AXES, OFFLINE_TIERS, TierReading
from polygon.lint.reading import Reading, read_prompt
from polygon.lint.rules import read_rules
from polygon.lint.text import Prompt
from polygon.projections.lint import PromptLint, fold_lint
from tests.lint.corpus import HELDOUT, HELDOUT2, HELDOUT3, Labelled, load_corpus

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
    report(load_corpus(HELDOUT2), tiers, "Held-out set 2 (issue 30: seven new domains, kept apart from the corpus)")
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


def tier_speed(repeats: int = 3) -> dict[tuple[str, str], tuple[float, float]]:
    """(CPU s, wall s), the least of ``repeats``, for each tier and case on the 1,500-word prompt.

    cold: an empty cache; warm: the same prompt again; one edit: then the prompt with one
    sentence changed (:func:`edited_prompt`). Models are loaded once, beforehand, as in
    :func:`tier_time_cases`; each repeat starts from a new, empty cache folder.
    """
    import tempfile
    from pathlib import Path

    from polygon.lint.cache import ResultCache
    from polygon.lint.embeddings import E5Embedder, read_embeddings
    from polygon.lint.surprisal import LlamaScorer, read_surprisal

    text = long_prompt()
    texts = {"cold": text, "warm": text, "one edit": edited_prompt(text)}
    loaded_e5, loaded_llm = E5Embedder(), LlamaScorer()
    loaded_e5.embed(["warm up"])
    loaded_llm.surprisals("warm up")
    best: dict[tuple[str, str], tuple[float, float]] = {}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            cache = ResultCache(Path(folder))
            embedder, scorer = E5Embedder(cache=cache), LlamaScorer(cache=cache)
            embedder.__dict__["_model"] = loaded_e5._model  # the loaded models, a fresh cache
            scorer.__dict__["_llm"] = loaded_llm._llm
            tiers: dict[str, Callable[[Reading], object]] = {
                "rules": read_rules,
                "embeddings": lambda r, e=embedder: read_embeddings(r, e),  # type: ignore[misc]
                "surprisal": lambda r, s=scorer: read_surprisal(r, s),  # type: ignore[misc]
            }
            for tier, read in tiers.items():
                for case in SPEED_CASES:
                    cpu, wall = time.process_time(), time.perf_counter()
                    read(read_prompt(Prompt(texts[case]), "en"))
                    took = (time.process_time() - cpu, time.perf_counter() - wall)
                    old = best.get((tier, case), took)
                    best[(tier, case)] = (min(old[0], took[0]), min(old[1], took[1]))
    return best


def speed_table(best: dict[tuple[str, str], tuple[float, float]]) -> str:
    """A markdown table: each tier's CPU and wall seconds, cold, warm and after one edit."""
    lines = [
        "| tier | " + " | ".join(f"{c} CPU s | {c} wall s" for c in SPEED_CASES) + " |",
        "|---|" + "---:|" * (2 * len(SPEED_CASES)),
    ]
    for tier in ("rules", "embeddings", "surprisal"):
        cells = [f"{best[(tier, c)][0]:.2f} | {best[(tier, c)][1]:.2f}" for c in SPEED_CASES]
        lines.append(f"| {tier} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["speed"]:
        print(speed_table(tier_speed()))
        sys.exit(0)
    main(
        tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else OFFLINE_TIERS,
        sys.argv[2] if len(sys.argv) > 2 else "",
    )
