"""Verdicts: every conversation of a run under one rubric version (a pure fold).

The fold collects, per conversation, what the call was (configuration, scenario, persona,
end) and every scoring pass (checks and judge repeats, with their log positions). Verdicts
are then computed with the rubric recorded in the log, never from a file, so a report
rebuilds from the log alone and identically every time.

Memory stays flat in run size with :func:`build_reduced`: it reads the run's own stream
(its rubrics) first, then one conversation stream at a time, and keeps per pass only the
verdict and the checks that explain it (:class:`PassVerdict`), not the judge's repeats. A
renderer that shows every repeat takes whole rows one call at a time
(:func:`conversation_rows`).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from polygon.errors import UserInputError
from polygon.events import (
    CheckRecorded,
    ConversationEnded,
    ConversationStarted,
    Envelope,
    JudgeScored,
    RubricRecorded,
    RunStarted,
    conversation_of_stream,
    is_conversation_stream,
)
from polygon.score import CRITERIA, CallState, GateResult, Verdict, reach_verdict

VERSION = 4
"""3: a reduced call keeps the checks of passes not judged yet (see :func:`compact`);
4: each score and check keeps its position in the call's stream (``at``)."""
CHECK_GATES = {"forbidden_phrase": "forbidden_phrase", "invalid_tool_answer": "invalid_tool_answer"}
"""Built-in gates decided by a check of the same name; ``check:<id>`` gates name theirs."""
POLICY_GATE = "check:policy"
POLICY_PREFIX = "policy:"
CALLER_OUTSIDE_FACTS_LIMIT = 1
"""A simulated caller may stray from its facts in this many turns; more is a simulator error."""


class Scored(msgspec.Struct, kw_only=True):
    """A judge repeat with its log position."""

    seq: int
    event: JudgeScored
    at: int = 0
    """Its position in the call's stream: unlike ``seq``, the same in every run of the call
    (a run scored beside its simulation, or on Ray, commits its calls in no fixed order)."""


class Checked(msgspec.Struct, kw_only=True):
    """A check with its log position."""

    seq: int
    event: CheckRecorded
    at: int = 0
    """Its position in the call's stream (see :attr:`Scored.at`)."""


class PassVerdict(msgspec.Struct, kw_only=True):
    """One pass over one conversation, reduced to what reports show."""

    pass_id: str
    judge: str
    heuristic: bool
    rubric_version: str
    first_seq: int
    verdict: Verdict | None = None
    reasons: list[Checked] = msgspec.field(default_factory=list)
    """The failed agent checks (what :meth:`ConversationVerdict.reasons` names)."""
    error: str = ""
    """Why no verdict could be computed (the log lacks the rubric it was scored under)."""


class ConversationRecord(msgspec.Struct, kw_only=True):
    """What the log says about one conversation, for scoring."""

    conversation_id: str
    config: str = ""
    scenario: str = ""
    trial: int = 0
    persona_type: str = ""
    difficulty: int = 0
    outcome: str = ""
    caller_model: str = ""
    noise_intensity: float = 0.0
    end_reason: str = ""
    end_by: str = ""
    end_detail: str = ""
    loop: bool = False
    turns: int = 0
    latency_p95_ms: float = 0.0
    """The agent's p95 turn latency in this call (see ``conversation.ended``)."""
    expected: bool = False
    """The scenario declared ``expect`` (``goal_reached`` judged by end state, not inferred)."""
    judged: dict[str, list[Scored]] = msgspec.field(default_factory=dict)
    checks: dict[str, list[Checked]] = msgspec.field(default_factory=dict)
    """Checks by pass; once reduced, only those of passes with no judge score yet."""
    passes: dict[str, PassVerdict] = msgspec.field(default_factory=dict)
    """Passes already reduced (see :func:`compact`); ``judged`` then holds only newer ones."""


class RunRecord(msgspec.Struct, kw_only=True):
    """The fold's state."""

    run_id: str
    started: RunStarted | None = None
    rubrics: list[RubricRecorded] = msgspec.field(default_factory=list)
    conversations: dict[str, ConversationRecord] = msgspec.field(default_factory=dict)


