"""The agent speaks the call's language: the built-in policy ``policy:agent_language``.

Every call records its language (the persona's ``language``, which the scripted caller speaks
and the noise pack follows), so an agent that answers a Croatian caller in English breaks a
rule the suite has already stated. It is checked as a policy every suite holds without
naming it, so the gate that fails broken policies (``check:policy``, rubric v4) fails it too.

Each agent turn is told by the language files' own data (``polygon/languages/<code>.yaml``),
offline and deterministically:

* a script of its own decides first: a turn with over 30% of its letters in it (Cyrillic:
  ``ru``) and at least :data:`MIN_WORDS` such words is in that language;
* otherwise each Latin-script language counts the turn's words that only it has among its
  ``understand`` stop words, question words and weekdays and its ``signature.words`` (a word
  several languages share, "a", "to", "i", "ne", counts for none; one a later file lists as
  ``signature.borrowed``, German's "in", counts for the earlier language alone, so adding a
  language does not change how the calls held in the others are told, and for none in a call
  held in the language that borrows it), and the words holding one of its own
  ``signature.letters`` (č ć ž š đ for ``hr``);
* a turn is told only when it has :data:`MIN_TURN_WORDS` words, one language has
  :data:`MIN_WORDS` such words and :data:`MARGIN` times as many as any other; otherwise it is
  too short or too neutral to tell ("OK.", "Hvala.", "Okay, thank you!", a name, a number, a
  brand) and never counts.

The call-level rule: **any one turn told in another language breaks the policy.** A caller
who hears a whole sentence in a language not its own has been failed by the agent, however
good the other turns were; a majority rule would let an agent switch language for its one
important answer. A short code-switch inside a turn of the call's language ("Hvala, have a
nice day" holds one English word of the lists) stays under the margin, and turns too short to
tell are left out, so neutral words cannot fail a call. What it misses: an agent whose every
reply is too short to tell (left to the judge's instruction_adherence).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass

import regex

from polygon.events import CheckRecorded, Evidence
from polygon.languages import LANGUAGES, load_language
from polygon.score.recorded import check_recorded
from polygon.similarity import sentences
from polygon.transcript import ConversationView, TurnView

CHECK = "policy:agent_language"
MIN_WORDS = 3
"""Words of one language a turn needs before it is told at all."""
MIN_TURN_WORDS = 4
"""Words a turn needs to be told: shorter ones are the courtesies bilingual agents switch in
("Okay, thank you!", "Hvala, thank you!"), never a language the call was held in."""
MARGIN = 2
"""How many times the other languages' words the told language needs (a code-switch stays under)."""
SCRIPT_SHARE = 0.3
"""A turn with more than this share of its letters in a language's own script is in that language."""
_LETTER = regex.compile(r"\p{L}")
_WORD = regex.compile(r"\p{L}+")


@dataclass(frozen=True)
class _Marks:
    """What tells one language: its own script, its own letters, words only it has."""

    code: str
    script: regex.Pattern[str] | None
    letters: regex.Pattern[str] | None
    words: frozenset[str]
    foreign: regex.Pattern[str] | None = None
    """A letter of its script it does not write (from ``signature.alphabet``)."""


@dataclass(frozen=True)
class Heard:
    """A turn told in one language, and the words that told it."""

    language: str
    words: tuple[str, ...]
    sentence: str = ""
    """The sentence told in another language when the turn as a whole was not."""


@functools.cache
def _marks(call: str = "") -> tuple[_Marks, ...]:
    """Every language's marks in a call held in ``call``, a word two languages' lists share dropped from both.

    A word a later file borrows (its ``signature.borrowed``: German "in", English's) counts for
    the earlier language alone, so the calls held in the earlier languages are told as before
    the later one came; in a call held in the borrowing language it counts for none, like any
    shared word ("In Ordnung, so machen wir das am besten." is no English).
    """
    langs = [load_language(code) for code in LANGUAGES]
    lent = frozenset().union(*(lang.signature.borrowed for lang in langs if lang.code == call))
    lists = {
        lang.code: (lang.stop_words | lang.signature.words | lang.understand.wh_words | lang.weekdays)
        - lang.signature.borrowed
        - lent
        for lang in langs
    }
    seen = Counter(w for words in lists.values() for w in words)
    return tuple(
        _Marks(
            code=lang.code,
            script=regex.compile(lang.signature.script) if lang.signature.script else None,
            letters=regex.compile(lang.signature.letters) if lang.signature.letters else None,
            words=frozenset(w for w in lists[lang.code] if seen[w] == 1),
            foreign=_foreign(lang.signature.script, lang.signature.alphabet),
        )
        for lang in langs
    )


