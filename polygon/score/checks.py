"""Deterministic checks: small pure functions over the transcript.

Each returns pass / fail / n/a with evidence (turn, log position, quote). Checks that need
a persona or ground truth are n/a without one (an imported real call, say). The check on
the caller itself is a simulator check, reported apart from the agent's score.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from polygon.events import CheckRecorded, ConversationEnded, Evidence, Expectation, PersonaSnapshot
from polygon.languages import LANGUAGES, load_language, read_turn
from polygon.matching import MatchTimeout, describe, holds
from polygon.score.agent_language import language_policy
from polygon.score.denial import refusal
from polygon.score.detectors import detect
from polygon.score.disclosure import DISCLOSURE, disclosures, law_number
from polygon.score.duplicates import duplicated
from polygon.score.hangup import SETTLING_ACTS, answer_to_ask, unsettled_hangup
from polygon.score.policies import Policy, check_policies, turned_off
from polygon.score.prompt_forbids import NAME as PROMPT_POLICY
from polygon.score.prompt_forbids import prompt_policy
from polygon.score.recorded import check_recorded as _result
from polygon.score.says import unsaid
from polygon.score.silence import agent_silent
from polygon.score.spelling import phrase_said
from polygon.score.spoken import allowed_by, invented_against
from polygon.score.swallowed import Swallowed, swallowed
from polygon.score.tool_facts import agent_contradicts_tools
from polygon.similarity import LoopWatch, garbled, is_loop, lost_a_fact, unanswered
from polygon.suite import DETECTOR_PREFIX, FALLBACK_ENDS
from polygon.transcript import ConversationView, ToolView, TurnView

BAD_ENDINGS = ("agent_error", "max_turns", "loop")
AGENT_CHECKS = (
    "forbidden_phrase",
    "invalid_tool_args",
    "invalid_tool_answer",
    "loop",
    "end_reason",
    "turn_count",
    "tool_faults",
    "goal_reached",
    "agent_contradicts_facts",
    "agent_contradicts_tools",
    "latency",
    "policy",
    "agent_silent",
)
"""Checks on the agent (a rubric may gate on them as ``check:<id>``); ``caller_outside_facts``
is a check on the simulator and never gates the agent."""
_DIGITS = re.compile(r"\d[\d -]{4,}\d")


def _agent_quote(t: TurnView) -> Evidence:
    return Evidence(turn=t.turn, at=t.agent_at, quote=f"AGENT: {t.agent_text or ''}")


def forbidden_phrase(
    view: ConversationView, phrases: Sequence[str], prompt: str | None = None
) -> CheckRecorded:
    """A forbidden phrase in the agent's speech (``detector:disclosure`` reads the whole call)."""
    if not phrases:
        return _result(view, "forbidden_phrase", "n/a", "the suite forbids no phrases")
    disclosed = disclosures(view, prompt) if DETECTOR_PREFIX + DISCLOSURE in phrases else {}
    hits = []
    for t in view.turns:
        if _forbidden_in(t.agent_text or "", phrases) or t.turn in disclosed:
            hits.append(Evidence(turn=t.turn, at=t.agent_at, quote=f"AGENT: {t.agent_text}"))
    if hits:
        return _result(
            view, "forbidden_phrase", "fail", f"forbidden phrase in {len(hits)} agent turn(s)", hits
        )
    return _result(view, "forbidden_phrase", "pass", f"none of {len(phrases)} forbidden phrases said")


def _forbidden_in(text: str, phrases: Sequence[str]) -> list[str]:
    """The phrases (or ``detector:<name>`` entries) that ``text`` holds, matched as policies match."""
    out = []
    for p in phrases:
        if p == DETECTOR_PREFIX + DISCLOSURE:
            continue  # grounded: forbidden_phrase reads it over the whole call
        name = p.removeprefix(DETECTOR_PREFIX)
        if detect(name, text) if p.startswith(DETECTOR_PREFIX) else phrase_said(p, text):
            out.append(p)
    return out