def apply(state: RunRecord, env: Envelope) -> RunRecord:
    """Fold one event of the run's streams."""
    p = env.payload
    if isinstance(p, RunStarted):
        state.started = p
    elif isinstance(p, RubricRecorded):
        state.rubrics.append(p)
    elif isinstance(p, ConversationStarted):
        rec = _conv(state, p.conversation_id)
        rec.config, rec.scenario, rec.trial = p.config, p.scenario, p.trial
        rec.caller_model, rec.noise_intensity = p.caller_model, p.noise_intensity
        rec.expected = p.expect is not None
        if p.persona is not None:
            rec.persona_type, rec.difficulty, rec.outcome = (
                p.persona.type,
                p.persona.difficulty,
                p.persona.outcome,
            )
    elif isinstance(p, ConversationEnded):
        rec = _conv(state, p.conversation_id)
        rec.end_reason, rec.loop, rec.turns = p.reason, p.loop_detected, p.turns
        rec.end_by, rec.end_detail = p.by, p.detail
        rec.latency_p95_ms = p.latency_p95_ms
    elif isinstance(p, JudgeScored):
        scored = Scored(seq=env.seq, event=p, at=env.stream_version)
        _conv(state, p.conversation_id).judged.setdefault(p.pass_id, []).append(scored)
    elif isinstance(p, CheckRecorded):
        checked = Checked(seq=env.seq, event=p, at=env.stream_version)
        _conv(state, p.conversation_id).checks.setdefault(p.pass_id, []).append(checked)
    return state


def _conv(state: RunRecord, conversation_id: str) -> ConversationRecord:
    rec = state.conversations.get(conversation_id)
    if rec is None:
        rec = state.conversations[conversation_id] = ConversationRecord(conversation_id=conversation_id)
    return rec


def build_run_record(run_id: str, events: Iterable[Envelope]) -> RunRecord:
    """Fold the run stream and every conversation stream of the run (in any order)."""
    state = RunRecord(run_id=run_id)
    for env in events:
        state = apply(state, env)
    return state


def build_reduced(
    run_id: str, head: Iterable[Envelope], conversations: Iterable[Iterable[Envelope]]
) -> RunRecord:
    """The same fold, for a run too large to hold.

    ``head`` is the run's own stream (its rubrics), then each item of ``conversations`` is
    one conversation's whole stream, which is reduced (:func:`compact`) as soon as it is
    folded. Equal to :func:`build` for every report but the one that shows each repeat
    (:func:`conversation_rows` gives those).
    """
    return extend_reduced(RunRecord(run_id=run_id), head, conversations)


def extend_reduced(
    state: RunRecord, head: Iterable[Envelope], conversations: Iterable[Iterable[Envelope]]
) -> RunRecord:
    """Fold more of a run into a reduced state, as :func:`build_reduced` folds all of it.

    Equal to folding everything afresh when no call reduced in ``state`` gets new scores
    (checks or judge repeats) here and no rubric is new: a pass is reduced whole, with the
    rubrics known then (``polygon.app.snapshots`` rebuilds instead when that could differ).
    """
    for env in head:
        state = apply(state, env)
    for stream in conversations:
        touched: set[str] = set()
        for env in stream:
            state = apply(state, env)
            touched.add(env.stream)
        for name in touched:
            rec = state.conversations.get(conversation_of_stream(name))
            if is_conversation_stream(name) and rec is not None:
                compact(state, rec)
    return state


def compact(state: RunRecord, rec: ConversationRecord) -> None:
    """Reduce each pass of ``rec`` to its verdict (with the rubrics ``state`` holds now)."""
    for pass_id, scored in rec.judged.items():
        if not scored:
            continue
        ordered = sorted(scored, key=lambda s: s.seq)
        first = ordered[0].event
        summary = PassVerdict(
            pass_id=pass_id,
            judge=first.judge,
            heuristic=first.heuristic,
            rubric_version=first.rubric_version,
            first_seq=scored[0].seq,
        )
        try:
            row = _judge(state, rec, pass_id, ordered)
        except UserInputError as exc:
            summary.error = str(exc)
        else:
            summary.verdict = _slim(row.verdict)
            summary.reasons = [
                Checked(seq=c.seq, event=msgspec.structs.replace(c.event, evidence=[]), at=c.at)
                for c in row.checks
                if c.event.outcome == "fail" and not c.event.simulator
            ]
        rec.passes[pass_id] = summary
    # Checks of a pass with no judge score yet stay: its scores may come in a later fold
    # (a snapshot resumed past them), and the pass is reduced with them then, as a fresh
    # fold reduces it. Nothing shows them before (rows are made of judged passes only).
    rec.checks = {pid: checked for pid, checked in rec.checks.items() if pid not in rec.passes}
    rec.judged = {}


