"""The divergence point: the first turn at which two conversations part.

The two calls are aligned utterance by utterance. At the first position where the
speakers differ (one call has ended, or one side spoke where the other did not), the tool
calls differ, one hangs up or transfers and the other does not, or the wording drifts apart
(Jaccard similarity of word bigrams below 0.5), the calls have diverged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import msgspec

from polygon.similarity import bigram_jaccard
from polygon.transcript import ConversationView

WORDING_THRESHOLD = 0.5


@dataclass(frozen=True)
class _Utterance:
    turn: int
    speaker: str
    text: str
    tools: tuple[str, ...]
    ends: str


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    """Where and why two calls part."""

    turn: int
    speaker: str
    reason: str
    """``speakers``, ``tool_calls``, ``ending`` or ``wording``."""
    detail: str
    a_text: str
    b_text: str
    similarity: float | None = None


def _utterances(view: ConversationView) -> list[_Utterance]:
    out = []
    for t in view.turns:
        if t.caller_text:
            # What the agent heard is what it answered to (and what a re-driven call replays).
            heard = t.heard_text if t.heard_text is not None else t.caller_text
            out.append(_Utterance(t.turn, "caller", heard, (), t.caller_ends))
        if t.agent_text is not None:
            tools = tuple(f"{c.tool}({json.dumps(c.arguments, sort_keys=True)})" for c in t.tools)
            out.append(_Utterance(t.turn, "agent", t.agent_text, tools, t.agent_end))
    return out


def find_divergence(a: ConversationView, b: ConversationView) -> Divergence | None:
    """The first divergent utterance, or None when the calls never part."""
    ua, ub = _utterances(a), _utterances(b)
    for i in range(max(len(ua), len(ub))):
        x = ua[i] if i < len(ua) else None
        y = ub[i] if i < len(ub) else None
        found = _compare(x, y)
        if found is not None:
            return found
    return None


def _compare(x: _Utterance | None, y: _Utterance | None) -> Divergence | None:
    if x is None or y is None or x.speaker != y.speaker:
        some = x or y
        assert some is not None
        detail = (
            "one call had already ended"
            if x is None or y is None
            else f"{x.speaker} spoke in one call, {y.speaker} in the other"
        )
        return Divergence(
            turn=some.turn,
            speaker=some.speaker,
            reason="speakers",
            detail=detail,
            a_text=x.text if x else "",
            b_text=y.text if y else "",
        )
    if x.tools != y.tools:
        return Divergence(
            turn=x.turn,
            speaker=x.speaker,
            reason="tool_calls",
            detail=f"{', '.join(x.tools) or 'no tools'} vs {', '.join(y.tools) or 'no tools'}",
            a_text=x.text,
            b_text=y.text,
        )
    if x.ends != y.ends:
        return Divergence(
            turn=x.turn,
            speaker=x.speaker,
            reason="ending",
            detail=f"{x.ends or 'continues'} vs {y.ends or 'continues'}",
            a_text=x.text,
            b_text=y.text,
        )
    similarity = bigram_jaccard(x.text, y.text)
    if similarity < WORDING_THRESHOLD:
        return Divergence(
            turn=x.turn,
            speaker=x.speaker,
            reason="wording",
            detail=f"bigram Jaccard {similarity:.2f} < {WORDING_THRESHOLD}",
            a_text=x.text,
            b_text=y.text,
            similarity=round(similarity, 4),
        )
    return None
