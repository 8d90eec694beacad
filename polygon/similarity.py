"""Text similarity shared by loop detection and divergence: words, Dice overlap, bigram Jaccard.

Dice on word multisets (loops) sees a repeated one-word reply ("Yes." / "Yes.") as 1.0;
bigram Jaccard (divergence) is sensitive to word order.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable

_WORD = re.compile(r"\w+", re.UNICODE)
# Whitespace after a ".", "!" or "?": written to start with the whitespace, so the scan skips
# to the next space instead of trying the look-behind at every character (the same matches).
_SENTENCE_END = re.compile(r"\s(?<=[.!?]\s)\s*")


def words(text: str) -> list[str]:
    """Lower-cased words of ``text``."""
    return list(word_tuple(text))


@functools.lru_cache(maxsize=8192)
def word_tuple(text: str) -> tuple[str, ...]:
    """:func:`words`, remembered: the same goal, facts and agent lines come back every turn."""
    return tuple(_WORD.findall(text.lower()))


def sentences(text: str) -> list[str]:
    """``text`` split after each ``.``, ``!`` or ``?`` (enough for short phone turns)."""
    return _SENTENCE_END.split(text)


@functools.lru_cache(maxsize=8192)
def overlap(a: str, b: str) -> float:
    """2·|common words| / (|a| + |b|), on word multisets; 0 when both are empty.

    Kept per pair: the engine compares each agent reply with the one before, and the loop
    check compares them again (and each with its turn-before-last) when the call is scored.
    """
    return _dice(_bag(a), _bag(b))


def _dice(wa: Counter[str], wb: Counter[str]) -> float:
    total = sum(wa.values()) + sum(wb.values())
    if total == 0:
        return 0.0
    return 2 * sum((wa & wb).values()) / total


@functools.lru_cache(maxsize=4096)
def _bag(text: str) -> Counter[str]:
    # Each agent reply is compared with the next one too: counted once (never mutated).
    return Counter(words(text))


LOOP_THRESHOLD = 0.9


def is_loop(previous: str, latest: str) -> bool:
    """The seed's loop rule: two consecutive agent replies overlap at least :data:`LOOP_THRESHOLD`.

    The engine stops a simulated call on it; the ``loop`` check applies it to any transcript
    (imported and re-driven calls too).
    """
    return overlap(previous, latest) >= LOOP_THRESHOLD


GARBLING_NOISE = frozenset({"drop", "soundalike", "digits"})
"""Noise operations that change the caller's words as the agent hears them: a word dropped or
swapped, or a number read out as number words ("12345678903" → "jedan dva tri ..."), which an
agent listening for digits cannot take as the number it asked for. A filler only adds."""

NON_ANSWERS = frozenset({"no_fact", "pardon"})
"""Caller intents that answer nothing the agent asked ("I don't know", "sorry?"): asking once
more is the agent's right move. Not ``clarify`` ("what do you need from me?"): the caller heard
the question and asks what it means, and the same words again explain nothing."""


def garbled(noise_kinds: Iterable[str]) -> bool:
    """The caller's turn reached the agent with words dropped, swapped or read out by the noise."""
    return any(kind in GARBLING_NOISE for kind in noise_kinds)


def unanswered(noise_kinds: Iterable[str], intent: str = "") -> bool:
    """What the agent heard of the caller's turn may not hold what it asked.

    The noise garbled the turn, or the caller said something other than an answer (its intent).
    """
    return intent in NON_ANSWERS or garbled(noise_kinds)


def lost_a_fact(changed: Iterable[tuple[str, str]], facts: Iterable[str]) -> bool:
    """The noise dropped, swapped or read out a word of one of the caller's facts.

    ``changed``: each noise operation's kind and the words it replaced. Then the agent cannot
    have heard that answer, however often it was given: asking again is what a person on a bad
    line does every time, and the noise is drawn per turn, independently of the agent.
    """
    values = {w for fact in facts for w in word_tuple(fact)}
    return any(
        kind in GARBLING_NOISE and not values.isdisjoint(word_tuple(before)) for kind, before in changed
    )