def _slim(result: Verdict | None) -> Verdict | None:
    """The verdict without the judge's repeats and the gates' evidence.

    Only views that read whole rows show those; every number and reason stays.
    """
    if result is None:
        return None
    return msgspec.structs.replace(
        result,
        criteria=[msgspec.structs.replace(c, repeats=[]) for c in result.criteria],
        gates=[msgspec.structs.replace(g, evidence=[]) for g in result.gates],
    )


def conversation_rows(
    state: RunRecord, events: Iterable[Envelope], version: str, pass_id: str | None = None
) -> list[ConversationVerdict]:
    """Whole rows (every repeat and check) of the conversations in ``events``.

    They are folded on the head of ``state`` (its run and rubrics): one call's worth of
    memory at a time.
    """
    head = RunRecord(run_id=state.run_id, started=state.started, rubrics=state.rubrics)
    for env in events:
        head = apply(head, env)
    return verdicts(head, version, pass_id)


class ConversationVerdict(msgspec.Struct, kw_only=True):
    """One conversation under one rubric version."""

    record: ConversationRecord
    pass_id: str = ""
    judge: str = ""
    heuristic: bool = False
    verdict: Verdict | None = None
    judged: list[Scored] = msgspec.field(default_factory=list)
    checks: list[Checked] = msgspec.field(default_factory=list)


PassIndex = dict[str, dict[str, tuple[int, str, str]]]
"""Conversation id → :func:`_index` of its record."""


def pass_index(state: RunRecord) -> PassIndex:
    """Every call's passes, indexed once.

    A report asks for them five times (versions twice, passes twice, verdicts): at 20k
    calls, indexing them each time cost ~1 CPU s.
    """
    return {cid: _index(rec) for cid, rec in state.conversations.items()}


def _index(rec: ConversationRecord) -> dict[str, tuple[int, str, str]]:
    """Pass id → (first log position, judge, rubric version), reduced or not."""
    out = {pid: (p.first_seq, p.judge, p.rubric_version) for pid, p in rec.passes.items()}
    for pid, scored in rec.judged.items():
        if scored:
            out[pid] = (scored[0].seq, scored[0].event.judge, scored[0].event.rubric_version)
    return out


def versions(state: RunRecord, index: PassIndex | None = None) -> list[str]:
    """Rubric versions this run was judged under, oldest first (by when the log recorded them)."""
    index = pass_index(state) if index is None else index
    judged = {version for passes in index.values() for _, _, version in passes.values()}
    recorded = list(dict.fromkeys(r.version for r in state.rubrics))
    return [v for v in recorded if v in judged] + sorted(judged - set(recorded))


def choose_version(
    state: RunRecord,
    wanted: str | None,
    index: PassIndex | None = None,
    *,
    pass_id: str | None = None,
    finished: bool = True,
) -> str:
    """The version asked for, else the pass's, else the newest one the run was judged under (never a mix).

    ``finished``: the run recorded ``run.finished``; one that did not is still simulating (or
    stopped), and scores itself as its calls end: a second pass is not what it needs.
    """
    if pass_id:
        return _version_of_pass(state, wanted, pass_id, pass_index(state) if index is None else index)
    have = versions(state, index)
    if wanted:
        if wanted not in have:
            raise UserInputError(
                f"run {state.run_id} was not judged under rubric {wanted!r} "
                f"(judged under: {', '.join(have) or 'none'})"
            )
        return wanted
    if not have and not finished:
        raise UserInputError(
            f"run {state.run_id} has not finished and no call of it is scored yet: it is still "
            f"running, or it stopped (`polygon run SUITE --resume {state.run_id}` finishes it)"
        )
    if not have:
        raise UserInputError(
            f"run {state.run_id} has no judge scores yet (run `polygon judge {state.run_id}`)"
        )
    return default_version(state, have)