def invalid_tool_args(view: ConversationView) -> CheckRecorded:
    """Tool calls whose arguments broke the tool's schema (only calls a schema was known for)."""
    calls = [(t, c) for t in view.turns for c in t.tools if c.validated]
    if not calls:
        unchecked = any(t.tools for t in view.turns)
        return _result(
            view, "invalid_tool_args", "n/a", "no schema to check against" if unchecked else "no tool calls"
        )
    bad = [
        Evidence(turn=t.turn, at=c.at, quote=f"{c.tool}: {'; '.join(c.validation_errors)}")
        for t, c in calls
        if not c.valid
    ]
    if bad:
        return _result(view, "invalid_tool_args", "fail", f"{len(bad)} of {len(calls)} calls invalid", bad)
    return _result(view, "invalid_tool_args", "pass", f"all {len(calls)} calls valid")


def _unretried_invalid(t: TurnView) -> list[ToolView]:
    """The turn's invalid tool calls that no later valid call of the same tool put right."""
    valid_from: dict[str, int] = {}  # each tool's last valid call: one pass, not one per call
    for i, call in enumerate(t.tools):
        if call.valid:
            valid_from[call.tool] = i
    return [c for i, c in enumerate(t.tools) if not c.valid and valid_from.get(c.tool, -1) <= i]


def invalid_tool_answer(view: ConversationView) -> CheckRecorded:
    """An invalid tool call that was followed by an answer to the caller (no valid retry)."""
    calls = [c for t in view.turns for c in t.tools if c.validated]
    if not calls:
        return _result(view, "invalid_tool_answer", "n/a", "no validated tool calls")
    hits = []
    for t in view.turns:
        unretried = _unretried_invalid(t) if t.agent_text else []
        hits += [Evidence(turn=t.turn, at=c.at, quote=f"{c.tool}: invalid arguments") for c in unretried]
        # The answer quoted once per turn, not once per call: 32 invalid calls beside a long
        # text repeated that text 32 times in the check, its gate and every report.
        hits += [_agent_quote(t)] if unretried else []
    if hits:
        return _result(
            view,
            "invalid_tool_answer",
            "fail",
            "the agent answered the caller after an invalid tool call",
            hits,
        )
    return _result(view, "invalid_tool_answer", "pass", "no answer rested on an invalid call")


def loop_flag(view: ConversationView) -> CheckRecorded:
    """The agent repeated itself: two consecutive replies overlap 90% or more (from the transcript).

    Computed from what was said, so imported and re-driven calls get it too; a simulated
    call the engine stopped on a loop carries the same two replies.
    """
    said = [t for t in view.turns if t.agent_text is not None]
    persona = _persona(view)
    repeat, reasks = _repeat(said, list(persona.facts.values()) if persona else [])
    if repeat is not None:
        before, after = repeat
        evidence = [_agent_quote(before), _agent_quote(after)]
        why = (
            "the agent's last two replies overlapped 90% or more"
            if after is said[-1]
            else f"the agent's replies at turns {before.turn} and {after.turn} overlapped 90% or more"
        )
        return _result(view, "loop", "fail", why, evidence)
    if cycle := _two_reply_cycle(said):
        first, last = cycle
        why = (
            f"the agent cycled between two replies from turn {first.turn} to turn {last.turn} "
            "(each overlapped its turn-before-last 90% or more)"
        )
        return _result(view, "loop", "fail", why, [_agent_quote(first), _agent_quote(last)])
    if view.ended is not None and view.ended.loop_detected:
        final = view.turns[-1] if view.turns else None
        evidence = [_agent_quote(final)] if final else []
        return _result(view, "loop", "fail", "the agent's last two replies overlapped 90% or more", evidence)
    if len(said) < 2:
        outcome = "pass" if view.ended is not None else "n/a"
        return _result(view, "loop", outcome, "fewer than two agent replies")
    if reasks:
        return _result(view, "loop", "pass", _reasked(reasks), [_agent_quote(t) for t in reasks])
    return _result(view, "loop", "pass", "no loop")


def _reasked(reasks: list[TurnView]) -> str:
    """Why the re-asks were no loop: noise garbled the answer, the caller gave none, or cut in."""
    causes = {
        "noise": "noise garbled the answer",
        "none": "the caller gave no answer",
        "cut": "the caller cut in",
    }
    why: list[str] = []
    for cause, said in causes.items():
        turns = ", ".join(str(t.turn) for t in reasks if _reask_cause(t) == cause)
        why += [f"asked again after {said} at turn {turns}"] if turns else []
    return f"no loop ({'; '.join(why)})"