class LoopWatch:
    """The loop rule over a call, reply by reply, shared by the engine and the ``loop`` check.

    A reply that repeats the one before (:func:`is_loop`) is a loop, except once: when what
    the agent heard of the caller's turn between them may not hold the answer (noise garbled
    it, or the caller gave none: :func:`unanswered`), asking again is ordinary phone
    behaviour. It is no excuse when the agent heard the same caller turn as before its previous
    reply (same question to the same answer: no progress), and the next repeat is a loop
    whatever the caller's turn was, so an agent that repeats forever is still stopped, one
    turn later at most (the third identical ask). A reply to a caller's silence is not
    compared at all (re-prompting a silent caller repeats the question); one that says
    something else is what the next reply is compared with: an answer given again after the
    agent asked anew ("Your order is open." — silence — "What's your order number?" — "A-100"
    — "Your order is open.") answers the caller's new turn, and the starter suite's own agent
    was cut as a loop for it.

    A reply the caller cut in on (a phone barge-in) was never heard whole, so saying it again
    after the barge-in is a re-ask every time, and it leaves the once-only excuse as it
    was: barge-ins are drawn per turn, independently of the agent, so an agent that repeats
    forever still meets a turn the caller heard whole and is stopped there. So is a repeat
    after the noise lost a word of one of the caller's facts (:func:`lost_a_fact`): a correct
    parcel agent asked a third time for a tracking number the noise had garbled twice and was
    failed as a loop (trial3); one that asks again after hearing the number whole is stopped.
    """

    def __init__(self) -> None:
        self.previous: str | None = None
        self.heard: str | None = None  # the caller's turn as heard before ``previous``
        self.excused = False  # the previous reply was itself a re-ask after a missed answer

    def see(
        self,
        reply: str,
        *,
        silent: bool = False,
        noisy: bool = False,
        cut: bool = False,
        heard: str | None = None,
        lost: bool = False,
    ) -> str:
        """``"loop"``, ``"reask"`` (a repeat excused by a missed answer or a barge-in) or ``""``.

        ``noisy``: the agent may not have heard an answer in the caller's turn before this reply
        (:func:`unanswered`). ``cut``: the caller barged into the previous reply before this one.
        ``heard``: that caller turn as the agent heard it (None: not known, never "the same").
        ``lost``: the noise lost a word of a fact in that turn (:func:`lost_a_fact`).
        """
        if silent:
            if self.previous is None or not is_loop(self.previous, reply):
                self.previous, self.heard, self.excused = reply, heard, False
            return ""
        repeat = self.previous is not None and is_loop(self.previous, reply)
        before, self.previous, self.heard = self.heard, reply, heard
        if repeat and (cut or lost):  # lost: heard alike or not, the fact never came through
            return "reask"
        # The caller turns are compared only for a repeat that may be excused: most replies
        # repeat nothing, and each heard turn, noise and all, is new (no kept overlap to find).
        if repeat and noisy and not self.excused and not _same_answer(before, heard):
            self.excused = True
            return "reask"
        self.excused = False
        return "loop" if repeat else ""


def _same_answer(before: str | None, heard: str | None) -> bool:
    """The agent heard the same caller turn before both replies (None: not known, never the same).

    Compared without the memos: each heard turn, noise and all, is new, so keeping its words,
    bag and overlap only filled them with entries never asked for again (at 100,000 calls
    they held ~10,000 such, megabytes that grew with the run).
    """
    if heard is None or before is None:
        return False
    bags = (Counter(_WORD.findall(text.lower())) for text in (before, heard))
    return _dice(*bags) >= LOOP_THRESHOLD


def _bigrams(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + 2]) for i in range(len(w) - 1)} if len(w) >= 2 else {tuple(w)} if w else set()


def bigram_jaccard(a: str, b: str) -> float:
    """Jaccard similarity of word bigrams (single words compare as themselves)."""
    x, y = _bigrams(a), _bigrams(b)
    if not x and not y:
        return 1.0
    return len(x & y) / len(x | y)
