"""An outcome reported after the tool that would deliver it failed (trial40 defects 1 and 8).

A stub answered 500 (or ``{"error": "dispatch unavailable"}``) and the agent said "Done — a
tow truck has been dispatched": the call passed at 100, ``tool_faults`` said "the call
recovered", the caller was left waiting for a truck never sent. The reading is domain-free:

- a call *failed* when its answer says so (:func:`polygon.score.denial.failed_answer`: an
  out-of-band error or injected fault, an in-band ``error``, ``ok/success: false``,
  ``status: failed``);
- an agent turn *reports an outcome* when one of its sentences does the ``outcome`` act
  (:mod:`polygon.languages.acts`, the words of the call's language: the persona's, or for an
  imported call the one its agent turns are heard in, :func:`polygon.score.agent_language.hear`;
  every bundled language when none can be told), or says it is done with a ``done`` word in a
  clause of its own beside a callback ("Gotovo, tehničar je rezerviran, javit ćemo vam se
  porukom", tester46 D10: the sentence reads as a callback);
- a call also left nothing to deliver when its answer counts none left (a key of the packs'
  ``spoken.none_left_keys`` at 0: ``refills_left: 0``) or says it cannot be had (a key made only
  of ``spoken.available_keys`` at false: ``available: false``): "Erledigt — Ihr Rezept ist
  nachbestellt" or "Готово, номер забронирован" right after it, with nothing ordered or booked,
  passed (trial4); read in the records nested in the answer too (a search's list), those the
  call is about (:func:`_none_left`);
- the report *swallowed* the failure when the last tool call made before it failed, no later
  call of that tool succeeded, and the turn itself told the caller nothing went to plan: no
  refusal, transfer or callback act (a callback or a transfer beside "done" is a follow-up, no
  failure told: "Listo, su vuelo está cambiado. Le paso con un compañero para la tarjeta de
  embarque." after the rebooking failed, trial5)
  and none of the language's ``acts.failed`` phrases or ``acts.failed_forms`` ("the system is
  down", "не удалось", "dispatch is down"; never the caller's own trouble: "the problem with
  your boiler", "grijanje ne radi", "your payment failed": :func:`polygon.languages.tells_failure`).

An agent that tells the caller the tool failed, retries successfully, transfers or promises a
callback is fine; so is one that reports an outcome a later successful call delivered.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from polygon.events import Evidence
from polygon.languages import (
    LANGUAGES,
    Language,
    Turn,
    done,
    load_language,
    read_turn,
    reports,
    tells_failure,
)
from polygon.score.agent_language import hear
from polygon.score.denial import failed_answer
from polygon.score.spoken_values import available_key, none_left_key
from polygon.transcript import ConversationView, ToolView, TurnView

TELLING_ACTS = frozenset({"refusal", "transfer", "callback"})
"""Acts that tell the caller the outcome did not (yet) happen as asked."""


@dataclass(frozen=True)
class Swallowed:
    """One outcome report resting on a failed call no later call of its tool made good."""

    call: ToolView
    call_turn: int
    why: str
    """Why the call failed (:func:`failed_answer`), or what it counted none left of."""
    report: TurnView
    none_left: bool = False
    """The call answered, but counted none left (``refills_left: 0``): no failure, nothing to deliver."""

    def evidence(self) -> list[Evidence]:
        """The failed call, then the agent's report."""
        report = self.report
        return [
            Evidence(turn=self.call_turn, at=self.call.at, quote=f"{self.call.tool}: {self.why}"),
            Evidence(turn=report.turn, at=report.agent_at, quote=f"AGENT: {report.agent_text or ''}"),
        ]

    def phrase(self) -> str:
        """One line: what was reported after which failure."""
        what = "had none to give" if self.none_left else "failed"
        return (
            f"the agent reported an outcome at turn {self.report.turn} after {self.call.tool} "
            f"{what} ({self.why}), and no later {self.call.tool} call succeeded"
        )


def swallowed(view: ConversationView) -> list[Swallowed]:
    """Every agent turn that reported an outcome over an unrecovered failed call, in order."""
    packs = _packs(view)
    calls = [(t.turn, c) for t in view.turns for c in t.tools]
    out: list[Swallowed] = []
    made = 0  # calls made before the current turn's agent text
    for t in view.turns:
        made += len(t.tools)
        if not made or not t.agent_text or not _reports_unhedged(t.agent_text, packs):
            continue
        turn, last = calls[made - 1]
        failed = failed_answer(last)
        why = failed or _none_left(last, _known(view, last))
        if why and not _succeeded_later(last, calls[made:]):
            out.append(Swallowed(call=last, call_turn=turn, why=why, report=t, none_left=not failed))
    return out


def _none_left(call: ToolView, known: frozenset[str]) -> str:
    """Why ``call``'s answer leaves nothing to deliver: a count of what is left at 0 ("" if none).

    Read in every record of the answer that counts what is left, at any depth: a search answers
    a list of them (``{"prescriptions": [{"rx": …, "refills_left": 0}, …]}``, trial4). The
    records the call is about are those holding a value its arguments or the caller's facts
    give (``known``: the caller's prescription among another patient's); none holding one,
    all of them. Nothing is left when every record the call is about says so.
    """
    records = [(r, why) for r in _records(call.result) if (why := _record_none_left(r)) is not None]
    about = [(r, why) for r, why in records if known & _scalars(r)] or records
    if not about or not all(why for _, why in about):
        return ""
    return about[0][1]


