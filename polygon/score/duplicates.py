"""A write the call made twice: the same order placed again, a second slot held for one caller.

The end state hides both. A stub store keyed by the customer holds one order however often it
was put, and a second slot claimed for the caller meets an ``expect`` that names the first. The
pizza examples' agent that placed each order twice in one turn passed 22 of 24 calls with
``expect:``, and the clinic's that held two slots for one patient passed 12 of 18 (adversary).

A write no store shows (a ``fixed`` or ``template`` stub) is read by the tool's name: one that
names no read ("order_replacement", not "order_status") called :data:`REPEATS` times with the
same arguments, each answered without a failure, made one write again. A new-user trial's agent
that ordered three replacement cards for one caller passed at 100. Two such calls are not read:
the agent may have retried a call it could not tell went through.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict

from polygon.events import PersonaSnapshot
from polygon.score.denial import failed_answer
from polygon.score.json_strings import key_words
from polygon.transcript import ConversationView

REPEATS = 3
"""Identical answered calls of a tool no store shows that are read as one write made again."""
READS = frozenset(
    ("find", "get", "list", "search", "check", "lookup", "look", "available", "status", "verify")
    + ("validate", "read", "fetch", "query", "show", "describe", "quote", "balance", "history", "info")
    + ("details",)
)
"""Words of a tool's name (split at ``_``, ``-`` and case) that say it only reads."""


def duplicated(view: ConversationView, persona: PersonaSnapshot) -> str:
    """What the call wrote twice, in words ("" for nothing).

    A tool that wrote (an argument of its holds a key or a value of a store entry the call
    changed) called twice with the same arguments, both answered; or two entries of one store
    changed to the same value naming the caller (the persona's ``name``).
    """
    changed = _changed(view)
    if changed and (found := _same_write(view, changed) or _held_twice(changed, persona)):
        return found
    return _repeated(view)


def _changed(view: ConversationView) -> list[tuple[str, str, str]]:
    """Each store entry the call changed: store, key, value (as text)."""
    if view.started is None or view.ended is None:
        return []
    out = []
    for store, before in view.started.initial_state.items():
        after = view.ended.final_state.get(store, {})
        if isinstance(after, dict) and isinstance(before, dict):
            out += [(store, str(k), str(v)) for k, v in after.items() if before.get(k) != v]
    return out


def _same_write(view: ConversationView, changed: list[tuple[str, str, str]]) -> str:
    written = {text for _, key, value in changed for text in (key, value)}
    seen: set[tuple[str, str]] = set()
    for t in view.turns:
        for c in t.tools:
            if (
                c.error
                or not c.valid
                or not any(isinstance(a, str) and a in written for a in c.arguments.values())
            ):
                continue
            args = json.dumps(c.arguments, sort_keys=True, ensure_ascii=False)
            if (c.tool, args) in seen:
                return f"{c.tool} was called twice with the same arguments ({args}), both answered"
            seen.add((c.tool, args))
    return ""


def _held_twice(changed: list[tuple[str, str, str]], persona: PersonaSnapshot) -> str:
    names = {w.lower() for w in persona.facts.get("name", "").split() if len(w) > 1}
    keys: dict[tuple[str, str], list[str]] = defaultdict(list)
    for store, key, value in changed:
        if names & set(value.lower().split()):
            keys[store, value].append(key)
    for (store, value), held in sorted(keys.items()):
        if len(held) > 1:
            return (
                f"{store} holds {len(held)} entries written to {value!r} during the call ({', '.join(held)})"
            )
    return ""


def _repeated(view: ConversationView) -> str:
    """A tool that names no read called :data:`REPEATS` times with the same arguments, each answered."""
    made: Counter[tuple[str, str]] = Counter()
    for t in view.turns:
        for c in t.tools:
            if not c.valid or failed_answer(c) or _reads(c.tool):
                continue
            args = json.dumps(c.arguments, sort_keys=True, ensure_ascii=False)
            made[c.tool, args] += 1
            if made[c.tool, args] == REPEATS:
                return f"{c.tool} was called {REPEATS} times with the same arguments ({args}), each answered"
    return ""


def _reads(tool: str) -> bool:
    words = key_words(tool)
    return not words or bool(READS & set(words))
