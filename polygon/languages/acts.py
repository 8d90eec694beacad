"""What each sentence of an agent's turn does: its dialogue act, in any language.

A question asking for something, an offer, a confirmation request, an open question about
what the caller wants, a read-back (a statement with a value in it), an outcome report, a
refusal, a transfer, a callback, a request to repeat, a greeting or closing, or filler.
The phrases of each act are the language's (:class:`polygon.languages.Acts`); an outcome
report wins over the negative words after it ("Done — the card is now blocked and can't
be used" reports, it does not refuse), a negation before the done word in its clause wins
over the report ("It couldn't be booked", "Termin nije potvrđen" report nothing done), and
such a negated report is a refusal: the agent told the caller it failed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property

import regex

from polygon.languages import Language
from polygon.similarity import sentences, words

DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\.\s?\d{1,2}\.\s?\d{4}\b\.?")
TIME = re.compile(r"\b(\d{1,2})[:.](\d{2})\b")
CODE = re.compile(r"\b([^\W\d_]{1,4})-?(\d{3,})\b")
NUMBER = re.compile(r"\d[\d ()+-]{3,}\d")


ACTS = (
    "question",
    "offer",
    "confirm",
    "wants",
    "read_back",
    "outcome",
    "refusal",
    "transfer",
    "callback",
    "repeat",
    "greeting",
    "closing",
    "filler",
)


@dataclass(frozen=True)
class Sentence:
    """One of the agent's sentences and what it does."""

    text: str
    act: str


@dataclass(frozen=True)
class Turn:
    """What one agent turn does: each sentence's act."""

    sentences: tuple[Sentence, ...]
    reason: bool
    """A refusal in this turn says why."""

    @cached_property
    def acts(self) -> frozenset[str]:
        """Every act the turn does (a read turn is kept and asked again and again: made once)."""
        return frozenset(s.act for s in self.sentences)

    def of(self, *acts: str) -> list[str]:
        """The sentences that do one of ``acts``."""
        return [s.text for s in self.sentences if s.act in acts]


def _lower(text: str) -> str:
    # a typographic apostrophe ("couldn’t", "I’ve") reads like the files' plain one
    return text.lower().replace("\u2019", "'")


def has(low: str, phrases: tuple[str, ...]) -> bool:
    """One of the phrases is in the (lower-case) text."""
    for phrase in phrases:  # noqa: SIM110 - any() over a generator costs ~2x: ~740k looks a 1,000 calls
        if phrase in low:
            return True
    return False


def _act(sentence: str, pack: Language) -> str:
    low = f" {_lower(sentence)} "
    acts = pack.acts
    is_q = "?" in sentence
    wh = bool(set(words(sentence)) & pack.wh_words)
    if has(low, acts.transfer):
        return "transfer"
    if calls_back(low, pack):
        return "callback"
    if has(low, acts.closing) and not is_q:
        return "closing"
    if has(low, acts.repeat):
        return "repeat"  # "I didn't catch that, sorry." asks again without a question mark
    if not is_q and done(low, pack):
        return "outcome"  # "Done — the card is blocked and can't be used" reports, not refuses
    if not is_q and reports(low, pack):
        return "outcome"  # "Your power cut is logged, ticket OUT-5521." without a "done" word
    if not is_q and (refuses(low, pack) or _not_done(low, pack) or modal_failure(low, pack)):
        return "refusal"  # "Your appointment has not been booked." tells the caller it failed
    if has(low, acts.greeting) and not is_q:
        return "greeting"
    if has(low, acts.confirm) and not has(low, acts.asks):
        return "confirm"  # "can you confirm your date of birth?" asks for it
    if has(low, acts.wants) and (wh or has(low, acts.choice) or not has(low, acts.offer)):
        return "wants"  # "Which pizza would you like?", "block it, or check its status?"
    if has(low, acts.offer) and not wh:
        return "offer"
    if is_q:
        return "question"
    if has(low, acts.requests):
        return "question"  # "Tell me your policy number, please."
    if has_values(sentence):
        return "read_back"
    said = words(sentence)
    short = len(said) <= 6 and (wh or not set(said) & acts.states)
    if has(low, acts.asks) and short and not _when(said, pack):
        # "And your date of birth, please." asks without a question mark; "Your parcel arrives
        # on Thursday." says a day, no auxiliary in it: a statement
        return "question"
    return "filler"