def _reask_cause(t: TurnView) -> str:
    """What excused the repeat at this turn (the barge-in first: it excuses every time)."""
    if _barged(t):
        return "cut"
    return "noise" if garbled(op.kind for op in t.noise_ops) else "none"


def _barged(t: TurnView) -> bool:
    """The caller cut in on the agent's reply before this turn (it never heard it whole)."""
    return any(p.kind == "barge_in" for p in t.phone)


def _repeat(
    said: list[TurnView], facts: list[str]
) -> tuple[tuple[TurnView, TurnView] | None, list[TurnView]]:
    """The first reply pair the engine's loop rule stops on, and the re-asks it let pass before.

    The same :class:`LoopWatch` as the engine: a reply to a silence is not compared, a repeat
    after the caller cut in (barge-in) or after the noise lost a word of one of ``facts``, and one
    repeat after a caller turn that held no answer as heard (garbled by noise, or no answer
    given) are re-asks; so the check never flags what the engine let go on, and flags what it
    stopped.
    """
    watch = LoopWatch()
    reasks: list[TurnView] = []
    before: TurnView | None = None
    for t in said:
        silent = any(p.kind == "silence" for p in t.phone)
        noisy = unanswered((op.kind for op in t.noise_ops), t.caller_intent)
        heard = t.heard_text if t.heard_text is not None else t.caller_text
        lost = lost_a_fact(((op.kind, op.before) for op in t.noise_ops), facts)
        seen = watch.see(
            t.agent_text or "", silent=silent, noisy=noisy, cut=_barged(t), heard=heard, lost=lost
        )
        if seen == "loop" and before is not None:
            return (before, t), reasks
        if seen == "reask":
            reasks.append(t)
        if not silent:
            before = t
    return None, reasks


CYCLE_REPLIES = 6
"""A B A B A B: a pair said three times. Twice is what a patient agent does when it re-asks a
caller it cannot hear in two wordings (then transfers); three times it is going nowhere."""


def _two_reply_cycle(said: list[TurnView]) -> tuple[TurnView, TurnView] | None:
    """Replies in a row cycling between two (each 90%+ like the one two before), first and last.

    Consecutive replies differ, so the seed's two-reply rule misses it; an agent that
    alternates a greeting and a confirmation until the turn limit is looping all the same.
    """
    texts = [t.agent_text or "" for t in said]
    run = 0  # replies so far, in a row, that repeat the one two before
    for i in range(2, len(texts)):
        run = run + 1 if is_loop(texts[i - 2], texts[i]) else 0
        if run + 2 >= CYCLE_REPLIES:
            return said[i + 1 - CYCLE_REPLIES], said[i]
    return None


def end_reason(view: ConversationView) -> CheckRecorded:
    """How the call ended."""
    e = view.ended
    if e is None:
        return _result(view, "end_reason", "n/a", "the call has no end")
    ev = [Evidence(turn=e.turns, at=view.ended_at, quote=f"ended: {e.reason} by {e.by}")]
    outcome = "fail" if e.reason in BAD_ENDINGS else "pass"
    return _result(
        view,
        "end_reason",
        outcome,
        f"{e.reason} by {e.by}" + (f": {e.detail}" if e.detail else ""),
        ev,
    )


def turn_count(view: ConversationView) -> CheckRecorded:
    """Turns used against the limit."""
    limit = view.started.max_turns if view.started else 0
    n = len(view.turns)
    if not limit:
        return _result(view, "turn_count", "n/a", f"{n} turns, no limit")
    return _result(view, "turn_count", "fail" if n >= limit else "pass", f"{n} of {limit} turns")


def tool_faults(view: ConversationView) -> CheckRecorded:
    """Injected tool faults met, and whether the call survived them.

    A call that went on to its end did not survive a failed tool when the agent reported an
    outcome over it (:mod:`polygon.score.swallowed`): the in-band failures too (``{"error":
    …}``), which no fault injected, so an imported call is read the same way.
    """
    met = [
        Evidence(turn=t.turn, at=c.at, quote=f"{c.tool}: {c.fault}")
        for t in view.turns
        for c in t.tools
        if c.fault
    ]
    hidden = swallowed(view)
    if hidden:
        evidence = [e for s in hidden for e in s.evidence()]
        faults = f"{len(met)} fault(s) met; " if met else ""
        what = "an outcome over nothing to deliver" if hidden[0].none_left else "not recovered"
        return _result(view, "tool_faults", "fail", f"{faults}{what}: {hidden[0].phrase()}", evidence)
    if not met:
        return _result(view, "tool_faults", "n/a", "no injected faults met")
    survived = view.ended is not None and view.ended.reason not in BAD_ENDINGS
    return _result(
        view,
        "tool_faults",
        "pass" if survived else "fail",
        f"{len(met)} fault(s) met; the call {'recovered' if survived else 'broke down'}",
        met,
    )