def default_version(state: RunRecord, have: list[str]) -> str:
    """The run's own rubric (the one its suite named) when ``have`` holds it, else the newest.

    A later `judge --rubric` under another version must not change what a plain `report` or a
    CI gate reads: re-judging under a rubric that gates less would turn failing calls green.
    """
    own = own_version(state)
    return own if own in have else have[-1]


def own_version(state: RunRecord) -> str:
    """The version of the rubric the run's suite named ("" before the run started).

    A suite may name a rubric file: the run then records the file's path, and the version
    that file declares is the first the run recorded (its own scoring starts with it).
    """
    own = state.started.rubric_version if state.started is not None else ""
    if own.endswith((".yaml", ".yml")) or "/" in own:
        return state.rubrics[0].version if state.rubrics else ""
    return own


def _version_of_pass(state: RunRecord, wanted: str | None, pass_id: str, index: PassIndex) -> str:
    """The rubric version a pass was judged under: a pass id names it, so --rubric is not needed too."""
    first: dict[str, tuple[int, str]] = {}  # every pass of the run: first log position, version
    for indexed in index.values():
        for pid, (seq, _judge, judged_under) in indexed.items():
            if pid not in first or seq < first[pid][0]:
                first[pid] = (seq, judged_under)
    if pass_id not in first:
        listed = ", ".join(sorted(first, key=lambda pid: first[pid][0])) or "none"
        raise UserInputError(f"run {state.run_id} has no pass {pass_id!r} (passes: {listed})")
    version = first[pass_id][1]
    if wanted and wanted != version:
        raise UserInputError(
            f"pass {pass_id!r} was judged under rubric {version}, not {wanted}: "
            "give --pass alone (its rubric is the pass's) or a --rubric that agrees with it"
        )
    return version


def passes(state: RunRecord, version: str, index: PassIndex | None = None) -> list[tuple[str, str]]:
    """(pass id, judge) of every pass under ``version``, oldest first."""
    first: dict[str, tuple[int, str]] = {}
    for indexed in (pass_index(state) if index is None else index).values():
        for pass_id, (seq, judge, judged_under) in indexed.items():
            if judged_under == version and (pass_id not in first or seq < first[pass_id][0]):
                first[pass_id] = (seq, judge)
    return [(pid, judge) for pid, (_seq, judge) in sorted(first.items(), key=lambda kv: kv[1][0])]


def choose_pass(
    state: RunRecord, version: str, wanted: str | None, judge: str | None, index: PassIndex | None = None
) -> str | None:
    """The pass asked for (by id, or the latest by a judge); None means each call's latest."""
    have = passes(state, version, index)
    if wanted:
        if wanted not in {p for p, _ in have}:
            listed = ", ".join(p for p, _ in have) or "none"
            raise UserInputError(
                f"run {state.run_id} has no pass {wanted!r} under {version} (passes: {listed})"
            )
        return wanted
    if judge:
        mine = [p for p, j in have if j == judge]
        if not mine:
            judges = ", ".join(sorted({j for _, j in have})) or "none"
            raise UserInputError(
                f"run {state.run_id} was not judged by {judge!r} under {version} (judges: {judges})"
            )
        return mine[-1]
    return None


def verdicts(
    state: RunRecord, version: str, pass_id: str | None = None, index: PassIndex | None = None
) -> list[ConversationVerdict]:
    """Every conversation's verdict under ``version``: pass ``pass_id``, else each call's latest."""
    out = []
    for cid in sorted(state.conversations):
        rec = state.conversations[cid]
        mine = {
            pid: seq
            for pid, (seq, _, judged_under) in (_index(rec) if index is None else index[cid]).items()
            if judged_under == version and pass_id in (None, pid)
        }
        # The row carries the call's facts, not other passes: a new pass under another rubric
        # must leave this version's reports byte-identical.
        call = msgspec.structs.replace(rec, judged={}, checks={}, passes={})
        if not mine:
            out.append(ConversationVerdict(record=call))
            continue
        chosen = max(mine, key=mine.__getitem__)
        if chosen in rec.judged:
            row = _judge(state, rec, chosen, sorted(rec.judged[chosen], key=lambda s: s.seq))
            out.append(msgspec.structs.replace(row, record=call))
        else:
            out.append(_reduced(rec.passes[chosen], call))
    return out


