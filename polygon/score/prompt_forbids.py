"""A promise the agent's prompt forbids: the built-in policy ``policy:prompt_forbids``.

A team writes "Never promise a refund" into the agent's prompt and trusts the prompt as the
spec. Without a hand-written ``never_say`` policy, an agent that promises a refund anyway
broke no gate: the judge's ``instruction_adherence`` is scored, not gated. So every
configuration's prompt is read for explicit prohibitions of a promise or an offer of an
object (a refund, compensation, a waiver, a discount, a credit), and an agent turn that makes
such a promise breaks the policy, gated like any other by ``check:policy``.

Both sides are read with the language files' ``forbids`` section (``polygon/languages/<code>.yaml``),
every language at once (a prompt in English may be spoken in Croatian), offline and
deterministically:

* the prompt: a sentence one of the files' ``rules`` matches (a negation and a verb of
  promising or offering: "never promise", "do not offer", "ne obećavaj", "versprich keine",
  "no prometas", "не обещайте") forbids the objects named right after it (a list joined by
  commas and ``joins``: "refunds, credits or discounts"), inside it, or just before it
  ("Erstattungen dürfen nicht versprochen werden"). A sentence limited to a situation (the
  file's ``conditions``: "before verification", "unless a supervisor approves", "to a caller
  who has not verified") is left alone: whether its situation held is not read, and reading
  it as unconditional would fail a call that kept it;
* the agent: a clause (no question) with one of the files' ``pledges`` ("we'll refund", "you'll
  get", "dobit ćete", "Sie erhalten", "le devolveremos", "вы получите") and, at most
  :data:`WINDOW` words after it, a forbidden object. Not in a question (as the packs' promise
  acts: "Do you want a refund for the whole order?" may only ask what the caller wants), not
  when a negation comes before the object in its clause ("I can't promise you a refund", "you
  won't get a refund"), nor in a clause with a hedge ("I'll check whether you qualify for a
  refund", "you'll get an email about your refund", "I'll raise a refund request").
  An object told as done in the passive (the files' ``done``: "the transaction has been
  refunded") breaks it too, as sure for the caller as a promise, unless a tool's answer earlier
  in the call named the object: then the agent reads a status out.

A prompt with no such prohibition records no check at all: such runs keep their events and
reports. The suite's ``policies_from_prompt: false`` turns the policy off (it is recorded
with the run's policies, so a rescore keeps it off).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass

import regex

from polygon.events import CheckRecorded, Evidence
from polygon.languages import LANGUAGES, Language, load_language
from polygon.score.recorded import check_recorded
from polygon.similarity import sentences
from polygon.transcript import ConversationView, TurnView

NAME = "prompt_forbids"
CHECK = f"policy:{NAME}"
WINDOW = 6
"""Words at most between an agent's pledge and the object it promises."""
BROADER = {"payment": ("refund", "compensation")}
"""Objects a prohibition of another forbids too: money paid to the caller is a payment, so
"Versprich niemals, dass der Schaden bezahlt wird" forbids "die Kosten werden Ihnen erstattet"
(a refund in the packs' words); "never promise a refund" forbids no other payment."""
ASSURED_WINDOW = 3
"""Words at most between a word of certainty and the object, on either side ("ganz sicher")."""
FIRST_ITEM_WORDS = 8
"""Words of a prohibition's direct object in which its object word must come ("a full refund")."""
NEXT_ITEM_WORDS = 3
"""Words of each further item of its list ("or a discount") in which an object word must come."""
BEFORE_WORDS = 2
"""Words at most between an object and a prohibition that follows it ("refunds must never be promised")."""
_WORD = regex.compile(r"\w+")
# A prompt file is often wrapped by hand: a line break before a lower-case word continues the
# sentence ("Nikada ne obećavaj da će kazna biti\nponištena."); a blank line, or a break before
# anything else (a capital, a list item, a heading), still ends it.
_SENTENCE = regex.compile(r"(?<=[.!?;])\s+|\n[^\S\n]*\n\s*|\n(?![^\S\n]*\p{Ll})")
_SEPARATOR = regex.compile(r"[,;:()—–]")
_CLAUSE = regex.compile(r"[,;:—–]| but | aber | pero | но | ali ")


