"""Policies: a suite's declarative rules over one call's trace, each checked deterministically.

A policy is one of six kinds (see docs/policies.md):

* ``requires``: tool X only after tool Y answered with a result meeting conditions (with
  ``same``: on the same values of the named arguments);
* ``order``: tools that must come in this order when both happen;
* ``never``: a tool, or a tool with argument conditions, is never called;
* ``max_calls``: a tool is called at most so many times;
* ``never_say`` / ``must_say``: literal phrases, regexes or built-in detectors over the
  agent's speech.

Conditions are those of stub rules (:mod:`polygon.matching`). Each policy is recorded as a
check named ``policy:<name>``; the rubric gate ``check:policy`` fires when any of them
failed. The suite's schema validates policies at load (tools, arguments, detectors); here
they arrive as the plain data the run recorded, so imported and re-driven calls get the
same rules.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import msgspec

from polygon.events import CheckRecorded, Evidence
from polygon.matching import MatchTimeout, describe, holds
from polygon.score.detectors import DETECTORS, detect
from polygon.score.disclosure import DISCLOSURE, disclosures
from polygon.score.spelling import pattern_said, phrase_said
from polygon.suite import POLICY_KINDS
from polygon.transcript import ConversationView, ToolView, TurnView

POLICY_CHECK = "policy"
"""The gate ``check:policy`` fires when any ``policy:<name>`` check failed."""
KINDS = POLICY_KINDS


class Requires(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``tool`` only after ``after`` answered with a result meeting ``result``."""

    tool: str
    after: str
    result: dict[str, Any] = {}
    same: list[str] = []
    """Arguments ``tool``'s call must share with an ``after`` call that answered so."""