def _reduced(summary: PassVerdict, call: ConversationRecord) -> ConversationVerdict:
    if summary.error:
        raise UserInputError(summary.error)
    return ConversationVerdict(
        record=call,
        pass_id=summary.pass_id,
        judge=summary.judge,
        heuristic=summary.heuristic,
        verdict=summary.verdict,
        checks=summary.reasons,
    )


def _judge(
    state: RunRecord, rec: ConversationRecord, pass_id: str, scored: list[Scored]
) -> ConversationVerdict:
    first = scored[0].event
    rubric = next(
        (
            r
            for r in state.rubrics
            if r.version == first.rubric_version and r.rubric_hash == first.rubric_hash
        ),
        None,
    )
    if rubric is None:
        raise UserInputError(
            f"{rec.conversation_id}: the log lacks rubric {first.rubric_version} "
            f"({first.rubric_hash[:12]}) that its scores were given under"
        )
    checks = sorted(rec.checks.get(pass_id, []), key=lambda c: c.seq)
    order = sorted(rubric.weights, key=lambda c: (CRITERIA.index(c) if c in CRITERIA else len(CRITERIA), c))
    weights = {c: rubric.weights[c] for c in order}
    repeats = {c: [s.event.scores[c] for s in scored if c in s.event.scores] for c in weights}
    result = reach_verdict(
        weights,
        repeats,
        pass_at=rubric.pass_at,
        warn_at=rubric.warn_at,
        gates_in_force=rubric.gates,
        check_gates=_check_gates(checks),
        min_scored_weight=rubric.min_scored_weight,
        call=call_state(rec, checks),
    )
    return ConversationVerdict(
        record=rec,
        pass_id=pass_id,
        judge=first.judge,
        heuristic=first.heuristic,
        verdict=result,
        judged=scored,
        checks=checks,
    )


def _check_gates(checks: list[Checked]) -> dict[str, GateResult]:
    """Every gate a check can decide: the built-in names and ``check:<id>`` for each check.

    ``check:policy`` is decided by every ``policy:<name>`` check together: it fires when any
    policy was broken, with each broken policy's evidence.
    """
    out = {}
    policies = [c for c in checks if c.event.check.startswith(POLICY_PREFIX)]
    if policies:
        broken = [c for c in policies if c.event.outcome == "fail"]
        out[POLICY_GATE] = GateResult(
            gate=POLICY_GATE,
            fired=bool(broken),
            reason=("broken: " + ", ".join(c.event.check for c in broken)) if broken else "",
            evidence=[ev for c in broken for ev in c.event.evidence],
        )
    for c in checks:
        for gate in (CHECK_GATES.get(c.event.check), f"check:{c.event.check}"):
            if gate:
                out[gate] = GateResult(
                    gate=gate,
                    fired=c.event.outcome == "fail",
                    reason=c.event.detail if c.event.outcome == "fail" else "",
                    evidence=list(c.event.evidence),
                )
    return out


def call_state(rec: ConversationRecord, checks: list[Checked]) -> CallState:
    """What the call says about itself before any judge: agent error, simulator error, cut short."""
    detail = f": {rec.end_detail}" if rec.end_detail else ""
    simulator = ""
    if rec.end_reason == "simulator_error":
        simulator = f"the simulator broke the call{detail}"
    failed = {c.event.check: c.event for c in checks if c.event.outcome == "fail"}
    strays = failed.get("caller_outside_facts")
    if not simulator and strays is not None and len(strays.evidence) > CALLER_OUTSIDE_FACTS_LIMIT:
        simulator = f"the simulated caller left its facts in {len(strays.evidence)} turns"
    broken = failed.get("stub_broken")
    if not simulator and broken is not None:
        simulator = f"a stub tool is broken: {broken.detail}"
    agent = f"the agent could not complete the call{detail}" if rec.end_reason == "agent_error" else ""
    return CallState(
        simulator_error=simulator,
        agent_error=agent,
        cut_short=(
            f"a re-driven call stopped at its divergence{detail}" if rec.end_reason == "diverged" else ""
        ),
    )