def _persona(view: ConversationView) -> PersonaSnapshot | None:
    return view.started.persona if view.started else None


def _claimed_for_caller(view: ConversationView, persona: PersonaSnapshot) -> list[str]:
    """Store entries that changed during the call, keyed by the caller or to a value naming them.

    A store keyed by the customer ("orders": {"Ana Horvat": none}, written by a ``put`` with
    ``key_arg: name``) holds the order, not the name, as its value: the pizza example's correct
    agent placed every order and failed every ordering call without ``expect`` ("nothing was
    booked for the caller", adversary: 12 of 12).
    """
    if view.started is None or view.ended is None:
        return []
    name_tokens = {w.lower() for w in persona.facts.get("name", "").split() if len(w) > 1}
    changed = []
    for store, before in view.started.initial_state.items():
        after = view.ended.final_state.get(store, {})
        if not isinstance(after, dict):
            continue
        for key, value in after.items():
            if before.get(key) != value and (
                not name_tokens or name_tokens & set(f"{key} {value}".lower().split())
            ):
                changed.append(f"{store}[{key}] = {value}")
    return changed


FALLBACK = "inferred without expect (weaker)"
"""How ``goal_reached`` labels a verdict drawn without the scenario's ``expect``."""


def goal_reached(view: ConversationView) -> CheckRecorded:
    """Was the persona's intended outcome reached?

    With the scenario's ``expect``, by the call's end state alone: store values, tool calls
    made and not made, the end reason (how τ-bench grades). Without it, a weaker inference
    from the end reason, store entries naming the caller and, for a refusal, whether the
    agent's last settling act was one (:func:`_refused_last`), labelled so. Either way, and
    for an imported call with no persona, an outcome the agent reported over a failed tool
    call (:mod:`polygon.score.swallowed`) is no goal reached.
    """
    persona = _persona(view)
    if view.ended is None:
        return _result(view, "goal_reached", "n/a", "no persona or no end: nothing to compare")
    e = view.ended
    ev = [Evidence(turn=e.turns, at=view.ended_at, quote=f"ended: {e.reason} by {e.by}")]
    hidden = swallowed(view)
    if persona is None:
        if hidden:
            return _result(view, "goal_reached", "fail", _swallow_detail(hidden), _with(hidden, ev))
        return _result(view, "goal_reached", "n/a", "no persona or no end: nothing to compare")
    expect = view.started.expect if view.started else None
    if expect is not None:
        misses = unmet(view, expect, persona.facts)
        if hung_up := unsettled_hangup(view, persona):  # "nothing happened" is no expected end
            misses.append(hung_up)
        if instead := _reported_not_refused(view, persona):
            misses.append(instead)
        if hidden:
            misses.append(_swallow_detail(hidden))
        if twice := duplicated(view, persona):
            misses.append(twice)
        if misses:
            return _result(view, "goal_reached", "fail", "expect: " + "; ".join(misses), _with(hidden, ev))
        return _result(view, "goal_reached", "pass", _met(view, expect, e.reason), ev)
    ok, why = _outcome(view, persona)
    if ok and hidden:
        ok, why = False, _swallow_detail(hidden)
    if ok and (twice := duplicated(view, persona)):
        ok, why = False, twice
    if ok:
        return _result(view, "goal_reached", "pass", f"{persona.outcome} ({FALLBACK}): {why}", ev)
    # a failing gate's detail says what was not reached, never just the outcome's name
    detail = f"{persona.outcome} not reached ({FALLBACK}): {why}"
    return _result(view, "goal_reached", "fail", detail, _with(hidden, ev))


def _met(view: ConversationView, expect: Expectation, reason: str) -> str:
    if _fell_back(view, expect, reason):
        return f"expect: met by fallback_end ({reason} after every call of an expected tool failed)"
    return "expect: every expected end state was met"