_ASCII_PAIRS = "".join(chr(a) + chr(b) for a in range(128) for b in range(128))
"""Every ASCII character next to every other: a pattern that finds nothing here finds nothing
in an ASCII word, unless it needs three ASCII characters in a row (no letter or script does)."""


@dataclass(frozen=True)
class _Reader:
    """A call language's marks, arranged so a turn's words are each looked up once."""

    scripts: tuple[tuple[_Marks, regex.Pattern[str]], ...]
    """The languages with a script of their own, in file order."""
    latin: tuple[str, ...]
    """The codes of the others, in file order (ties go to the first, as before)."""
    owner: dict[str, str]
    """Each word only one Latin-script language has, to that language (its marks' ``words``)."""
    lettered: tuple[tuple[str, regex.Pattern[str]], ...]
    """The Latin-script languages with letters of their own."""
    ascii_blind: bool
    """No script or letters match in ASCII text: an ASCII turn skips every pattern."""

    def told(self, words: list[str]) -> dict[str, list[str]]:
        """Per Latin-script language, in order, the words only it has or that hold one of its letters."""
        told: dict[str, list[str]] = {code: [] for code in self.latin}
        owner, lettered, blind = self.owner, self.lettered, self.ascii_blind
        for w in words:
            mine = owner.get(w)
            if mine is not None:
                told[mine].append(w)
            if blind and w.isascii():
                continue
            for code, letters in lettered:
                if code != mine and letters.search(w, concurrent=False):
                    told[code].append(w)
        return told


@functools.cache
def _reader(call: str = "") -> _Reader:
    """:func:`_marks` for a call held in ``call``, as :meth:`_Reader.told` reads them."""
    marks = _marks(call)
    latin = [m for m in marks if m.script is None]
    patterns = [p for m in marks for p in (m.script, m.letters) if p is not None]
    return _Reader(
        scripts=tuple((m, m.script) for m in marks if m.script is not None),
        latin=tuple(m.code for m in latin),
        owner={w: m.code for m in latin for w in m.words},
        lettered=tuple((m.code, m.letters) for m in latin if m.letters is not None),
        ascii_blind=not any(p.search(_ASCII_PAIRS, concurrent=False) for p in patterns),
    )


def hear(text: str, call: str = "") -> Heard | None:
    """The language ``text`` is clearly in, or ``None`` when it is too short or neutral to tell.

    ``call`` is the language the call is held in (see :func:`_marks`). Every match keeps the
    GIL (``concurrent=False``): on a ``str`` the regex module lets go of it for each match by
    default, so each of a turn's ~18 matches, microseconds long, was a chance for the run's
    writer thread to take the GIL and for this one to wait for it back. A script's words are
    looked for only in a turn written in that script; an ASCII turn holds no script's or
    language's own letters (:attr:`_Reader.ascii_blind`), so none are looked for in it.
    """
    return _heard(text, _WORD.findall(text.lower(), concurrent=False), call)


def _heard(text: str, words: list[str], call: str) -> Heard | None:
    """:func:`hear`, given the text's lower-cased words."""
    if len(words) < MIN_TURN_WORDS:
        return None
    reader = _reader(call)
    if not (reader.ascii_blind and text.isascii()):
        letters = len(_LETTER.findall(text, concurrent=False))
        for m, script in reader.scripts:
            if letters and len(script.findall(text, concurrent=False)) > SCRIPT_SHARE * letters:
                return _in_script(m, [w for w in words if script.search(w, concurrent=False)])
    elif sum(1 for w in words if w in reader.owner) < MIN_WORDS:
        return None  # only its owned words tell an ASCII turn here: no language gets MIN_WORDS
    told = reader.told(words)
    best = max(told, key=lambda code: len(told[code]))
    rest = max((len(w) for code, w in told.items() if code != best), default=0)
    if len(told[best]) >= MIN_WORDS and len(told[best]) >= MARGIN * rest:
        return Heard(best, tuple(told[best]))
    return None