def _record_none_left(record: dict[str, object]) -> str | None:
    """What a record counts none left of ("it answered refills_left: 0"); "" if some; None: no count."""
    counted = False
    for key, value in record.items():
        zero = value in (0, "0") and not isinstance(value, bool)
        if (zero and none_left_key(key)) or (value in (False, 0, "0") and available_key(key)):
            return f"it answered {key}: {json.dumps(value)}"
        counted = counted or none_left_key(key) or available_key(key)
    return "" if counted else None


def _records(found: object) -> Iterator[dict[str, object]]:
    """Every JSON object in ``found``, itself first, then those nested in it."""
    if isinstance(found, dict):
        yield found
        items: Iterable[object] = found.values()
    elif isinstance(found, list):
        items = found
    else:
        return
    for item in items:
        yield from _records(item)


def _scalars(record: dict[str, object]) -> frozenset[str]:
    """A record's own strings, folded ("RX-310957" → "rx-310957"): what it may be recognised by."""
    return frozenset(v.strip().casefold() for v in record.values() if isinstance(v, str))


def _known(view: ConversationView, call: ToolView) -> frozenset[str]:
    """The strings a record may be recognised by: the call's arguments and the caller's facts.

    Numbers are left out (a count of 1 is no one's record), and strings under three characters.
    """
    persona = view.started.persona if view.started else None
    facts = list(persona.facts.values()) if persona else []
    args = list(call.arguments.values()) if isinstance(call.arguments, dict) else []
    said = [v.strip().casefold() for v in [*facts, *args] if isinstance(v, str)]
    return frozenset(v for v in said if len(v) >= MIN_KNOWN)


MIN_KNOWN = 3
"""The shortest string a record is recognised by ("RX-1", a name, a date; not "A", "no")."""


def _succeeded_later(call: ToolView, later: list[tuple[int, ToolView]]) -> bool:
    return any(c.tool == call.tool and not failed_answer(c) for _, c in later)


def _reports_unhedged(text: str, packs: list[Language]) -> bool:
    """The turn reports an outcome and, in no language read, tells of a failure."""
    reads = [(pack, read_turn(text, pack)) for pack in packs]
    claims = [(pack, turn.acts, _says_done(turn, pack)) for pack, turn in reads]
    if not any("outcome" in acts or said for _, acts, said in claims):
        return False
    return not any(
        acts & _telling(turn, pack, said) or tells_failure(text, pack)
        for (pack, turn), (_, acts, said) in zip(reads, claims, strict=True)
    )


def _telling(turn: Turn, pack: Language, said: bool) -> frozenset[str]:
    """The acts that tell the caller of a failure in a turn that reports an outcome.

    Beside "done" said in a clause of its own a callback is how the caller hears the rest, and
    so is a transfer beside one of the language's ``done`` words: "Listo, su vuelo está
    cambiado. Le paso con un compañero para la tarjeta de embarque." after the rebooking failed
    (trial5) tells no failure. A softer report beside a transfer ("I've noted your request,
    I'm transferring you") still hands the caller on.
    """
    if not said:
        return TELLING_ACTS
    strong = any(done(f" {s.text.lower()} ", pack) for s in turn.sentences if "?" not in s.text)
    return frozenset({"refusal"}) if strong else TELLING_ACTS - {"callback"}


_CLAUSE = re.compile(r"[,;:—–]")


def _says_done(turn: Turn, pack: Language) -> bool:
    """A statement of the turn says it is done before any callback it names.

    "Gotovo, tehničar je rezerviran, javit ćemo vam se porukom": the sentence reads as a
    callback, yet "gotovo" (or the participle "je rezerviran" alone, the pack's ``done_forms``)
    tells the caller the technician is booked; the callback that follows is how they hear the
    time, not the failure told. So does "su parte ha quedado abierto y un perito le llamará"
    in one clause (trial47: an es import passed). "A colleague will call you back once it's
    booked" says nothing is done: what comes before its callback holds no done word.
    """
    clauses = (f" {c.lower()} " for s in turn.sentences if "?" not in s.text for c in _CLAUSE.split(s.text))
    return any(_done_before_callback(c, pack) for c in clauses)


def _done_before_callback(clause: str, pack: Language) -> bool:
    at = min((clause.find(p) for p in pack.acts.callback if p in clause), default=len(clause))
    head = clause[:at] + " "
    return done(head, pack) or reports(head, pack)


def _packs(view: ConversationView) -> list[Language]:
    """The call's language: the persona's; an imported call's, the one its agent turns are heard in.

    An imported call with no turn long enough to tell is read in every bundled language.
    """
    persona = view.started.persona if view.started else None
    if persona is not None and persona.language in LANGUAGES:
        return [load_language(persona.language)]
    heard = Counter(h.language for t in view.turns if t.agent_text and (h := hear(t.agent_text)))
    told = [code for code, _ in heard.most_common(1) if code in LANGUAGES]
    return [load_language(code) for code in told or LANGUAGES]