class Never(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``tool`` is never called (with ``when``: never with arguments meeting every condition)."""

    tool: str
    when: dict[str, Any] = {}


class MaxCalls(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``tool`` is called at most ``max`` times."""

    tool: str
    max: int


class Speech(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What to look for in the agent's speech: phrases (case aside), regexes, detectors."""

    phrases: list[str] = []
    matches: list[str] = []
    detectors: list[str] = []


class Policy(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One policy as the run recorded it (exactly one kind is set)."""

    name: str
    description: str = ""
    requires: Requires | None = None
    order: list[str] = []
    never: Never | None = None
    max_calls: MaxCalls | None = None
    never_say: Speech | None = None
    must_say: Speech | None = None
    off: bool = False
    """A built-in policy the suite turned off (``policies_from_prompt: false`` records
    ``{name: prompt_forbids, off: true}``): no kind, no check of its own."""

    def kind(self) -> str:
        """Which of :data:`KINDS` this policy is."""
        return next(k for k in KINDS if getattr(self, k))

    def rule(self) -> str:
        """The rule in words, for a check's detail and evidence."""
        r = self.requires
        if r is not None:
            cond = ", ".join(f"{k} {describe(v)}" for k, v in r.result.items())
            same = f", on the same {', '.join(r.same)}" if r.same else ""
            return (
                f"requires: {r.tool} only after {r.after} answered" + (f" with {cond}" if cond else "") + same
            )
        if self.order:
            return "order: " + " before ".join(self.order)
        if self.never is not None:
            cond = ", ".join(f"{k} {describe(v)}" for k, v in self.never.when.items())
            return f"never: {self.never.tool}" + (f" with {cond}" if cond else "")
        if self.max_calls is not None:
            return f"max_calls: {self.max_calls.tool} at most {self.max_calls.max} time(s)"
        speech = self.never_say or self.must_say
        assert speech is not None
        what = [*(f"{p!r}" for p in speech.phrases), *(f"/{m}/" for m in speech.matches)]
        what += [f"detector {d}" for d in speech.detectors]
        return f"{self.kind()}: {', '.join(what)}"


def decode(recorded: Sequence[dict[str, Any]]) -> list[Policy]:
    """Policies from the run's record (``run.started``)."""
    if not recorded:
        return []  # most suites set none: read for every call scored, and convert's own cost is ~2 µs
    return msgspec.convert(list(recorded), list[Policy])


def check_policies(
    view: ConversationView, policies: Sequence[Policy], prompt: str | None = None
) -> list[CheckRecorded]:
    """One ``policy:<name>`` check per policy, in the suite's order.

    ``prompt`` is the agent's prompt: the ``disclosure`` detector takes what it states as the
    business's own data.
    """
    return [_check(view, p, prompt) for p in policies if not p.off]


def turned_off(policies: Sequence[Policy], name: str) -> bool:
    """The suite turned the built-in policy ``name`` off."""
    return any(p.off and p.name == name for p in policies)


def _check(view: ConversationView, policy: Policy, prompt: str | None) -> CheckRecorded:
    kind = policy.kind()
    evidence = _speech(view, policy, prompt) if kind in _SPEECH else _KIND[kind](view, policy)
    rule = policy.rule()
    if kind == "must_say":
        outcome = "pass" if evidence else "fail"
        detail = f"said as required ({rule})" if evidence else f"never said ({rule})"
        evidence = evidence or _ending(view)
    elif evidence:
        outcome = "fail"
        detail = f"broken in {len({e.turn for e in evidence})} turn(s) ({rule})"
    else:
        outcome, detail = "pass", f"kept ({rule})"
    return CheckRecorded(
        conversation_id=view.conversation_id,
        check=f"{POLICY_CHECK}:{policy.name}",
        outcome=outcome,
        detail=detail,
        evidence=evidence,
    )


def _calls(view: ConversationView) -> list[tuple[TurnView, ToolView]]:
    """Every tool call in the order it was made."""
    return [(t, c) for t in view.turns for c in t.tools]


def _quote(t: TurnView, c: ToolView, rule: str) -> Evidence:
    args = json.dumps(c.arguments, ensure_ascii=False, sort_keys=True)
    return Evidence(turn=t.turn, at=c.at, quote=f"TOOL {c.tool}({args}) broke {rule}")


def _answered(c: ToolView, result: dict[str, Any]) -> bool:
    if c.error or not c.valid:
        return False
    values = c.result if isinstance(c.result, dict) else {}
    return all(_holds(values, k, cond) for k, cond in result.items())


def _holds(values: dict[str, Any], name: str, cond: Any) -> bool:
    try:
        return holds(values, name, cond)
    except MatchTimeout:
        return False


def _requires(view: ConversationView, policy: Policy) -> list[Evidence]:
    """Each guarded call made before a prerequisite call answered so (on its ``same`` arguments)."""
    r = policy.requires
    assert r is not None
    out: list[Evidence] = []
    answered: list[ToolView] = []  # the prerequisite's calls that answered as required, so far
    for t, c in _calls(view):
        if c.tool == r.after and _answered(c, r.result):
            answered.append(c)
        elif c.tool == r.tool and not any(_same(c, before, r.same) for before in answered):
            out.append(_quote(t, c, policy.rule()))
    return out


def _same(call: ToolView, before: ToolView, names: Sequence[str]) -> bool:
    """``call`` names the same value as ``before`` under each of ``names`` (trial40 defect 6).

    Verified R-48213, dispatched on R-55190: the two calls must agree on the booking. Values
    are compared as text with case and surrounding space aside ("r-48213 " is R-48213); an
    argument either call lacks agrees with nothing.
    """
    return all(
        name in call.arguments
        and name in before.arguments
        and _text(call.arguments[name]) == _text(before.arguments[name])
        for name in names
    )


def _text(value: Any) -> str:
    return str(value).strip().casefold()


def _order(view: ConversationView, policy: Policy) -> list[Evidence]:
    calls = _calls(view)
    first: dict[str, int] = {}
    for i, (_t, c) in enumerate(calls):
        first.setdefault(c.tool, i)
    out = []
    for a, later in zip(policy.order, policy.order[1:], strict=False):
        if a in first and later in first and first[later] < first[a]:
            t, c = calls[first[later]]
            out.append(_quote(t, c, f"order: {a} before {later}"))
    return out


def _never(view: ConversationView, policy: Policy) -> list[Evidence]:
    n = policy.never
    assert n is not None
    return [
        _quote(t, c, policy.rule())
        for t, c in _calls(view)
        if c.tool == n.tool and all(_holds(c.arguments, k, cond) for k, cond in n.when.items())
    ]


def _max_calls(view: ConversationView, policy: Policy) -> list[Evidence]:
    m = policy.max_calls
    assert m is not None
    made = [(t, c) for t, c in _calls(view) if c.tool == m.tool]
    return [_quote(t, c, policy.rule()) for t, c in made[m.max :]]


def said(text: str, speech: Speech) -> list[str]:
    """What of ``speech`` the text holds, each named.

    Phrases and patterns are matched case aside, umlauts spelled either way, a phrase's
    number however it is said (:mod:`polygon.score.spelling`).
    """
    found = [f"{p!r}" for p in speech.phrases if phrase_said(p, text)]
    for pattern in speech.matches:
        try:
            if pattern_said(pattern, text):
                found.append(f"/{pattern}/")
        except MatchTimeout:
            continue
    for name in speech.detectors:
        if name in DETECTORS:  # the grounded ones read the whole call (_speech)
            found += [f"{name} {h.quote!r}" for h in detect(name, text)]
    return found


def _speech(view: ConversationView, policy: Policy, prompt: str | None) -> list[Evidence]:
    speech = policy.never_say or policy.must_say
    assert speech is not None
    disclosed = disclosures(view, prompt) if DISCLOSURE in speech.detectors else {}
    out = []
    for t in view.turns:
        found = said(t.agent_text or "", speech)
        found += [f"{DISCLOSURE} {h.quote!r}" for h in disclosed.get(t.turn, [])]
        if found:
            out.append(
                Evidence(turn=t.turn, at=t.agent_at, quote=f"AGENT: {t.agent_text} [{'; '.join(found)}]")
            )
    return out


def _ending(view: ConversationView) -> list[Evidence]:
    e = view.ended
    if e is None:
        return []
    return [Evidence(turn=e.turns, at=view.ended_at, quote=f"ended: {e.reason} by {e.by}")]


_SPEECH = ("never_say", "must_say")
_KIND = {
    "requires": _requires,
    "order": _order,
    "never": _never,
    "max_calls": _max_calls,
}