def _when(said: list[str], pack: Language) -> bool:
    """The words name a weekday or a month ("Donnerstag", "четверг", "Dezember")."""
    return bool(set(said) & (pack.understand.weekdays | _month_words(pack.spoken.months)))


_CLAUSE = re.compile(r"[,;:—–]| but | aber | pero | но | ali ")


def calls_back(low: str, pack: Language) -> bool:
    """A (lower-case) sentence promises a callback.

    Some clause holds a ``callback`` phrase with no negation before its end in that clause:
    "We will not call you back", "Nažalost, nećemo vas nazvati", "Мы не перезвоним" and "No
    le devolveremos la llamada" promise none (read as callbacks, the callback caller thanked a
    broken agent and hung up content); "Don't worry, we will call you back" and "I can't book
    it, but a colleague will call you back" do, the negation in a clause of its own. The end,
    not the start: "Kolega neće vas nazvati" holds "će vas nazvati" inside "neće". A negation
    after the phrase ("Wir rufen Sie nicht zurück", "A callback is not possible") is the
    pack's ``not_callback``, blanked first: after the phrase in general it is no denial ("We'll
    call you back in no time").
    """
    found = _patterns(pack.acts.not_callback)
    if found is not None:
        low = found.sub(lambda m: " " * len(m.group()), low, concurrent=False)
    return any(_callback_in(f" {c} ", pack) for c in _CLAUSE.split(low))


NEGATION_REACH = 3
"""Words before a callback phrase in which a negation denies it: "we will not call you back",
"Kolega vas neće nazvati"; not "I can't book that online so someone will call you back", where
the negation is about the booking."""


def _callback_in(clause: str, pack: Language) -> bool:
    negation = pack.acts.negation
    return any(p in clause and not has(_reach(clause, p), negation) for p in pack.acts.callback)


def _reach(clause: str, phrase: str) -> str:
    """The phrase and the :data:`NEGATION_REACH` words before it, padded (the clause up to its end)."""
    head = clause[: clause.find(phrase) + len(phrase)].split()
    return f" {' '.join(head[-(len(phrase.split()) + NEGATION_REACH) :])} "


def reports(low: str, pack: Language) -> bool:
    """A (lower-case) sentence reports an action taken in other words than ``done``'s.

    "Your power cut is logged" and "I've opened a dispute" report, and so does a participle of
    any verb in the pack's ``done_forms`` ("поездка перенесена", "Ihr Paket wurde umgeleitet");
    "has not been logged", "I couldn't get it opened" and "I'm afraid it was only logged" do
    not: the participle's clause must not be negated nor a relative clause ("на которого
    оформлен билет"), and the sentence must not refuse.
    """
    if refuses(low, pack):
        return False
    return any(_reported_in(f" {c} ", pack) for c in _CLAUSE.split(low))


def _reported_in(clause: str, pack: Language) -> bool:
    acts = pack.acts
    if _relative(clause, pack) or _conditional(clause, pack):
        return False
    if has(clause, acts.reported) and not has(clause, acts.negation):
        return True
    found = _patterns(acts.done_forms)
    return found is not None and any(
        not has(clause[: m.end()] + " ", acts.negation) for m in found.finditer(clause, concurrent=False)
    )


def refuses(low: str, pack: Language) -> bool:
    """A (lower-case) sentence refuses.

    One of ``refuse``'s phrases, or a ``refuse_forms`` match ("das tut mir leid, aber … darf
    ich keine Auskunft geben").
    """
    if has(low, pack.acts.refuse):
        return True
    found = _patterns(pack.acts.refuse_forms)
    return found is not None and found.search(low, concurrent=False) is not None


def _relative(clause: str, pack: Language) -> bool:
    # "на которого оформлен билет" names the passenger, it reports no ticket issued
    found = _patterns(pack.acts.relative)
    return found is not None and found.search(clause.strip(), concurrent=False) is not None


def done(low: str, pack: Language) -> bool:
    """A (lower-case) sentence says, with one of ``done``'s words, that the thing is done.

    Some clause holds a done word with no negation before it in that clause: "Done — the
    card is blocked and can't be used" is done (the negation follows, about the card's use);
    "It couldn't be booked" and "Your appointment has not been booked" are not.
    """
    return any(_done_in(f" {c} ", pack) and not _relative(c, pack) for c in _CLAUSE.split(low))