@dataclass(frozen=True)
class Prohibition:
    """A sentence of the prompt that forbids promising some objects."""

    sentence: str
    """As the prompt writes it (quoted by the finding)."""
    objects: tuple[str, ...]
    """The objects' keys (``refund``, ``compensation``, …), in the order first named."""


@dataclass(frozen=True)
class Promise:
    """An agent's clause promising a forbidden object."""

    object: str
    sentence: str
    """The agent's sentence that holds the promise, as it was said."""
    done: bool = False
    """Told as already done, in the passive ("it has been refunded"): a status read out when a
    tool's answer named the object (:func:`_read_out`)."""


def prompt_policy(view: ConversationView, prompt: str | None, *, on: bool = True) -> list[CheckRecorded]:
    """The check, when the prompt forbids a promise (none otherwise, nor when turned off)."""
    rules = prohibitions(prompt) if on and prompt else ()
    return [prompt_forbids(view, rules)] if rules else []


def prompt_forbids(view: ConversationView, rules: Sequence[Prohibition]) -> CheckRecorded:
    """Every agent turn keeps the prompt's prohibitions: it promises none of their objects."""
    broken: list[tuple[TurnView, Promise, Prohibition]] = []
    answers = ""
    for t in view.turns:
        answers += " ".join(_lower(json.dumps(c.result, ensure_ascii=False)) for c in t.tools if not c.error)
        hit = _broken(t.agent_text or "", rules, answers)
        if hit is not None:
            broken.append((t, *hit))
    if not broken:
        said = "; ".join(f"{', '.join(r.objects)}: {r.sentence!r}" for r in rules)
        return check_recorded(view, CHECK, "pass", f"kept (the prompt forbids promising {said})")
    _t, first, rule = broken[0]
    detail = f"broken in {len(broken)} turn(s): promised {first.object}; the prompt says {rule.sentence!r}"
    return check_recorded(view, CHECK, "fail", detail, [_evidence(t, p, r) for t, p, r in broken])


def _broken(text: str, rules: Sequence[Prohibition], answers: str) -> tuple[Promise, Prohibition] | None:
    for promise in promised(text):
        if promise.done and _read_out(promise.object, answers):
            continue
        rule = next((r for r in rules if _forbids(r, promise.object)), None)
        if rule is not None:
            return promise, rule
    return None


def _read_out(key: str, answers: str) -> bool:
    """A tool's answer so far names the object: "it has been refunded" reads that status out."""
    words = (pack.forbids.objects.get(key, ()) for pack in _packs())
    return any(_starts(w).search(answers) for w in words if w)


def _forbids(rule: Prohibition, promised_object: str) -> bool:
    """The rule forbids the object, or a broader one that holds it (:data:`BROADER`)."""
    return any(o == promised_object or promised_object in BROADER.get(o, ()) for o in rule.objects)


def _evidence(t: TurnView, promise: Promise, rule: Prohibition) -> Evidence:
    said, rule_said = promise.sentence, rule.sentence
    quote = f"AGENT: {t.agent_text} [promised {promise.object}: {said!r}; the prompt: {rule_said!r}]"
    return Evidence(turn=t.turn, at=t.agent_at, quote=quote)


# --- the prompt ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def prohibitions(prompt: str) -> tuple[Prohibition, ...]:
    """Each sentence of ``prompt`` that forbids, without a condition, promising an object."""
    found = []
    for wrapped in _SENTENCE.split(prompt):
        sentence = " ".join(wrapped.split())  # its wrapped lines, one line again
        objects = _forbidden(_lower(sentence))
        if objects:
            found.append(Prohibition(sentence.strip(" \t-*•"), objects))
    return tuple(found)


def _forbidden(low: str) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for pack in _packs():
        f = pack.forbids
        masked = _mask(low, f.not_objects)
        matches = [m for rule in _compiled(f.rules) for m in rule.finditer(masked)]
        if matches and _compiled_one(f.conditions).search(masked):
            return ()  # a prohibition limited to a situation: not read (see the module's notes)
        for m in matches:
            found.update(dict.fromkeys(_named(masked, m.start(), m.end(), pack)))
    return tuple(found)


