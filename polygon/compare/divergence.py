"""The divergence point: the first turn at which two conversations part.

The two calls are aligned utterance by utterance. At the first position where the
speakers differ (one call has ended, or one side spoke where the other did not), the tool
calls differ, one hangs up or transfers and the other does not, the values said differ
(numbers, amounts, times, dates: another price in the same sentence is another answer), or
the wording drifts apart (Jaccard similarity of word bigrams below 0.5), or one turn says a
whole sentence more than the other (an appended promise keeps the bigram Jaccard high, yet it is
another thing said), or a sentence of one is replaced by one that does something else (a refund
promise, an outcome, a refusal, a transfer, a callback or an offer where the other said none),
the calls have diverged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

# The score face read on use: the spoken-value reader (languages, detectors) loads on a first comparison.
from polygon import score as _score
from polygon.similarity import bigram_jaccard, sentences, word_tuple
from polygon.transcript import ConversationView, TurnView

if TYPE_CHECKING:
    from polygon.languages import Language

WORDING_THRESHOLD = 0.5
SENTENCE_NEW_WORDS = 4
"""A sentence says something the other turn does not when at least this many of its words are
not in it ("Sure, go on." or "this is Mia" do not)."""
SENTENCE_COVERED = 0.5
"""A sentence with at least this share of its words in the other turn is said there too."""
WEIGHTY_ACTS = frozenset({"outcome", "refusal", "transfer", "callback", "offer"})
"""Acts that change what the caller leaves with: a sentence replaced by one that does another of
these (or a promise) is another answer, not a paraphrase ("Thanks for calling" → "We appreciate
your call" does none of them)."""


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
    """``speakers``, ``tool_calls``, ``ending``, ``values``, ``wording`` or ``sentences``."""
    detail: str
    a_text: str
    b_text: str
    similarity: float | None = None


def _tool_key(name: str, arguments: Any) -> str:
    # Name and arguments: the same tool with other arguments is a different action.
    return f"{name}({json.dumps(arguments, sort_keys=True, default=str)})"


def _agent_utterance(t: TurnView) -> _Utterance | None:
    if t.agent_text is None:
        return None
    tools = tuple(_tool_key(c.tool, c.arguments) for c in t.tools)
    return _Utterance(t.turn, "agent", t.agent_text, tools, t.agent_end)


def _utterances(view: ConversationView) -> list[_Utterance]:
    out = []
    for t in view.turns:
        if t.caller_text:
            # What the agent heard is what it answered to (and what a re-driven call replays).
            heard = t.heard_text if t.heard_text is not None else t.caller_text
            out.append(_Utterance(t.turn, "caller", heard, (), t.caller_ends))
        agent = _agent_utterance(t)
        if agent is not None:
            out.append(agent)
    return out


def agent_turn_divergence(
    source: TurnView | None,
    turn: int,
    text: str,
    end: str,
    tools: Sequence[tuple[str, Any]],
    language: str = "en",
) -> Divergence | None:
    """Whether a live agent turn parts from the source call's agent turn (``rerun``'s monitor).

    The same rules as :func:`find_divergence`, applied one agent turn at a time; ``language`` is
    the call's (what a replaced sentence does is read in it).
    """
    live = _Utterance(turn, "agent", text, tuple(_tool_key(n, a) for n, a in tools), end)
    recorded = _agent_utterance(source) if source is not None else None
    return _compare(recorded, live, _pack(language))


def _pack(language: str) -> Language:
    # The language files (pydantic, YAML: ~0.1 CPU s) load with the first comparison, not with
    # the module: `compare --help` and the report's header need none.
    from polygon.languages import caller_language

    return caller_language(language)


def find_divergence(a: ConversationView, b: ConversationView) -> Divergence | None:
    """The first divergent utterance, or None when the calls never part."""
    ua, ub = _utterances(a), _utterances(b)
    pack = _pack(a.language)
    for i in range(max(len(ua), len(ub))):
        x = ua[i] if i < len(ua) else None
        y = ub[i] if i < len(ub) else None
        found = _compare(x, y, pack)
        if found is not None:
            return found
    return None


def _parted(
    x: _Utterance, y: _Utterance, reason: str, detail: str, similarity: float | None = None
) -> Divergence:
    return Divergence(
        turn=x.turn,
        speaker=x.speaker,
        reason=reason,
        detail=detail,
        a_text=x.text,
        b_text=y.text,
        similarity=None if similarity is None else round(similarity, 4),
    )


def _compare(x: _Utterance | None, y: _Utterance | None, pack: Language) -> Divergence | None:
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
        said = f"{', '.join(x.tools) or 'no tools'} vs {', '.join(y.tools) or 'no tools'}"
        return _parted(x, y, "tool_calls", said)
    if x.ends != y.ends:
        return _parted(x, y, "ending", f"{x.ends or 'continues'} vs {y.ends or 'continues'}")
    if _score.stated_values(x.text) != _score.stated_values(y.text):
        # Checked before the wording: "Доплата 3500 рублей" and "доплата 0 рублей" share
        # most of their words, yet the caller was told another thing.
        return _parted(x, y, "values", "the stated numbers, amounts, times or dates differ")
    similarity = bigram_jaccard(x.text, y.text)
    if similarity < WORDING_THRESHOLD:
        return _parted(x, y, "wording", f"bigram Jaccard {similarity:.2f} < {WORDING_THRESHOLD}", similarity)
    return _sentences(x, y, similarity, pack)


def _unsaid(text: str, other: str) -> list[str]:
    """The whole sentences of ``text`` that ``other`` does not say.

    Unsaid: fewer than half of its words are in ``other``, and at least
    :data:`SENTENCE_NEW_WORDS` are not.

    Words, not bigrams, and against the whole other turn: a sentence split in two or two
    merged into one, or a reworded one, is still said there.
    """
    there = set(word_tuple(other))
    out = []
    for sentence in sentences(text):
        said = word_tuple(sentence)
        new = sum(w not in there for w in said)
        if new >= SENTENCE_NEW_WORDS and new > (1 - SENTENCE_COVERED) * len(said):
            out.append(sentence)
    return out


def _sentences(x: _Utterance, y: _Utterance, similarity: float, pack: Language) -> Divergence | None:
    # A sentence reworded beyond recognition is unsaid on both sides, one for one: a paraphrase
    # unless the two do different things; one side with more unsaid sentences said something more.
    if x.text == y.text:
        return None  # most aligned turns: nothing to split
    only_a, only_b = _unsaid(x.text, y.text), _unsaid(y.text, x.text)
    if len(only_a) == len(only_b):
        if _does(only_a, pack) == _does(only_b, pack):
            return None
        return _parted(
            x, y, "sentences", f"a sentence says another thing: “{only_a[-1]}” vs “{only_b[-1]}”", similarity
        )
    side, extra = ("the first call", only_a) if len(only_a) > len(only_b) else ("the second call", only_b)
    return _parted(x, y, "sentences", f"{side} says a sentence more: “{extra[-1]}”", similarity)


def _does(said: list[str], pack: Language) -> frozenset[str]:
    """What the sentences do that changes the caller's outcome (their weighty acts, a promise)."""
    from polygon.languages import promises, read_turn

    acts = {s.act for text in said for s in read_turn(text, pack).sentences} & WEIGHTY_ACTS
    return frozenset(acts | ({"promise"} if any(promises(text, pack) for text in said) else set()))