def _not_done(low: str, pack: Language) -> bool:
    """A (lower-case) sentence ``done`` does not read says the thing was *not* done.

    Some clause holds a done or reported word with a negation before it ("Your appointment
    has not been booked", "Termin nije potvrđen", "Die Störung wurde nicht gemeldet"): an
    honest failure, which answers the caller as a refusal does. Not when the clause waits
    (``pending``: "Nothing has been booked yet").
    """
    words = pack.acts.done + pack.acts.reported
    return any(
        _negated_in(f" {c} ", words, pack) or _negated_form(f" {c} ", pack)
        for c in _CLAUSE.split(low)
        if not _relative(c, pack)
    )


def _negated_form(clause: str, pack: Language) -> bool:
    # "поездка не перенесена", "Ihr Paket wurde nicht umgeleitet": a participle of any verb
    found = _patterns(pack.acts.done_forms)
    if found is None or has(clause, pack.acts.pending):
        return False
    forms = found.finditer(clause, concurrent=False)
    return any(has(clause[: m.end()] + " ", pack.acts.negation) for m in forms)


def modal_failure(low: str, pack: Language) -> bool:
    """A (lower-case) sentence says the agent could not do it, the words split around the thing.

    German puts the object between the modal and "nicht" and the verb last ("Ich konnte den
    Termin nicht buchen", "Wir konnten die Karte leider nicht sperren"): no ``refuse`` phrase
    holds the split. A clause that matches one of the pack's ``modal_failure`` patterns is an
    honest failure; not one that waits ("noch nicht buchen"), nor "nicht nur …, sondern".
    """
    found = _patterns(pack.acts.modal_failure)
    if found is None:
        return False
    clauses = (f" {c.strip()} " for c in _CLAUSE.split(low))
    return any(found.search(c, concurrent=False) and not has(c, pack.acts.pending) for c in clauses)


@cache
def _patterns(patterns: tuple[str, ...]) -> regex.Pattern[str] | None:
    # Every match of these keeps the GIL (``concurrent=False``): by default ``regex`` lets go of
    # it at each match, a chance for the run's writer thread to take it and for this one to wait.
    return regex.compile("|".join(f"(?:{p})" for p in patterns)) if patterns else None


def _negated_in(clause: str, phrases: tuple[str, ...], pack: Language) -> bool:
    if has(clause, pack.acts.pending):
        return False  # "has not been logged yet" waits: it tells the caller nothing failed
    return any(p in clause and has(clause[: clause.find(p)] + " ", pack.acts.negation) for p in phrases)


def _done_in(clause: str, pack: Language) -> bool:
    if _conditional(clause, pack):
        return False
    return any(
        p in clause and not has(clause[: clause.find(p)] + " ", pack.acts.negation) for p in pack.acts.done
    )


def _conditional(clause: str, pack: Language) -> bool:
    """A clause a condition opens ("if approved", "ako bude odobreno") says nothing is done.

    "… and, if approved, you'll get your money back" read "approved" as the thing done: a
    correct agent that refused a disputed refund failed as one that reported an outcome (trial8).
    """
    first = clause.split(maxsplit=1)[:1]
    return bool(first) and first[0] in pack.spoken.conditions


def promises(text: str, pack: Language) -> bool:
    """A sentence of ``text`` promises a guarantee, a price or a refund.

    Not in a question, nor after a negation in its clause: "I can't promise you a refund"
    promises none; "Don't worry, we will refund it at no cost" does. Nor in a hedged sentence
    (the pack's ``hedge``): "whether you qualify for compensation is decided by the claims
    team" says who decides, it promises nothing.
    """
    may = _may_promise(pack.acts.promise)
    if may is not None and not may(_lower(text)):
        return False  # most turns: a sentence's lowered words stand in the turn's, so none has one
    hedge = _patterns(pack.acts.hedge)
    for sentence in sentences(text):
        low = _lower(sentence)
        if "?" in sentence or (may is not None and not may(low)):
            continue  # no promise word in it: no clause of it could promise
        if hedge is not None and hedge.search(low, concurrent=False):
            continue  # "ob … es eine Entschädigung gibt, entscheidet die Schadenabteilung"
        if any(_promised(c, pack) for c in _CLAUSE.split(low)):
            return True
    return False


