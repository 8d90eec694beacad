"""``polygon scenarios from-calls``: an imported run's calls become a new suite of drafts.

The drafts (one persona and one scenario per call, clustered by intent, each naming the call
it came from) go to a new file beside the suite's own settings — configurations, tools,
stores, judge — so it loads and runs as it is. The suite itself is never edited. The
coverage report says which intents of the real calls the suite has no scenario for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from polygon.app.queries import resolve_run
from polygon.boundary import read_yaml
from polygon.errors import SuiteError, UserInputError
from polygon.events import EventLog, conversation_of_stream, drafts_stream, run_conversations
from polygon.importing import (
    Draft,
    clusters,
    coverage,
    draft,
    refine_request,
    refined,
    safe_key,
    suite_intents,
    transcript_text,
)
from polygon.models import ModelHub
from polygon.recording import StreamRecorder
from polygon.suite import load_suite
from polygon.transcript import build

PLACEHOLDER_AGENT = "http://127.0.0.1:8000/step"
"""The agent of a draft suite written without ``--suite``: yours goes here."""


@dataclass(frozen=True)
class FromCalls:
    """What ``from-calls`` wrote."""

    path: Path
    run_id: str
    drafts: list[Draft]
    coverage: list[tuple[str, int, list[str]]]
    """(intent, calls, the suite's personas for it): an empty list is an uncovered intent."""
    model: str = ""
    """The model that corrected the rules' drafts (empty: rules only)."""
    failures: list[str] = field(default_factory=list)
    """Calls whose model answer was unusable: their drafts are the rules' alone."""


@dataclass(frozen=True)
class DraftModel:
    """A model to correct the rules' drafts, its calls recorded in the log."""

    model: str
    hub: ModelHub
    now: Callable[[], str]


def from_calls(
    log: EventLog, run_ref: str, suite: str | None, out: Path, with_model: DraftModel | None = None
) -> FromCalls:
    """Draft personas and scenarios from RUN's calls into the new file ``out``."""
    if out.exists():
        raise UserInputError(f"{out}: already exists; drafts go to a new file, never over one")
    run_id = resolve_run(log, run_ref)
    views = [
        build(conversation_of_stream(s), log.read_stream(s)) for s in log.streams(run_conversations(run_id))
    ]
    pairs = [(d, v) for d, v in ((draft(v), v) for v in views) if d is not None]
    if not pairs:
        raise UserInputError(f"run {run_id}: no call in which the caller said anything to draft from")
    drafts, failures = [d for d, _ in pairs], list[str]()
    if with_model is not None:
        drafts, failures = _with_model(log, run_id, pairs, with_model)
    base, tools = _base(suite, views)
    covered = suite_intents(list(base.pop("personas", None) or _personas_file(suite, base)))
    grouped = clusters(drafts)
    report = coverage(grouped, covered)
    text = _render(run_id, suite, base, tools, grouped, report, with_model.model if with_model else "")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    try:
        load_suite(out)  # what is written loads, or nothing is left behind
    except SuiteError:
        out.unlink()
        raise
    return FromCalls(out, run_id, drafts, report, with_model.model if with_model else "", failures)


def _with_model(
    log: EventLog, run_id: str, pairs: list[tuple[Draft, Any]], with_model: DraftModel
) -> tuple[list[Draft], list[str]]:
    """Each draft corrected by one model request, every call recorded (a failed one keeps the rules')."""
    import asyncio  # only drafting with a model runs coroutines (~0.1 CPU s to import)

    stream = drafts_stream(run_id)
    # one attempt per invocation: a second drafting records beside the first, never over it
    attempt = f"{run_id}#{log.stream_length(stream)}"
    sink = StreamRecorder(run_id=run_id, stream=stream, conversation=attempt, seed=0, now=with_model.now)
    recorded = with_model.hub.client(with_model.model, sink=sink, role="drafter", conversation_id=attempt)

    async def one(i: int, rules: Draft, view: Any) -> Draft | str:
        request = refine_request(rules, transcript_text(view), with_model.model)
        answer = await recorded.complete(request, index=i, key=safe_key(rules.call))
        if answer.text is None:
            return f"{rules.call}: no answer ({'; '.join(answer.errors)[:160]})"
        return refined(rules, answer.text)

    async def every() -> list[Draft | str]:
        try:
            return list(await asyncio.gather(*(one(i, d, v) for i, (d, v) in enumerate(pairs))))
        finally:
            await with_model.hub.aclose()

    results = asyncio.run(every())
    if sink.pending:
        log.append(sink.pending)
    drafts = [r if isinstance(r, Draft) else rules for r, (rules, _) in zip(results, pairs, strict=True)]
    return drafts, [r for r in results if isinstance(r, str)]


def _personas_file(suite: str | None, base: dict[str, Any]) -> list[Any]:
    name = base.pop("personas_file", "")
    if not suite or not name:
        return []
    data = read_yaml(Path(suite).parent / str(name), "personas file")
    found = data.get("personas", []) if isinstance(data, dict) else data
    return found if isinstance(found, list) else []


def _base(suite: str | None, views: list[Any]) -> tuple[dict[str, Any], set[str]]:
    """The suite's own settings (prompts inlined), or a skeleton with the tools the calls used."""
    if suite:
        loaded = load_suite(suite, personas_optional=True)
        data = read_yaml(loaded.path, "suite")
        data.pop("scenarios", None)
        for name, config in (data.get("configs") or {}).items():
            if isinstance(config, dict) and config.pop("prompt_file", None) and name in loaded.prompts:
                # inline: a suite reads prompt files only from its own folder, and this one may be elsewhere
                config["prompt"] = loaded.prompts[name]
        data["name"] = f"{loaded.suite.name}-from-calls"
        return data, {t.name for t in loaded.suite.tools}
    observed: dict[str, Any] = {}
    prompt = ""
    for view in views:
        prompt = prompt or (view.imported.system_prompt if view.imported else "")
        for turn in view.turns:
            for tool in turn.tools:
                observed.setdefault(tool.tool, tool.result)
    tools = [
        {"name": name, "stub": {"mode": "fixed", "response": result}}
        for name, result in sorted(observed.items())
        if safe_key(name) == name and name[:1].isalpha()
    ]
    config = {"agent": PLACEHOLDER_AGENT, **({"prompt": prompt} if prompt else {})}
    skeleton = {"name": "from-calls", "configs": {"your-agent": config}, "tools": tools}
    return skeleton, {str(t["name"]) for t in tools}


def _render(
    run_id: str,
    suite: str | None,
    base: dict[str, Any],
    tools: set[str],
    grouped: dict[str, list[Draft]],
    report: list[tuple[str, int, list[str]]],
    model: str,
) -> str:
    lines = [
        f"# Drafted by `polygon scenarios from-calls {run_id}` from real calls, by rules over their",
        "# transcripts" + (f", corrected by {model}" if model else " (no model)") + ":",
        "# one persona and scenario per call, clustered by intent. Edit freely.",
        f"# The suite they extend, {suite}, is not changed."
        if suite
        else "# No suite given: put your agent in configs.",
        "#",
        "# Coverage — intents found in the calls, and the suite's personas for them:",
    ]
    lines += [
        f"#   {intent:<14} {calls:>3} call(s)  " + (", ".join(ids) if ids else "NO SCENARIO in the suite")
        for intent, calls, ids in report
    ]
    lines.append(yaml.safe_dump(base, sort_keys=False, allow_unicode=True, width=100).rstrip())
    personas, scenarios = ["personas:"], ["scenarios:"]
    used: set[str] = set()
    for intent, drafts in grouped.items():
        personas.append(f"  # -- intent: {intent} ({len(drafts)} call(s))")
        for d in drafts:
            ident = _unique(safe_key(f"{intent}-{d.call.split('.', 2)[-1].rsplit('.', 1)[0]}")[:60], used)
            persona = {
                "id": ident,
                "type": d.type,
                "outcome": d.outcome,
                "difficulty": d.difficulty,
                "goal": d.goal,
                "facts": d.facts,
            }
            personas.append(f"  # from call {d.call} — {d.source}")
            if d.tool_facts:  # not said by the caller: a person checks them before relying on them
                personas.append(
                    f"  # facts from tool arguments (not the caller's words): {', '.join(d.tool_facts)}"
                )
            personas += _item(persona)
            scenario: dict[str, Any] = {"id": ident, "persona": ident}
            expect = _known_tools(d.expect, tools)
            if expect:
                scenario["expect"] = expect
            scenarios += [f"  # from call {d.call}", *_item(scenario)]
    return "\n".join([*lines, *personas, *scenarios]) + "\n"


def _item(value: dict[str, Any]) -> list[str]:
    dumped = yaml.safe_dump([value], sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)
    return ["  " + line for line in dumped.rstrip().splitlines()]


def _unique(ident: str, used: set[str]) -> str:
    name, n = ident, 1
    while name in used:
        n += 1
        name = f"{ident}-{n}"
    used.add(name)
    return name


def _known_tools(expect: dict[str, Any], tools: set[str]) -> dict[str, Any]:
    """``expect`` without the calls of tools the suite does not have (it could never meet them)."""
    calls = {k: v for k, v in expect.get("calls", {}).items() if k in tools}
    out = {k: v for k, v in expect.items() if k != "calls"}
    return {**out, "calls": calls} if calls else out