def _swallow_detail(hidden: list[Swallowed]) -> str:
    more = f" (and {len(hidden) - 1} more such report(s))" if len(hidden) > 1 else ""
    return hidden[0].phrase() + more


def _with(hidden: list[Swallowed], ev: list[Evidence]) -> list[Evidence]:
    return [e for s in hidden for e in s.evidence()] + ev


def unmet(view: ConversationView, expect: Expectation, facts: dict[str, str]) -> list[str]:
    """What of ``expect`` the call's end state does not meet, one phrase each."""
    e = view.ended
    assert e is not None
    if _fell_back(view, expect, e.reason):  # the tool was down and the agent handed the caller on
        fell = _failed_with_other_args(view, expect, facts)
        return fell + _unmet_order(view, expect) + unsaid(view, expect)
    out = []
    if expect.end and e.reason not in expect.end:
        out.append(f"ended {e.reason}, expected {' or '.join(expect.end)}")
    for store, keys in expect.state.items():
        final = e.final_state.get(store, {})
        values = final if isinstance(final, dict) else {}
        for key, cond in keys.items():
            if not _meets(values, key, cond, facts):
                now = repr(values[key]) if key in values else "absent"
                out.append(f"{store}[{key}] is {now}, expected {describe(cond, facts)}")
    calls = [c for t in view.turns for c in t.tools if c.valid and not c.error]
    for tool, args in expect.calls.items():
        made = [c for c in calls if c.tool == tool]
        if not any(all(_meets(c.arguments, a, cond, facts) for a, cond in args.items()) for c in made):
            # a finding, not a rule: say that no such call was made, and what was made instead
            wanted = ", ".join(f"{a} {describe(cond, facts)}" for a, cond in args.items())
            seen = f"; the last one made had {_args_of(made[-1].arguments)}" if made else ""
            head, failures = _no_call(view, tool, made)
            hint = _fallback_hint(expect, e, failures)
            out.append(head + (f" with {wanted}" if wanted else "") + failures + seen + hint)
    return out + _unmet_order(view, expect) + unsaid(view, expect)


def _fallback_hint(expect: Expectation, ended: ConversationEnded, failures: str) -> str:
    """When every call of the tool failed and the call then ended calmly: how to say that is right.

    A correct agent that hands the caller on while the tool is down fails ``goal_reached``
    unless the scenario says a hand-off is right; a new user met it as a false fail (stop 43).
    """
    if not failures or expect.fallback_end or ended.reason not in FALLBACK_ENDS:
        return ""
    return (
        f"; the call then ended by {ended.reason}: if that is right while the tool is down, "
        f"add fallback_end: [{ended.reason}] to the scenario's expect"
    )


def _unmet_order(view: ConversationView, expect: Expectation) -> list[str]:
    """The tools that must not be called and the orders of calls, as unmet phrases."""
    called = {c.tool for t in view.turns for c in t.tools}
    out = [f"{tool} was called" for tool in expect.no_calls if tool in called]
    for order in expect.before:
        out += _out_of_order(view, order)
    return out


def _fell_back(view: ConversationView, expect: Expectation, reason: str) -> bool:
    """The call ended in a ``fallback_end`` reason after every call of an expected tool failed."""
    if reason not in expect.fallback_end:
        return False
    for tool in expect.calls:
        tried = [c for t in view.turns for c in t.tools if c.tool == tool]
        if tried and all(c.error for c in tried):
            return True
    return False


def _failed_with_other_args(view: ConversationView, expect: Expectation, facts: dict[str, str]) -> list[str]:
    """The expected tools whose failed calls carried none of the expected arguments.

    ``fallback_end`` stands in for the call's success, not for its arguments: a payment plan
    sent with 100 where the caller said 50 is the agent's error whether or not the tool was down
    (trial45 D11).
    """
    out = []
    for tool, args in expect.calls.items():
        tried = [c for t in view.turns for c in t.tools if c.tool == tool]
        if not tried or not args:
            continue
        if not any(all(_meets(c.arguments, a, cond, facts) for a, cond in args.items()) for c in tried):
            wanted = ", ".join(f"{a} {describe(cond, facts)}" for a, cond in args.items())
            last = _args_of(tried[-1].arguments)
            out.append(f"no {tool} call with {wanted} (the last one, which failed, had {last})")
    return out