@cache
def _may_promise(phrases: tuple[str, ...]) -> Callable[[str], re.Match[str] | None] | None:
    """Finds the longest word of any promise phrase in a sentence (``None``: a phrase has none).

    Most agent sentences promise nothing; this one scan lets them skip the hedge search, the
    clause split and the blanking. Exact: a clause is part of its sentence and
    :func:`_unpromised` only blanks letters out, so each word of a phrase :func:`_promised`
    finds stands in the sentence as written.
    """
    longest = [max(p.split(), key=len, default="") for p in phrases]
    if not all(longest):
        return None
    return re.compile("|".join(re.escape(w) for w in sorted(set(longest)))).search


def _promised(clause: str, pack: Language) -> bool:
    low = f" {_unpromised(clause, pack)} "
    at = min((low.find(p) for p in pack.acts.promise if p in low), default=-1)
    return at >= 0 and not has(low[: at + 1], pack.acts.negation)


def _unpromised(clause: str, pack: Language) -> str:
    # "Anzeige erstatten" (file a police report) and "a full refund is not possible" hold a
    # promise word and promise nothing: blanked, so the words around them are still read
    found = _patterns(pack.acts.not_promise)
    return found.sub(lambda m: " " * len(m.group()), clause, concurrent=False) if found else clause


def tells_failure(text: str, pack: Language) -> bool:
    """The agent's ``text`` tells the caller something went wrong on the business's side.

    One of ``acts.failed``'s phrases ("the system is down", "не удалось"), or a match of
    ``acts.failed_forms`` ("it failed", "dispatch is down") not said of the caller's own thing:
    "your payment failed", "su pago ha fallado", "vaša uplata nije prošla" tell of no failure.
    """
    low = f" {_lower(text)} "
    if has(low, pack.acts.failed):
        return True
    found = _patterns(pack.acts.failed_forms)
    if found is None:
        return False
    return any(not _yours_before(low[: m.start()], pack) for m in found.finditer(low, concurrent=False))


def _yours_before(before: str, pack: Language) -> bool:
    # the three words just before ("your payment has failed", "Ihre Zahlung ist nicht
    # durchgegangen"), not across a sentence or clause mark ("… your card. It failed")
    near = re.split(r"[.,;:!?—–]", before)[-1].split()[-3:]
    return any(w in pack.acts.yours for w in near)


def read_turn(text: str, pack: Language) -> Turn:
    """Each sentence of an agent turn with its dialogue act."""
    key = (text, id(pack))
    turn = _READ.get(key)
    if turn is None or turn[0] is not pack:
        if len(_READ) >= _READ_HELD:
            _READ.clear()
        turn = _READ[key] = (pack, _read_turn(text, pack))
    return turn[1]


_READ: dict[tuple[str, int], tuple[Language, Turn]] = {}
"""Turns already read: a call's caller, its read-back check and its probes read each agent
turn (a :class:`Turn` is immutable, so one reading serves all three)."""
_READ_HELD = 2048


def _read_turn(text: str, pack: Language) -> Turn:
    said = _unsplit(sentences(text), pack.acts.abbreviations, _month_words(pack.spoken.months))
    parts = tuple(Sentence(s, _act(s, pack)) for s in said if s.strip())
    reason = has(f" {_lower(text)} ", pack.acts.reason)
    return Turn(parts, reason)


def _unsplit(parts: list[str], abbreviations: frozenset[str], months: frozenset[str]) -> list[str]:
    """Sentences joined again where one ended only at an abbreviation's or an ordinal day's dot.

    "With Dr. Patel", "den 10. Dezember", "10. prosinca" (a day's number before a month's name).
    Split there, "Done, you're booked with Dr." was an outcome without the date and "Patel on
    2026-12-10 at 10:00." a read-back: the caller did not hear its booking reported; and
    "Dezember an Invalidenstraße 12 … geplant." was an outcome that ended a German call
    before the agent's question after it was heard.
    """
    out: list[str] = []
    for part in parts:
        last = out[-1].rsplit(maxsplit=1)[-1] if out and out[-1] else ""
        first = _FIRST_WORD.match(part)
        month = first is not None and first.group(0).lower() in months
        if last.endswith(".") and (
            last[:-1].lower() in abbreviations or (last[:-1].isdigit() and len(last) <= 3 and month)
        ):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


_FIRST_WORD = re.compile(r"\w+")


@cache
def _month_words(months: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    """Every form of a pack's month names, lower case ("dezember", "dez", "prosinca")."""
    return frozenset(form.lower() for forms in months for form in forms)


def has_values(text: str) -> bool:
    """A date, time, code or long number is said."""
    return bool(DATE.search(text) or TIME.search(text) or CODE.search(text) or NUMBER.search(text))


