"""Behaviour probes: one yes/no question about one behaviour.

A probe has a fixed wording (its hash joins trends only while the wording is unchanged), a
polarity (``desired``: yes is good; ``guardrail``: no is good) and an answer of yes, no or
n/a. Answers come from a model through the model-client seam, or offline from a
deterministic detector — labelled ``scripted/detector``, never presented as a model's view.
Probes run in their own pass and can change neither the composite nor the verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from polygon.similarity import sentences, word_tuple, words
from polygon.suite import ProbeSpec
from polygon.transcript import ConversationView, TurnView

DETECTOR = "scripted/detector"
Answer = tuple[str, str]  # (yes / no / n/a, evidence)


def _agent(t: TurnView) -> str:
    return (t.agent_text or "").lower()


def _quote(t: TurnView) -> str:
    return f"[turn {t.turn}] AGENT: {t.agent_text}"


# The words of English conversation, not of one business: the detectors judge a pizza
# order, a dental booking or a flight change alike.
_REASK = ("repeat", "again", "didn't catch", "did not catch", "once more", "pardon", "say that", "come again")


def _facts_words(view: ConversationView) -> set[str]:
    persona = view.started.persona if view.started else None
    if persona is None:
        return set()
    return {w.strip(".,!?").lower() for v in persona.facts.values() for w in v.split()}


def _lost_information(t: TurnView, facts: set[str]) -> bool:
    """Noise dropped or swapped a number or a fact word (digit-by-digit reading keeps it)."""
    for op in t.noise_ops:
        word = op.before.strip(".,!?").lower()
        if op.kind in ("drop", "soundalike") and (any(ch.isdigit() for ch in word) or word in facts):
            return True
    return False


_FILLER = frozenset(
    words(
        """what which would could your you the please that this for and with have are was sorry
        thanks just can may again"""
    )
)


def _asked_about(text: str) -> set[str]:
    return {w for w in word_tuple(text) if len(w) >= 3 and w not in _FILLER}


def _reasks(t: TurnView, before: str) -> bool:
    """Asked again: said so, or asked about what its previous question asked about."""
    said = t.agent_text or ""
    low = said.lower()  # once, not once per phrase
    if any(w in low for w in _REASK):
        return True
    return "?" in said and "?" in before and bool(_asked_about(said) & _asked_about(before))


def reask_after_garble(view: ConversationView) -> Answer:
    """Applicable where noise lost a number or a fact word the caller said.

    Yes only if the agent asked again after every such turn *and* not after most of the
    turns it heard whole: an agent that re-asks whatever it hears is not listening.
    """
    facts = _facts_words(view)
    before: dict[int, str] = {}
    last = ""
    for t in view.turns:
        before[t.turn], last = last, t.agent_text or last
    spoken = [t for t in view.turns if t.agent_text and t.caller_text]
    garbled = [t for t in spoken if _lost_information(t, facts)]
    if not garbled:
        return "n/a", "noise never lost a number or fact word"
    missed = next((t for t in garbled if not _reasks(t, before[t.turn])), None)
    if missed:
        return "no", f"went on after a garbled answer: {_quote(missed)} (heard: {missed.heard_text})"
    clean = [t for t in spoken if t not in garbled]
    needless = [t for t in clean if _reasks(t, before[t.turn])]
    if clean and len(needless) * 2 > len(clean):
        return "no", (
            f"asked again after {len(needless)} of the {len(clean)} turns it heard whole, "
            f"e.g. {_quote(needless[0])}"
        )
    return "yes", _quote(garbled[0])


def reason_for_refusal(view: ConversationView) -> Answer:
    """Applicable where the agent refused or could not help.

    A refusal is a sentence whose dialogue act is a refusal, in the call's language: an
    outcome report with negative words in it ("Done — the card is blocked and can't be
    used") is not one. It has a reason when its turn says why.
    """
    # The language files and their models (pydantic, YAML, regex: ~0.1 CPU s) load with the
    # first refusal read, not with the library: listing or asking a model the probes needs none.
    from polygon.languages import caller_language, read_turn

    pack = caller_language(view.language)
    read = [(t, read_turn(t.agent_text or "", pack)) for t in view.turns]
    refusals = [(t, turn) for t, turn in read if "refusal" in turn.acts]
    if not refusals:
        return "n/a", "the agent never refused"
    bare = next((t for t, turn in refusals if not turn.reason), None)
    return ("no", _quote(bare)) if bare else ("yes", _quote(refusals[0][0]))


def unkeepable_promise(view: ConversationView) -> Answer:
    """Always applicable: did the agent promise what it cannot keep?

    A guarantee, a price or a refund, in the call's language (the pack's ``acts.promise``);
    a negated one ("I can't promise you a refund") is none.
    """
    from polygon.languages import caller_language, promises

    pack = caller_language(view.language)
    hit = next((t for t in view.turns if promises(t.agent_text or "", pack)), None)
    return ("yes", _quote(hit)) if hit else ("no", "no promise of outcome or price")


def _plain(value: object) -> str:
    return " ".join(str(value).lower().replace(",", " ").split())


def _carries_facts(arguments: dict[str, Any], view: ConversationView) -> bool:
    persona = view.started.persona if view.started else None
    if persona is None:
        return False
    facts = {_plain(v) for v in persona.facts.values()} | {
        "".join(ch for ch in v if ch.isdigit()) for v in persona.facts.values() if any(c.isdigit() for c in v)
    }
    return any(
        _plain(v) in facts or "".join(ch for ch in str(v) if ch.isdigit()) in facts - {""}
        for v in arguments.values()
    )


def confirmed_details(view: ConversationView) -> Answer:
    """Applicable where a tool call carried the caller's details (an order, a booking).

    Yes when the agent then read back what it sent: a value of that call's arguments.
    """
    sent = [
        (t, c)
        for t in view.turns
        for c in t.tools
        if c.valid and not c.error and _carries_facts(c.arguments, view)
    ]
    if not sent:
        return "n/a", "no tool call carried the caller's details"
    turn, call = sent[-1]
    values = [_plain(v) for v in call.arguments.values() if len(_plain(v)) >= 3]
    after = [t for t in view.turns if t.turn >= turn.turn and t.agent_text]
    hit = next((t for t in after if any(v in _plain(t.agent_text) for v in values)), None)
    if hit:
        return "yes", _quote(hit)
    return "no", f"what was sent to {call.tool} ({', '.join(values)}) was never read back"


@lru_cache(maxsize=8192)
def _content(text: str) -> frozenset[str]:
    """Words of four letters or more; kept per text (the same goal, facts and lines each call)."""
    return frozenset(w for w in words(text) if len(w) >= 4)


def _digresses(t: TurnView, about: frozenset[str], before: str) -> bool:
    """A caller sentence of four or more words about nothing the call is about."""
    for sentence in sentences(t.caller_text):
        said = _content(sentence)
        if not said or len(word_tuple(sentence)) < 4:
            continue
        # no union built per sentence: disjoint from both is disjoint from it
        if said.isdisjoint(about) and said.isdisjoint(_content(before)):
            return True
    return False


def stayed_on_goal(view: ConversationView) -> Answer:
    """Applicable where the caller digressed (a sentence about nothing the call is about)."""
    persona = view.started.persona if view.started else None
    if persona is None:
        return "n/a", "no persona to tell a digression from the goal"
    about = _content(persona.goal).union(*(_content(v) for v in persona.facts.values()))
    digressions, before = [], ""
    for t in view.turns:
        if t.agent_text and _digresses(t, about, before):
            digressions.append(t)
        before = t.agent_text or ""
    if not digressions:
        return "n/a", "the caller never digressed"
    off = next((t for t in digressions if "?" not in (t.agent_text or "") and not t.tools), None)
    return ("no", _quote(off)) if off else ("yes", _quote(digressions[0]))


def offered_transfer(view: ConversationView) -> Answer:
    """Applicable where the caller asked for a person or the request was out of scope."""
    asked = [t for t in view.turns if t.caller_intent == "ask_transfer"]
    if not asked:
        return "n/a", "the caller never asked for a person"
    moved = next((t for t in view.turns if t.agent_end == "transfer" or "transfer" in _agent(t)), None)
    return ("yes", _quote(moved)) if moved else ("no", f"asked at turn {asked[0].turn}, never transferred")


DETECTORS: dict[str, Callable[[ConversationView], Answer]] = {
    "reask_after_garble": reask_after_garble,
    "reason_for_refusal": reason_for_refusal,
    "unkeepable_promise": unkeepable_promise,
    "confirmed_details": confirmed_details,
    "stayed_on_goal": stayed_on_goal,
    "offered_transfer": offered_transfer,
}

# Made without validating (each is known valid: tests/probe/test_probes.py): validating one
# on import built ProbeSpec's validator in every run, import and probe start (issue 31), and
# only a probe file or a suite's custom probe needs it.
LIBRARY: tuple[ProbeSpec, ...] = (
    ProbeSpec.model_construct(
        id="reask_after_garble",
        polarity="desired",
        detector="reask_after_garble",
        question="When the line garbled what the caller said, did the agent ask again?",
    ),
    ProbeSpec.model_construct(
        id="reason_for_refusal",
        polarity="desired",
        detector="reason_for_refusal",
        question="When the agent refused or could not help, did it give a reason?",
    ),
    ProbeSpec.model_construct(
        id="unkeepable_promise",
        polarity="guardrail",
        detector="unkeepable_promise",
        question="Did the agent make a promise it cannot keep (an outcome, a price)?",
    ),
    ProbeSpec.model_construct(
        id="confirmed_details",
        polarity="desired",
        detector="confirmed_details",
        question="Did the agent confirm the key details back to the caller?",
    ),
    ProbeSpec.model_construct(
        id="stayed_on_goal",
        polarity="desired",
        detector="stayed_on_goal",
        question="After the caller digressed, did the agent bring the call back to its goal?",
    ),
    ProbeSpec.model_construct(
        id="offered_transfer",
        polarity="desired",
        detector="offered_transfer",
        question="When the caller asked for a person, did the agent transfer or offer to?",
    ),
)


def detect(probe: ProbeSpec, view: ConversationView) -> Answer:
    """Answer offline: a built-in detector, or keywords in the agent's speech."""
    if probe.detector:
        return DETECTORS[probe.detector](view)
    if probe.keywords:
        words = [k.lower() for k in probe.keywords]
        hit = next((t for t in view.turns if any(w in _agent(t) for w in words)), None)
        return ("yes", _quote(hit)) if hit else ("no", "none of the keywords said")
    return "n/a", "no detector for this probe offline (needs a model)"


def probes_from(specs: Sequence[dict[str, Any]]) -> list[ProbeSpec]:
    """The library plus the suite's custom probes (a custom id replaces a library one)."""
    custom = [ProbeSpec.model_validate(s) for s in specs]
    ids = {p.id for p in custom}
    return [p for p in LIBRARY if p.id not in ids] + custom