def _no_call(view: ConversationView, tool: str, made: list[ToolView]) -> tuple[str, str]:
    """Say that no X call was made or, when every call of X failed, how many answered errors.

    Two parts, the argument conditions go between: ("no successful X call", " (2 calls
    answered errors)"). "No X call was made" when two were made and answered 500 sent the
    reader looking for an agent that never called (trial40 defect 13).
    """
    failed = [c for t in view.turns for c in t.tools if c.tool == tool and (c.error or not c.valid)]
    if made or not failed:
        return f"no {tool} call was made", ""
    errors = sum(1 for c in failed if c.error)
    invalid = len(failed) - errors
    parts = [
        f"{n} call{'s' if n > 1 else ''} {what}"
        for n, what in (
            (errors, "answered errors" if errors > 1 else "answered an error"),
            (invalid, "had invalid arguments"),
        )
        if n
    ]
    return f"no successful {tool} call", f" ({', '.join(parts)})"


def _out_of_order(view: ConversationView, order: Sequence[str]) -> list[str]:
    """``before``: each tool's first call comes after an unrefused call of the previous one.

    A refused call (:mod:`polygon.score.denial`: an error, ``verified: false``) is no prerequisite.
    """
    calls = [c for t in view.turns for c in t.tools]
    first: dict[str, int] = {}
    accepted: dict[str, int] = {}
    for i, c in enumerate(calls):
        first.setdefault(c.tool, i)
        if not refusal(c):
            accepted.setdefault(c.tool, i)
    out = []
    for earlier, later in zip(order, order[1:], strict=False):
        if earlier not in first or later not in first:
            missing = earlier if earlier not in first else later
            out.append(f"{missing} was not called, expected {earlier} before {later}")
        elif first[later] < first[earlier]:
            out.append(f"{later} was called before {earlier}")
        elif accepted.get(earlier, len(calls)) > first[later]:
            refused = next(c for c in reversed(calls[: first[later]]) if c.tool == earlier)
            out.append(f"{later} was called after {earlier} was refused ({refusal(refused)})")
    return out


def _meets(values: dict[str, Any], key: str, cond: Any, facts: dict[str, str]) -> bool:
    try:
        return holds(values, key, cond, facts)
    except MatchTimeout:
        return False


def _args_of(arguments: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in sorted(arguments.items()))


def _outcome(view: ConversationView, persona: PersonaSnapshot) -> tuple[bool, str]:
    e = view.ended
    assert e is not None
    claims = _claimed_for_caller(view, persona)
    has_state = bool(view.started and view.started.initial_state)
    if persona.outcome == "success":
        if claims or (not has_state and e.reason == "caller_done"):
            return True, "booked: " + ", ".join(claims) if claims else f"ended {e.reason}"
        if e.reason in ("hangup", "caller_done") and (answer := answer_to_ask(view, persona)):
            # a caller who only asked wanted an answer, not a booking (opening hours, a price)
            return True, f"the caller only asked, and the agent answered: {answer!r}"
        return False, "nothing was booked for the caller" if has_state else f"ended {e.reason}"
    if persona.outcome == "transfer":
        return e.reason == "transfer", f"ended {e.reason}"
    if persona.outcome == "callback":
        done = [c for t in view.turns for c in t.tools if "callback" in c.tool and c.valid and not c.error]
        return bool(done), "callback registered" if done else "no callback was registered"
    if instead := _reported_not_refused(view, persona):
        return False, instead
    refused = e.by == "caller" and e.reason in ("hangup", "caller_done") and not claims
    if refused:
        return True, "the caller declined and nothing was booked"
    if e.by == "agent" and e.reason == "hangup" and not claims and _refused_last(view, persona):
        return True, "the agent refused, did nothing after, and hung up"
    return False, f"ended {e.reason}"


_PARTING = frozenset({"closing", "greeting", "filler"})
"""Acts of a turn that only parts with the caller ("Vielen Dank für Ihren Anruf. Auf Wiederhören!")."""