def _in_script(m: _Marks, own: list[str]) -> Heard | None:
    """A turn in ``m``'s script: its language, or another language of that script.

    Another when :data:`MIN_WORDS` of its words are spelled with letters ``m``'s language does
    not write (a Ukrainian turn on a Russian call; a Ukrainian place name alone in a Russian
    turn is two words at most).
    """
    if len(own) < MIN_WORDS:
        return None
    alien = [w for w in own if m.foreign is not None and m.foreign.search(w, concurrent=False)]
    if len(alien) >= MIN_WORDS:
        return Heard(f"a language other than {m.code} in its script", tuple(alien))
    return Heard(m.code, tuple(own))


def _foreign(script: str, alphabet: str) -> regex.Pattern[str] | None:
    """Letters of ``script`` outside ``alphabet`` (``None`` when either is not given)."""
    if not script or not alphabet:
        return None
    return regex.compile(f"(?!{alphabet}){script}")


def language_policy(view: ConversationView) -> list[CheckRecorded]:
    """The check, on a call that records its language; none on an imported call.

    An imported call has no persona, so no language it was meant to be in: it gets no check,
    as it gets no suite policy.
    """
    persona = view.started.persona if view.started else None
    if persona is None:
        return []
    return [agent_language(view, (persona.language or "en").lower().split("-")[0])]


def agent_language(view: ConversationView, call: str) -> CheckRecorded:
    """Every agent turn that can be told is in the call's language ``call`` (the persona's)."""
    if call not in LANGUAGES:
        return check_recorded(view, CHECK, "n/a", f"no language file for the call's language {call!r}")
    said = [t for t in view.turns if t.agent_text]
    heard = [(t, _told(t.agent_text or "", call)) for t in said]
    told = [(t, h) for t, h in heard if h is not None]
    wrong = [(t, h) for t, h in told if h.language != call]
    if wrong:
        first_turn, first = wrong[0]
        detail = (
            f"turn {first_turn.turn}: the agent spoke {first.language}, the call's language is {call}"
            f" ({len(wrong)} of {len(said)} agent turns in another language)"
        )
        return check_recorded(view, CHECK, "fail", detail, [_evidence(t, h) for t, h in wrong])
    if not told:
        why = f"none of the agent's {len(said)} turns is long enough to tell its language"
        return check_recorded(view, CHECK, "n/a", why)
    rest = "" if len(told) == len(said) else " (the rest too short to tell)"
    detail = f"{len(told)} of {len(said)} agent turns told, all in {call}{rest}"
    return check_recorded(view, CHECK, "pass", detail)


def _told(text: str, call: str) -> Heard | None:
    """The turn's language, or the other language one of its sentences is clearly in.

    A turn of the call's language can hold the one answer that mattered in another: "Секунду,
    проверяю. i checked your fare rules. the fare is non refundable … спасибо за звонок" is
    Russian by its letters as a whole (the words said beside the tools and the closing), yet
    the caller heard its answer in English. Each sentence is told on its own with the same
    thresholds, so a short courtesy ("Hvala, have a nice day") still tells nothing.
    """
    words = _WORD.findall(text.lower(), concurrent=False)  # read once for the turn's two questions
    whole = _heard(text, words, call)
    if whole is not None and whole.language != call:
        return whole
    if _no_other_language(text, words, call):  # most turns: then no sentence needs splitting off
        return whole
    parts = sentences(text)
    if len(parts) < 2:
        return whole
    for part in parts:
        heard = hear(part, call)
        if heard is not None and heard.language != call:
            return Heard(heard.language, heard.words, part)
    return whole


def _no_other_language(text: str, words: list[str], call: str) -> bool:
    """No sentence of ``text`` can be told in a language other than ``call`` (most turns).

    An ASCII turn on a call whose marks no ASCII text holds (:attr:`_Reader.ascii_blind`) is
    told only by the words each language owns; a sentence's words are some of the turn's, so
    with fewer than :data:`MIN_WORDS` owned by other languages in the whole turn, no sentence
    reaches them: hearing each sentence again would find nothing.
    """
    reader = _reader(call)
    if not (reader.ascii_blind and text.isascii()):
        return False
    owner = reader.owner
    return sum(1 for w in words if owner.get(w, call) != call) < MIN_WORDS


def _evidence(t: TurnView, h: Heard) -> Evidence:
    words = ", ".join(dict.fromkeys(h.words))
    where = f" in “{h.sentence}”" if h.sentence else ""
    quote = f"AGENT: {t.agent_text} [heard {h.language}{where}: {words}]"
    return Evidence(turn=t.turn, at=t.agent_at, quote=quote)