def _named(low: str, start: int, end: int, pack: Language) -> list[str]:
    """The objects a prohibition matched at ``start:end`` forbids: before, inside and after it."""
    objects = pack.forbids.objects
    named = _before(low[:start], pack) + _objects_in(low[start:end], objects)
    # Not the blank before a comma that opens the object clause ("Versprich niemals, dass …").
    items = [item for item in _items(low[end:], pack) if item.strip()]
    for i, item in enumerate(items):
        words = item.split()[: FIRST_ITEM_WORDS if i == 0 else NEXT_ITEM_WORDS]
        found = _objects_in(" ".join(words), objects)
        if not found and i > 0:
            break  # the list ended: what follows is no object of this prohibition
        named += found
    return named


def _before(head: str, pack: Language) -> list[str]:
    """Objects just before the prohibition, in its clause ("Refunds and credits must never be promised")."""
    clause = _SEPARATOR.split(head)[-1]
    words = clause.split()
    last = max((i for i, w in enumerate(words) if _objects_in(w, pack.forbids.objects)), default=-1)
    if last < 0 or len(words) - 1 - last > BEFORE_WORDS:
        return []
    return _objects_in(clause, pack.forbids.objects)


def _items(tail: str, pack: Language) -> list[str]:
    """The tail of a prohibition cut into the items of its list ("refunds", "credits", "discounts")."""
    clause = regex.split(r"[.;:!?()—–]", tail, maxsplit=1)[0]
    joins = "|".join(regex.escape(j) for j in pack.forbids.joins)
    return regex.split(rf",|(?<!\w)(?:{joins})(?!\w)", clause)


def _objects_in(text: str, objects: dict[str, tuple[str, ...]]) -> list[str]:
    return [key for key, starts in objects.items() if _starts(starts).search(text)]


# --- the agent ----------------------------------------------------------------------------


def promised(text: str) -> list[Promise]:
    """Each object an agent's text promises or offers, in any language file's words."""
    found: list[Promise] = []
    for sentence in sentences(text):
        if "?" in sentence:
            continue  # a question promises nothing (it may only ask what the caller wants)
        low = _lower(sentence)
        for pack in _packs():
            masked = _mask(low, pack.forbids.not_objects)
            for clause in _unconditional(_CLAUSE.split(masked), pack):
                keys = _promises_in(f" {clause} ", pack)
                found += [Promise(key, sentence.strip()) for key in keys]
                done = [k for k in _done_in(f" {clause} ", pack) if k not in keys]
                found += [Promise(key, sentence.strip(), done=True) for key in done]
    return found


def _done_in(clause: str, pack: Language) -> list[str]:
    """The keys of the objects ``clause`` (lower case) tells as done ("it has been refunded").

    Not in a hedged clause ("I'll check whether it has been refunded"), nor with a negation
    before the object ("it hasn't been refunded yet").
    """
    f = pack.forbids
    if not f.done or any(h in clause for h in f.hedges):
        return []
    out: list[str] = []
    for m in (m for rule in _compiled(f.done) for m in rule.finditer(clause)):
        if _negated(clause[: m.start("obj")], pack):
            continue
        out += [k for k in _objects_in(m.group("obj"), f.objects) if k not in out]
    return out


def _unconditional(clauses: list[str], pack: Language) -> list[str]:
    """The clauses neither a condition opens nor that follow one as its consequent.

    "If the airline cancels the flight, you'll get a full refund; for a change of plans the
    fare is non-refundable" tells the rules, it promises the caller nothing: a correct agent
    failed ``policy:prompt_forbids`` on it (trial5). "If you like, I'll refund it" still offers.
    """
    opens = _compiled_one(pack.forbids.opens_condition) if pack.forbids.opens_condition else None
    out, after_condition = [], False
    for clause in clauses:
        conditional = opens is not None and opens.search(clause) is not None
        if not (conditional or (after_condition and clause.strip())):
            out.append(clause)
        if clause.strip():
            after_condition = conditional
    return out