def _reported_not_refused(view: ConversationView, persona: PersonaSnapshot) -> str:
    """On a call the caller was to be refused: the agent refused nothing and reported an outcome.

    "Возврат оформлен, деньги будут возвращены" to a caller whose fare gives no refund met
    ``no_calls: [issue_refund]`` (the agent never called it) and passed (trial45 D3): a caller
    told it is done leaves believing it. Read on the agent's last turn: an outcome beside a
    refusal anywhere in the call ("I can't refund it; I've noted your complaint") or a hand-off
    is no such report.
    """
    e = view.ended
    if persona.outcome != "refusal" or e is None or e.reason == "transfer":
        return ""
    if persona.language not in LANGUAGES:
        return ""
    pack = load_language(persona.language)
    read = [read_turn(t.agent_text or "", pack) for t in view.turns]
    if any("refusal" in turn.acts for turn in read):
        return ""
    # the agent's last words: an outcome asked about earlier ("…the name the ticket is issued
    # to") is no report the call ended on; a goodbye after the report is not its last word
    # (trial4: "Erledigt — nachbestellt", the caller's reply, "Auf Wiederhören!" passed)
    last = next((turn for turn in reversed(read) if turn.acts - _PARTING), None)
    told = last.of("outcome") if last is not None else []
    if not told:
        return ""
    said = told[-1]
    return f"the caller was to be refused, yet the agent refused nothing and ended on an outcome: {said!r}"


def _refused_last(view: ConversationView, persona: PersonaSnapshot) -> bool:
    """The agent's last settling act was a refusal, and no tool went through after it.

    A correct agent that says "I can't give you those records" and hangs up reached the
    refusal (tester43 D5); one that read the records out, or refused and then called the
    tool anyway, did not: its last word is no refusal, or a tool answered after it.
    """
    if persona.language not in LANGUAGES:
        return False
    pack = load_language(persona.language)
    last, after = "", False
    for t in view.turns:
        # a reply follows its turn's tools: a tool in the refusal's own turn came before it
        after = after or (last == "refusal" and any(c.valid and not c.error for c in t.tools))
        acts = [s.act for s in read_turn(t.agent_text or "", pack).sentences if s.act in SETTLING_ACTS]
        if acts:
            last, after = acts[-1], False
    return last == "refusal" and not after


def _numbers(text: str) -> set[str]:
    """The phone-like numbers of a text.

    Not a regulation's ("Regulation EC 261 2004": nobody's), nor a date written as one
    ("2026-12-08": the check leaves every date to the judge).
    """
    return {
        re.sub(r"\D", "", m.group(0)).lstrip("0")
        for m in _DIGITS.finditer(text)
        if not law_number(text, m.start()) and not _ISO_DATE.fullmatch(m.group(0))
    }


_ISO_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")


def _tool_numbers(view: ConversationView) -> set[str]:
    """The phone-like numbers the call's tools were sent or answered: read out, they contradict no fact."""
    return set().union(
        *(_numbers(json.dumps([c.arguments, c.result], default=str)) for t in view.turns for c in t.tools)
    )


def agent_contradicts_facts(view: ConversationView) -> CheckRecorded:
    """The agent stated a phone-like number the caller never gave, nor a tool was sent or answered.

    Names and dates are left to the judge: a heuristic would misfire on them. A number a tool
    gave is no contradiction of the caller's facts (another customer's read out is a disclosure,
    :mod:`polygon.score.disclosure`): a correct parcel agent lost 7.5 points on every call for
    reading out the delivery date the lookup answered (trial3).
    """
    persona = _persona(view)
    if persona is None:
        return _result(view, "agent_contradicts_facts", "n/a", "no ground truth")
    known = set().union(*(_numbers(v) for v in persona.facts.values())) | _tool_numbers(view)
    bad = [_agent_quote(t) for t in view.turns if _numbers(t.agent_text or "") - known]
    if bad:
        return _result(
            view,
            "agent_contradicts_facts",
            "fail",
            "the agent stated a number the caller never gave",
            bad,
        )
    return _result(view, "agent_contradicts_facts", "pass", "no statement contradicts the caller's facts")


