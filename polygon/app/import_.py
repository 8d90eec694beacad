"""``polygon import``: production transcripts become an ordinary, scored run.

Nothing is re-run: each conversation's turns and tool calls (validated against the suite's
tool schemas when a suite is given) go into the log as one batch, then the checks, the
judge and the probes score them like simulated calls; checks that need a simulated caller
or ground truth are n/a. The run id and every identity derive from the files' content, so
importing the same files again is a no-op.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from polygon import __version__
from polygon import score as _score  # the rubric (pydantic, checks, languages) loads when read
from polygon.app.judge import ScoreSummary, score_run
from polygon.app.passes import start_run
from polygon.app.progress import Progress, no_progress
from polygon.app.queries import read_run_labels
from polygon.boundary import log_safe, safe_text
from polygon.errors import UserInputError
from polygon.events import (
    AGENT_TURN,
    CALLER_TURN,
    ENDED,
    IMPORTED,
    STARTED,
    TOOL,
    ConversationEnded,
    ConversationStarted,
    EventLog,
    Pending,
    RunStarted,
    SpokenBesideTools,
    ToolCalled,
    TranscriptImported,
    TurnSpoken,
    content_hash,
    conversation_id,
    conversation_stream,
    keyed,
    to_builtins,
)
from polygon.importing import (
    END_CALL_TOOLS,
    TRANSFER_TOOLS,
    ImportedConversation,
    ImportProblem,
    ending_of,
    is_ending_tool,
    parse,
    redact,
    redact_value,
    safe_key,
)
from polygon.models import ModelHub
from polygon.recording import StreamRecorder
from polygon.simulate import percentile

if TYPE_CHECKING:
    from polygon.suite import LoadedSuite  # a type only: importing without a suite loads no suite models


@dataclass(frozen=True)
class ImportOptions:
    """How to import."""

    fmt: str = "auto"
    redact: bool = False
    strict: bool = False
    suite: LoadedSuite | None = None
    mapping: dict[str, str] = field(default_factory=dict)
    config: str = "imported"
    run_id: str = ""
    end_tools: frozenset[str] = END_CALL_TOOLS
    """Tool names that mean the agent hung up (``--end-tool`` adds to the defaults)."""
    transfer_tools: frozenset[str] = TRANSFER_TOOLS
    """Tool names that mean the agent transferred the call (``--transfer-tool``)."""


@dataclass(frozen=True)
class ImportSummary:
    """What an import did."""

    run_id: str
    conversations: int
    written: int
    problems: list[str]
    scoring: ScoreSummary | None
    rubric: str = ""
    """The rubric the calls were judged under (:func:`import_rubric`)."""
    warnings: list[str] = field(default_factory=list)
    """Problems the import went past, keeping the record (bytes that are not UTF-8)."""


def import_rubric(suite: LoadedSuite | None) -> str:
    """The rubric an import judges under: the suite's, else the newest gating one.

    Not v1 (trial40 defect 8): without ``--suite`` there are no policies or ``expect:`` to
    gate on, but v1 also lets a loop, an answer over an invalid call, a value the agent's
    own tools contradict and an outcome reported over a failed tool pass on the composite.
    """
    if suite is not None:
        return suite.suite.judge.rubric
    from polygon.app.gating import NEWEST_GATING  # at first use, as the command's other imports

    return NEWEST_GATING


def _read(
    paths: Sequence[Path], fmt: str
) -> tuple[list[ImportedConversation], list[ImportProblem], str, list[ImportProblem]]:
    """(conversations, records skipped, the files' digest, problems imported past)."""
    conversations: list[ImportedConversation] = []
    problems: list[ImportProblem] = []
    warnings: list[ImportProblem] = []
    digest = hashlib.blake2b(digest_size=8)
    for path in paths:
        text, undecoded = _read_text(path)
        warnings += [undecoded] if undecoded else []
        digest.update(f"{path.name}\0{content_hash(text)}\0".encode())
        if not text.strip():  # said as such, not as "no conversation could be imported"
            problems.append(ImportProblem(str(path), 0, "empty file", place=""))
            continue
        for item in parse(path, text, fmt):  # auto: detected by the importers' own decoder
            (problems if isinstance(item, ImportProblem) else conversations).append(item)  # type: ignore[arg-type]
    return conversations, problems, digest.hexdigest(), warnings


MAX_TRANSCRIPT_BYTES = 256_000_000
"""Largest transcript file read (``/dev/zero`` is refused at this size, not after minutes)."""


def _read_text(path: Path) -> tuple[str, ImportProblem | None]:
    """The file's text, and where it is not UTF-8 (those bytes read as U+FFFD) if it is not."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_TRANSCRIPT_BYTES + 1)
    except OSError as exc:
        raise UserInputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(data) > MAX_TRANSCRIPT_BYTES:
        raise UserInputError(f"{path}: larger than {MAX_TRANSCRIPT_BYTES // 1_000_000} MB; split it")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        # replaced silently, "café" was imported as "caf\ufffd" with no word said: say where
        line = data.count(b"\n", 0, exc.start) + 1
        message = f"not UTF-8 at byte offset {exc.start} (0x{data[exc.start]:02x})"
        return data.decode("utf-8", "replace"), ImportProblem(str(path), line, message)


def import_files(
    log: EventLog,
    paths: Sequence[Path],
    options: ImportOptions,
    *,
    now: Callable[[], str],
    progress: Progress = no_progress,
) -> ImportSummary:
    """Import, write, score. A malformed record is skipped (or, with ``strict``, refused)."""
    conversations, problems, files_hash, warnings = _read(paths, options.fmt)
    if warnings and options.strict:
        raise UserInputError(
            f"{warnings[0]} (nothing was imported; re-export it as UTF-8, "
            "or drop --strict to import it with U+FFFD in place of those bytes)"
        )
    if problems and options.strict:
        raise UserInputError(f"{problems[0]} (nothing was imported; drop --strict to skip bad records)")
    if not conversations:
        raise UserInputError("no conversation could be imported" + (f": {problems[0]}" if problems else ""))
    run_id = options.run_id or _derived_run_id(files_hash, options)
    scenarios = _scenario_names(conversations, options.mapping)
    validators = _validators(options.suite)
    # Every conversation's events are built (and checked to encode) before anything is
    # written: a failed import leaves nothing behind, not even an orphan run.started.
    batches = [_events(run_id, conv, scenarios[id(conv)], options, validators, now) for conv in conversations]
    for batch in batches:
        for pending in batch:
            msgspec.msgpack.encode(pending.event)
    started = _run_started(run_id, options, [scenarios[id(c)] for c in conversations])
    written = start_run(log, started, now)
    for i, batch in enumerate(batches):
        written += log.append(batch).written
        progress(i + 1, len(conversations))
    written += _carried_labels(log, run_id, conversations, scenarios, options, now)
    import asyncio  # ~0.025 CPU s, loaded by the work that runs a loop, not at a start (issue 31)

    scoring = asyncio.run(_score_and_probe(log, run_id, options.suite, now))
    return ImportSummary(
        run_id,
        len(conversations),
        written,
        [str(p) for p in problems],
        scoring,
        rubric=import_rubric(options.suite),
        warnings=[f"{w}: imported with U+FFFD in place of the bytes that are not" for w in warnings],
    )


def _derived_run_id(files_hash: str, options: ImportOptions) -> str:
    """The run id from the files and every option that changes what is written.

    A suite (its schemas validate the tool calls, its rubric scores them) or extra ending
    tools make other events from the same files: another run, so importing with --suite
    after a plain import is a second run, not a clash with the first one's events. They
    join the key only when given, and the same files with the same options still come to
    the same id (a no-op).
    """
    parts: list[Any] = [files_hash, options.redact, options.mapping, options.config]
    if options.suite is None:
        # a new default rubric is a new run: a log that holds the same files judged under
        # v1 (before the default moved) keeps that run rather than refusing this one
        parts.append(import_rubric(None))
    else:
        parts.append({"suite": options.suite.suite_hash})
    extra_end = sorted(options.end_tools - END_CALL_TOOLS)
    extra_transfer = sorted(options.transfer_tools - TRANSFER_TOOLS)
    if extra_end or extra_transfer:
        parts.append({"end_tools": extra_end, "transfer_tools": extra_transfer})
    key = json.dumps(parts, sort_keys=True)
    return "i" + hashlib.blake2b(key.encode(), digest_size=4).hexdigest()


def _carried_labels(
    log: EventLog,
    run_id: str,
    conversations: list[ImportedConversation],
    scenarios: dict[int, str],
    options: ImportOptions,
    now: Callable[[], str],
) -> int:
    """A ``label`` or ``reward`` carried on a transcript becomes a label beside its verdict."""
    from polygon.app.label import LabelInput, record_labels

    carried = [
        LabelInput(
            conversation_id=conversation_id(run_id, options.config, scenarios[id(c)], 0),
            verdict=c.label,
            reward=c.reward,
            by=c.label_by,
            note=c.label_note,
            source=f"{Path(c.source_file).name}:{c.line}",
        )
        for c in conversations
        if c.label or c.reward is not None
    ]
    # a second import of the same files records the same identities: nothing new is written
    existing = {
        lab.conversation_id
        for lab in read_run_labels(log, run_id).calls
        if lab.by == "transcript" or lab.by.startswith("platform:")
    }
    return record_labels(log, [c for c in carried if c.conversation_id not in existing], now=now)


async def _score_and_probe(
    log: EventLog, run_id: str, suite: LoadedSuite | None, now: Callable[[], str]
) -> ScoreSummary:
    """The heuristic judge's pass, then the detectors' (offline: the hub is never asked)."""
    # The probe pass (its library's models: pydantic) loads with the work, not the start (issue 31).
    from polygon.app.probe import probe_run
    from polygon.probe import DETECTOR

    hub = ModelHub()
    try:
        rubric = _score.load_rubric(import_rubric(suite))
        scoring = await score_run(
            log, run_id, rubric=rubric, judge_model="scripted/heuristic", hub=hub, now=now
        )
        await probe_run(log, run_id, answerer_model=DETECTOR, hub=hub, now=now)
        return scoring
    finally:
        await hub.aclose()


def _scenario_names(conversations: list[ImportedConversation], mapping: dict[str, str]) -> dict[int, str]:
    names: dict[int, str] = {}
    used: set[str] = set()
    for conv in conversations:
        name = safe_key(mapping.get(conv.raw_key, mapping.get(conv.key, conv.key)))
        base, n = name, 1
        while name in used:
            n += 1
            name = f"{base}-{n}"
        used.add(name)
        names[id(conv)] = name
    return names


def _run_started(run_id: str, options: ImportOptions, scenarios: list[str]) -> RunStarted:
    suite = options.suite
    return RunStarted(
        run_id=run_id,
        suite_name=suite.suite.name if suite else "imported",
        suite_hash=suite.suite_hash if suite else "",
        prompt_hashes={},
        seed=0,
        configs=[options.config],
        scenarios=scenarios,
        source="imported",
        rubric_version=import_rubric(suite),
        polygon_version=__version__,
        forbidden_phrases=list(suite.suite.forbidden_phrases) if suite else [],
        policies=suite.suite.recorded_policies() if suite else [],
        judge_model="scripted/heuristic",
        probes=[p.model_dump() for p in suite.suite.probes] if suite else [],
    )


def _validators(suite: LoadedSuite | None) -> dict[str, Any]:
    if suite is None:
        return {}
    import jsonschema  # only with a suite: importing calls without one never pays for it

    return {t.name: jsonschema.Draft202012Validator(t.parameters) for t in suite.suite.tools}


def _events(
    run_id: str,
    conv: ImportedConversation,
    scenario: str,
    options: ImportOptions,
    validators: dict[str, Any],
    now: Callable[[], str],
) -> list[Pending]:
    cid = conversation_id(run_id, options.config, scenario, 0)
    # Imported calls have no seed: 0, as for every call that was not simulated.
    sink = StreamRecorder(run_id=run_id, stream=conversation_stream(cid), conversation=cid, seed=0, now=now)
    _emit_opening(sink, conv, scenario, options)
    ending = _call_ending(conv, options)
    _emit_turns(sink, conv, options, validators, ending)
    latencies = [t.latency_ms for t in conv.turns if t.agent is not None and t.latency_ms is not None]
    sink.emit(
        ENDED,
        ConversationEnded(
            conversation_id=cid,
            reason=ending.reason,
            by=ending.by,
            turns=len(conv.turns),
            detail=_clean(conv.end_detail, options),
            latency_p50_ms=percentile(latencies, 50),
            latency_p95_ms=percentile(latencies, 95),
        ),
        turn=len(conv.turns),
    )
    return sink.pending


def _clean(text: str, options: ImportOptions) -> str:
    """Free text as written to the log: redacted when asked, always made safe."""
    return safe_text(redact(text) if options.redact else text)


def _emit_opening(
    sink: StreamRecorder, conv: ImportedConversation, scenario: str, options: ImportOptions
) -> None:
    """The call's start, and where it was imported from."""
    cid = sink.conversation
    sink.emit(
        STARTED,
        ConversationStarted(
            run_id=sink.run_id,
            conversation_id=cid,
            config=options.config,
            scenario=scenario,
            trial=0,
            seed=0,
            agent=f"imported:{Path(conv.source_file).name}",
            latency_budget_ms=options.suite.suite.latency_budget_ms if options.suite else 0.0,
        ),
    )
    sink.emit(
        IMPORTED,
        TranscriptImported(
            run_id=sink.run_id,
            conversation_id=cid,
            source_file=conv.source_file,
            line=conv.line,
            format=conv.format,
            source_hash=conv.source_hash,
            redacted=options.redact,
            system_prompt=_clean(conv.system_prompt, options),
            source_id=safe_text(conv.source_id),
            source_end_reason=_clean(conv.end_source, options),  # free text may name a number (ElevenLabs)
            tools=[to_builtins(log_safe(t)) for t in conv.tools],
        ),
    )


@dataclass(frozen=True)
class _CallEnding:
    """How an imported call ended, and which agent turn carries the end."""

    reason: str
    by: str
    agent_end: str
    """The agent's hang-up or transfer ("" when the call did not end on the agent's side)."""
    mark: int
    """The turn whose agent words end the call."""


def _call_ending(conv: ImportedConversation, options: ImportOptions) -> _CallEnding:
    tool_end, tool_by, end_turn = ending_of(conv, options.end_tools, options.transfer_tools)
    last_agent = max((n for n, t in enumerate(conv.turns, start=1) if t.agent is not None), default=0)
    # the agent's words that go with the end: its last turn, or the turn of the tool call
    mark = last_agent if tool_end and end_turn >= last_agent else end_turn
    reason, by = _ending(conv, tool_end, tool_by)
    # the agent's hang-up or transfer that the platform reports marks the agent's last words
    agent_end = tool_end or (reason if by == "agent" and reason in ("hangup", "transfer") else "")
    if agent_end and not tool_end:
        mark = last_agent
    return _CallEnding(reason, by, agent_end, mark)


def _emit_turns(
    sink: StreamRecorder,
    conv: ImportedConversation,
    options: ImportOptions,
    validators: dict[str, Any],
    ending: _CallEnding,
) -> None:
    """Each turn: the caller's words, the agent's tool calls, the agent's words."""
    cid = sink.conversation
    for n, turn in enumerate(conv.turns, start=1):
        if turn.caller:
            sink.emit(
                CALLER_TURN,
                TurnSpoken(conversation_id=cid, turn=n, speaker="caller", text=_clean(turn.caller, options)),
                turn=n,
            )
        # An end-of-call or transfer tool is the call's ending, not a stub call: a simulated
        # model agent's built-in end_call is recorded the same way, so the two compare.
        ending_tools = options.end_tools | options.transfer_tools
        real = [t for t in turn.tools if not is_ending_tool(t.name, ending_tools)]
        beside = _beside_real(turn.beside, [t.name for t in turn.tools], ending_tools)
        for i, tool in enumerate(real):
            if i in beside:
                _emit_beside(sink, n, i, beside.pop(i), options)
            sink.emit(TOOL, _tool_event(cid, n, i, tool, validators, options.redact), turn=n, index=i)
        for i, text in beside.items():  # said with an ending tool only: after the real calls
            _emit_beside(sink, n, i, text, options)
        if turn.agent is not None:
            sink.emit(
                AGENT_TURN,
                TurnSpoken(
                    conversation_id=cid,
                    turn=n,
                    speaker="agent",
                    text=_clean(turn.agent, options),
                    # an end-of-call tool ends the call with the agent's last words
                    ends_call=ending.agent_end if ending.agent_end and n == ending.mark else "",
                    latency_ms=turn.latency_ms or 0.0,
                ),
                turn=n,
            )


def _beside_real(
    beside: list[tuple[int, str]], tools: list[str], ending_tools: frozenset[str]
) -> dict[int, str]:
    """What the agent said beside its calls, by the index of the recorded call it came before.

    An ending tool is no recorded call: words said with it join the next call's.
    """
    out: dict[int, str] = {}
    for position, text in beside:
        index = sum(1 for name in tools[:position] if not is_ending_tool(name, ending_tools))
        out[index] = f"{out[index]} {text}" if index in out else text
    return out


def _emit_beside(sink: StreamRecorder, turn: int, index: int, text: str, options: ImportOptions) -> None:
    said = _clean(text, options)
    event = SpokenBesideTools(conversation_id=sink.conversation, turn=turn, index=index, text=said)
    sink.emit(keyed(AGENT_TURN, "beside_tools"), event, turn=turn, index=index)


def _ending(conv: ImportedConversation, tool_end: str, tool_by: str) -> tuple[str, str]:
    """(reason, by): the platform's own end when the export has one, else the ending tool's."""
    if conv.end_reason:
        return conv.end_reason, conv.end_by or "unknown"
    if tool_end:
        return tool_end, tool_by
    return "imported", conv.end_by or "unknown"


def _tool_event(
    cid: str, turn: int, index: int, tool: Any, validators: dict[str, Any], masked: bool
) -> ToolCalled:
    args = log_safe(redact_value(tool.arguments) if masked else tool.arguments)
    result = log_safe(redact_value(tool.result) if masked else tool.result)
    validator = validators.get(tool.name)
    errors = (
        sorted(
            f"{'/'.join(map(str, e.absolute_path)) or '(arguments)'}: {e.message}"
            for e in validator.iter_errors(args)
        )
        if validator
        else []
    )
    if validators and validator is None:
        errors = [f"unknown tool {tool.name!r}"]
    # arguments that are not a JSON object (unparseable text such as "{not json", a list)
    # are invalid with or without a schema: no tool can be called with them (no arguments
    # at all, None or "", is an export's way of writing a call without parameters)
    unreadable = not isinstance(args, dict) and args not in (None, "")
    if unreadable:
        errors = [f"(arguments): not a JSON object: {str(args)[:80]!r}"]
    return ToolCalled(
        conversation_id=cid,
        turn=turn,
        index=index,
        call_id=safe_text(tool.call_id),
        tool=safe_text(tool.name),
        arguments=args if isinstance(args, dict) else {"_raw": to_builtins(args)},
        valid=not errors,
        validation_errors=errors,
        result=to_builtins(result),
        error=safe_text(redact(tool.error) if masked else tool.error),
        validated=bool(validators) or unreadable,
        unpaired=tool.unpaired,
    )