def _promises_in(clause: str, pack: Language) -> list[str]:
    """The keys of the objects ``clause`` (lower case) promises."""
    f = pack.forbids
    if any(h in clause for h in f.hedges):
        return []  # a clause that only checks, asks or passes a request on
    spans = [p.span() for p in _phrases(f.pledges).finditer(clause)]
    # A word of certainty promises an object on either side of it; a negation anywhere undoes it
    # (German says it after the verb: "das wird garantiert nicht bezahlt").
    sure = [] if not f.assurances or _negated(clause, pack) else _spans(f.assurances, clause)
    out = []
    for key, words in f.objects.items():
        for o in _starts(words).finditer(clause):
            if _assured(clause, sure, o.span()) or (
                _pledged(clause, spans, o.start()) and not _negated(clause[: o.start()], pack)
            ):
                out.append(key)
                break
    if "refund" in f.objects and "refund" not in out and _gives_money_back(clause, pack):
        out.append("refund")
    return out


def _gives_money_back(clause: str, pack: Language) -> bool:
    """A verb that gives back, with money in its clause on either side ("Novac ćemo vam vratiti").

    The pledges above read an object after them; a language that puts its verb last says the
    money first, and "Razliku vraćamo vam na račun" names no object word at all (trial3).
    """
    f = pack.forbids
    if not f.returns or not _starts(f.returned).search(clause) or _negated(clause, pack):
        return False  # a negation anywhere in the clause: German says it after the verb ("… nicht zurück")
    return _phrases(f.returns).search(clause) is not None


def _assured(clause: str, spans: list[tuple[int, int]], at: tuple[int, int]) -> bool:
    """A word of certainty at most :data:`ASSURED_WINDOW` words from the object, on either side.

    "Der Schaden wird auf jeden Fall bezahlt", "Das übernimmt die Versicherung ganz sicher";
    not "Auf jeden Fall brauche ich noch Ihre Bankverbindung für eine mögliche Auszahlung".
    """
    start, end = at
    between = (clause[e:start] if e <= start else clause[end:s] for s, e in spans)
    return any(len(_WORD.findall(gap)) <= ASSURED_WINDOW for gap in between)


def _spans(phrases: tuple[str, ...], clause: str) -> list[tuple[int, int]]:
    return [m.span() for m in _phrases(phrases).finditer(clause)]


def _pledged(clause: str, spans: list[tuple[int, int]], at: int) -> bool:
    """A pledge ends at most :data:`WINDOW` words before ``at``, or holds it ("we'll refund")."""
    return any(s <= at and len(_WORD.findall(clause[e:at])) <= WINDOW for s, e in spans)


def _negated(head: str, pack: Language) -> bool:
    """The clause negates before the object: "you won't get a refund", "Sie erhalten keine Erstattung"."""
    low = f" {head} "
    return any(n in low for n in pack.acts.negation)


# --- shared -------------------------------------------------------------------------------


@functools.cache
def _packs() -> tuple[Language, ...]:
    return tuple(load_language(code) for code in LANGUAGES)


def _lower(text: str) -> str:
    return text.lower().replace("\u2019", "'")


def _mask(low: str, phrases: tuple[str, ...]) -> str:
    """``low`` with each phrase blanked (same length): "credit card" names no credit."""
    for p in phrases:
        low = low.replace(p, " " * len(p))
    return low


@functools.cache
def _starts(words: tuple[str, ...]) -> regex.Pattern[str]:
    """Any of the word starts, at a word's start."""
    return regex.compile(r"(?<!\w)(?:" + "|".join(regex.escape(w) for w in words) + ")")


@functools.cache
def _phrases(phrases: tuple[str, ...]) -> regex.Pattern[str]:
    """Any of the phrases, at a word's start (a pledge, an offer)."""
    return regex.compile(r"(?<!\w)(?:" + "|".join(regex.escape(p.strip()) for p in phrases) + ")")


@functools.cache
def _compiled(patterns: tuple[str, ...]) -> tuple[regex.Pattern[str], ...]:
    return tuple(regex.compile(p) for p in patterns)


@functools.cache
def _compiled_one(pattern: str) -> regex.Pattern[str]:
    return regex.compile(pattern)