def caller_outside_facts(view: ConversationView) -> CheckRecorded:
    """Simulator check: the caller stated a date, long number or weekday that is not in its facts.

    Values are normalised before they are compared (:mod:`polygon.score.spoken`): a date in
    any common written form, digits or number words, any spacing or punctuation in a long
    number, case. Each fact is read on its own, and echoing the agent is not straying ("No —
    18:30, not 18:00" repeats the agent's 18:00). The evidence names the words taken for
    invented.
    """
    persona = _persona(view)
    if persona is None:
        return _result(view, "caller_outside_facts", "n/a", "no simulated caller", simulator=True)
    # What the caller may say grows by each agent turn it heard: each text is read once (a
    # union of every text's values equals reading them all again at every turn).
    allowed: set[str] = set()
    for fact in persona.facts.values():
        allowed |= allowed_by(fact)
    bad = []
    for t in view.turns:
        strays = invented_against(t.caller_text, allowed)
        allowed |= allowed_by(t.agent_text or "")
        if strays:
            words = ", ".join(repr(w) for w in strays)
            quote = f"CALLER: {t.caller_text} [not in its facts: {words}]"
            bad.append(Evidence(turn=t.turn, at=t.caller_at, quote=quote))
    if bad:
        return _result(
            view,
            "caller_outside_facts",
            "fail",
            "the caller said something outside its facts: "
            + "; ".join(q.quote.rsplit("[not in its facts: ", 1)[1].rstrip("]") for q in bad),
            bad,
            simulator=True,
        )
    return _result(view, "caller_outside_facts", "pass", "the caller kept to its facts", simulator=True)


def latency(view: ConversationView) -> CheckRecorded:
    """The p95 of the agent's turn latency in this call, against the suite's budget."""
    budget = view.started.latency_budget_ms if view.started else 0.0
    if not budget or view.ended is None:
        return _result(view, "latency", "n/a", "the suite sets no latency_budget_ms")
    if view.imported is not None and not any(t.agent_latency_ms for t in view.turns):
        return _result(view, "latency", "n/a", "the imported call carries no per-turn timing")
    p95 = view.ended.latency_p95_ms
    slowest = max(
        (t for t in view.turns if t.agent_text is not None), key=lambda t: t.agent_latency_ms, default=None
    )
    ev = (
        [
            Evidence(
                turn=slowest.turn,
                at=slowest.agent_at,
                quote=f"{slowest.agent_latency_ms:.0f} ms: AGENT: {slowest.agent_text}",
            )
        ]
        if slowest
        else []
    )
    if p95 > budget:
        return _result(view, "latency", "fail", f"p95 {p95:.0f} ms over the budget of {budget:.0f} ms", ev)
    return _result(view, "latency", "pass", f"p95 {p95:.0f} ms within the budget of {budget:.0f} ms", ev)


def stub_broken(view: ConversationView) -> CheckRecorded:
    """Simulator check: a stub tool failed by its own configuration (a template that does not render)."""
    broken = [
        Evidence(turn=t.turn, at=c.at, quote=f"{c.tool}: {c.error}")
        for t in view.turns
        for c in t.tools
        if c.stub_broken
    ]
    if broken:
        return _result(view, "stub_broken", "fail", broken[0].quote, broken, simulator=True)
    return _result(view, "stub_broken", "pass", "every stub answered by its configuration", simulator=True)


ALL: tuple[Callable[[ConversationView], CheckRecorded], ...] = (
    invalid_tool_args,
    invalid_tool_answer,
    loop_flag,
    end_reason,
    turn_count,
    tool_faults,
    goal_reached,
    agent_contradicts_facts,
    latency,
    caller_outside_facts,
    stub_broken,
)


def run_checks(
    view: ConversationView,
    *,
    forbidden: Sequence[str],
    policies: Sequence[Policy] = (),
    prompt: str | None = None,
) -> list[CheckRecorded]:
    """Every check in a fixed order, each suite policy's ``policy:<name>``, then the built-in ones.

    ``prompt`` (the agent's, when known) is the business's own data to the ``disclosure``
    detector, and grounds what ``agent_contradicts_tools`` reads. The built-in policies: every
    simulated call holds that the agent speaks its language; a call whose prompt forbids
    promising a refund (compensation, …) holds that the agent promises none.
    """
    return (
        [forbidden_phrase(view, forbidden, prompt)]
        + [check(view) for check in ALL]
        + [agent_contradicts_tools(view, prompt)]
        + check_policies(view, policies, prompt)
        + language_policy(view)
        + prompt_policy(view, prompt, on=not turned_off(policies, PROMPT_POLICY))
        + agent_silent(view)  # only for a call with a silent agent turn: other calls keep their events
    )
