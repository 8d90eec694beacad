"""What the scripted caller understands of an agent, in any domain and language.

First, what each of the agent's sentences *does* — its dialogue act (:func:`read_turn`): a
question asking for something, an offer, a confirmation request, a read-back, an outcome
report, a refusal (with or without a reason), a transfer, a greeting or closing, filler.
The caller decides on the acts, never on a word found anywhere: a greeting that names the
business settles nothing, and a question is never an outcome.

Then which fact a question asks for (:func:`asked`): by the concepts of the fact key's
words — abbreviations and synonyms included (``last4``, ``dob``, ``tel``, ``no``) — by
the value's shape (a time for "when") and by what the question names. A fact that is a
personal identifier (a name, a phone, a birth date, the last digits of a card) is given
only when the question names it.

Read-backs are compared with a fact of the same kind only (:func:`misheard`): a date with
a date, a code with a code of the same prefix, a number with a number of the same length
— a card number read back is never "corrected" with a birth date.

No domain words live here; the language's words are in ``languages/<code>.yaml``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

import regex

from polygon.languages import CODE as _CODE
from polygon.languages import DATE as _DATE
from polygon.languages import NUMBER as _NUMBER
from polygon.languages import TIME as _TIME
from polygon.languages import Language, Turn, caller_language, has, read_turn
from polygon.score import values_in
from polygon.similarity import word_tuple, words

_SHORT = re.compile(r"(?<![\w.:-])\d{3,4}(?![\w:-]|\.\d)")
_CAPITALISED = re.compile(r"[^\W\d_][^\W\d_'-]*")
STRICT = frozenset({"name", "phone", "email", "address", "birth", "last4"})
"""Personal identifiers: given only when the question names them."""


def _stem(word: str, size: int = 5) -> str:
    """A crude stem, enough to meet "delivery" with "delivered", "pizzu" with "pizza".

    Latin letters lose their diacritics first: suite authors write keys in ASCII
    (``postanski_broj``) for words the agent says with them ("poštanski broj").
    """
    if not word.isascii():
        word = _fold(word)
    return word[:size] if len(word) > size else word


@functools.lru_cache(maxsize=8192)
def _fold(word: str) -> str:
    """The word with each Latin letter's diacritic dropped (š → s, đ → d); other scripts kept."""
    out = []
    for ch in word.replace("đ", "d").replace("Đ", "D"):
        base = unicodedata.normalize("NFD", ch)[0]
        out.append(base if base.isascii() and base.isalpha() else ch)
    return "".join(out)


# -- hearing ---------------------------------------------------------------------------------


def spelling_map(pack: Language, own: tuple[str, ...] = ()) -> dict[str, str]:
    """Each word of the pack (and of ``own``: the goal's, the facts') written without its letters.

    German written without umlauts ("fuer", "auf wiederhoeren", "Mueller") → the word as the
    file spells it; empty for a language with no such letters.
    """
    spellings = pack.understand.spellings
    if not spellings:
        return {}
    out = dict(_pack_spellings(pack))
    for word in own:
        low = word.lower()
        out.setdefault(_unspelled(low, spellings), low)
    out = {k: v for k, v in out.items() if k != v}
    return out


_SPELLINGS: dict[int, tuple[Language, dict[str, str]]] = {}


def _pack_spellings(pack: Language) -> dict[str, str]:
    hit = _SPELLINGS.get(id(pack))
    if hit is None or hit[0] is not pack:
        spellings = pack.understand.spellings
        hit = _SPELLINGS[id(pack)] = (pack, {_unspelled(w, spellings): w for w in _vocabulary(pack)})
    return hit[1]


def _vocabulary(pack: Language) -> set[str]:
    """Every word the caller reads an agent by: its understanding's and its acts' phrases."""
    u = pack.understand
    phrases: set[str] = set(u.stop_words | u.wh_words | u.weekdays | u.person_nouns | u.ask_goals)
    phrases |= set(u.question_hints) | {m for marks in u.concepts.values() for m in marks} | set(u.openers)
    for name in type(pack.acts).model_fields:
        value = getattr(pack.acts, name)
        phrases |= set(value)
    return {w for p in phrases for w in word_tuple(p) if any(ch in w for ch in pack.understand.spellings)}


def _unspelled(word: str, spellings: Mapping[str, str]) -> str:
    for letter, written in spellings.items():
        word = word.replace(letter, written)
    return word


_UNSPELLED_WORD = re.compile(r"[^\W\d_]+")


def respelled(text: str, spelled: Mapping[str, str]) -> str:
    """``text`` with each word written without its letters given them back ("fuer" → "für")."""
    if not spelled:
        return text

    def back(m: re.Match[str]) -> str:
        word = m.group(0)
        found = spelled.get(word.lower())
        if found is None:
            return word
        return found[:1].upper() + found[1:] if word[:1].isupper() else found

    return _UNSPELLED_WORD.sub(back, text)


_HEARD: dict[tuple[str, int], tuple[Language, Turn]] = {}


def heard_turn(text: str, pack: Language) -> Turn:
    """An agent turn's acts as the caller hears them (:func:`read_turn`, then by form).

    A voice transcript often drops "?": in a turn with none, a sentence read as filler or a
    greeting that opens a request for information ("sure thing, what's the booking
    reference", "and the surname on the reservation", "how can i help") asks it.
    """
    key = (text, id(pack))
    hit = _HEARD.get(key)
    if hit is None or hit[0] is not pack:
        if len(_HEARD) >= _HELD:
            _HEARD.clear()
        hit = _HEARD[key] = (pack, _heard_turn(read_turn(text, pack), "?" in text, pack))
    return hit[1]


def _heard_turn(turn: Turn, marked: bool, pack: Language) -> Turn:
    if marked or not turn.acts & {"filler", "greeting", "question", "outcome"}:
        return turn  # a turn that marks its questions is read by its marks
    parts = tuple(replace(s, act=_heard_act(s.text, s.act, pack)) for s in turn.sentences)
    return Turn(parts, turn.reason)


def _heard_act(sentence: str, act: str, pack: Language) -> str:
    if act in ("filler", "greeting") and asks_by_form(sentence, pack):
        return _act_by_form(sentence, pack)
    if act in ("outcome", "filler") and _asks_before_a_report(sentence, pack):
        # the scorer may read the relative clause's done word as a report or, knowing relative
        # clauses, as nothing: either way the caller hears the request before it
        return "question"
    if act == "question" and _instructs(sentence, pack):
        return "instruction"
    return act


def _asks_before_a_report(sentence: str, pack: Language) -> bool:
    """A request whose done word is only in a clause about the thing asked for.

    "и фамилию пассажира, на которого оформлен билет" (the surname the ticket is issued to)
    asks: its first clause opens a request and holds no done word; "и ваш заказ оформлен"
    reports.
    """
    first = _CLAUSE_MARKS.split(sentence)[0]
    low = f" {first.lower()} "
    return asks_by_form(first, pack) and not has(low, pack.acts.done + pack.acts.reported)


def _instructs(sentence: str, pack: Language) -> bool:
    """A request verb that tells the caller to do something, not to say something.

    "немедленно сообщите проводнику" (tell the conductor) asks for no fact: the word after
    each request verb (past filler words) is neither a question word, a "your", nor a word
    naming a fact ("назовите, пожалуйста, номер брони", "tell me your name" ask). A request
    with nothing after it ("I need a few details.") still asks; so does one its last clause
    opens as a question by form.
    """
    low = f" {sentence.lower()} "
    requests = [r for r in pack.acts.requests if r in low]
    if not requests or asks_by_form(sentence, pack) or has(low, pack.acts.asks):
        return False
    objects = [_object_of(low, r, pack) for r in requests]
    return all(o is not None and not _names_a_fact(o, pack) for o in objects)


def _object_of(low: str, request: str, pack: Language) -> str | None:
    """The first word after a request verb that is not a filler word (None: nothing follows)."""
    after = word_tuple(low[low.find(request) + len(request) :])
    skip = pack.stop_words - pack.wh_words
    return next((w for w in after if w not in skip), None)


def _names_a_fact(word: str, pack: Language) -> bool:
    english = caller_language("en")
    return word in pack.wh_words or bool(_concepts_of((word,), pack) | _concepts_of((word,), english))


def _act_by_form(sentence: str, pack: Language) -> str:
    low = f" {sentence.lower()} "
    return "wants" if has(low, pack.acts.wants) else "question"


_CLAUSE_MARKS = re.compile(r"[,;:—–]")
_LEADS = 3
"""At most so many lead-in words before an opener ("okay, so, um, what's …")."""


def asks_by_form(sentence: str, pack: Language) -> bool:
    """The sentence's last clause opens a request for information (the pack's ``openers``).

    An opener that begins with a lead-in ("and the …", "und ihre …") is an ellipsis: it asks
    only in a short clause with no verb of being ("and the surname on the reservation", not
    "and the room is on the fourth floor").
    """
    said = _last_clause(sentence, pack)
    leads = pack.understand.lead_ins
    for start in range(min(_LEADS, len(said)) + 1):
        if _opens(said[start:], said, pack):
            return True
        if start < len(said) and said[start] not in leads:
            break
    return False


def _last_clause(sentence: str, pack: Language) -> tuple[str, ...]:
    """The words of the sentence's last clause that says something.

    A courtesy after the request ("me indica su número de póliza, por favor", "…, please") is
    a clause of filler words only: the request is the clause before it.
    """
    filler = pack.stop_words - pack.wh_words
    clauses = [word_tuple(c) for c in _CLAUSE_MARKS.split(sentence)]
    return next((c for c in reversed(clauses) if set(c) - filler), clauses[-1])


def _opens(rest: tuple[str, ...], clause: tuple[str, ...], pack: Language) -> bool:
    leads = pack.understand.lead_ins
    for opener in _openers(pack):
        if rest[: len(opener)] != opener:
            continue
        if opener[0] not in leads:
            return True
        if len(_unqualified(clause, pack)) <= 6 and not set(clause) & pack.acts.states:
            return True  # "y el pin de cuatro cifras | de su línea": the complement only says whose
    return False


def _unqualified(clause: tuple[str, ...], pack: Language) -> tuple[str, ...]:
    """The clause up to its first qualifier ("of your", "de su"), not counting its first word."""
    phrases = [tuple(q.split()) for q in pack.understand.qualifiers]
    for i in range(1, len(clause)):
        if any(clause[i : i + len(p)] == p for p in phrases):
            return clause[:i]
    return clause


_OPENERS: dict[int, tuple[Language, tuple[tuple[str, ...], ...]]] = {}


def _openers(pack: Language) -> tuple[tuple[str, ...], ...]:
    hit = _OPENERS.get(id(pack))
    if hit is None or hit[0] is not pack:
        found = tuple(word_tuple(o) for o in pack.understand.openers if word_tuple(o))
        hit = _OPENERS[id(pack)] = (pack, found)
    return hit[1]


# -- whose the goal is ------------------------------------------------------------------------

_WORD_OR_NOT = re.compile(r"([^\W\d_][\w'’]*)")


def in_first_person(goal: str, pack: Language) -> str:
    """A persona goal written about the persona, as the caller says it ("his" → "my", "su" → "mi").

    Suite authors write "get rebooked after her flight was cancelled", "saber cómo va su
    siniestro": said as written, "her"/"su" is someone else's ("your claim"). Words are
    replaced up to the first word for another person (``relations``): "his colleague Daniel
    Mercer has" keeps the colleague's "has", "su vecino … le van a pagar" the neighbour's "le".
    """
    table = pack.understand.first_person
    if not table:
        return goal
    parts = _WORD_OR_NOT.split(goal)  # words at odd places, what lies between at even ones
    i = 1
    while i < len(parts):
        word = parts[i].lower()
        if word in pack.understand.relations:
            break
        pair = f"{word} {parts[i + 2].lower()}" if i + 2 < len(parts) and parts[i + 1] == " " else ""
        if pair in table:
            parts[i : i + 3] = [_cased(table[pair], parts[i]), "", ""]
        elif word in table:
            parts[i] = _cased(table[word], parts[i])
        i += 2
    return "".join(parts)


def _cased(said: str, written: str) -> str:
    return said[:1].upper() + said[1:] if written[:1].isupper() else said


# -- concepts -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Marks:
    """A pack's concept marks as look-ups.

    A mark names its concept when a token equals it, or (a mark of three letters or more)
    when a token starts with it.
    """

    pack: Language
    """Held so that the pack's id, the key of :data:`_MARKS`, is never reused."""
    exact: dict[str, frozenset[str]]
    prefix: dict[str, frozenset[str]]
    keys: dict[str, frozenset[str]]
    """:func:`key_concepts` of each fact key seen so far (a call asks about the same few)."""
    named: dict[str, bool] = field(default_factory=dict)
    """:func:`names_the_caller` of each fact key seen so far."""
    stems: dict[str, frozenset[str]] = field(default_factory=dict)
    """:func:`key_stems` of each fact key seen so far."""
    about: dict[str, frozenset[str]] = field(default_factory=dict)
    """:func:`asked_about` of each question heard so far (every call hears the same agent lines)."""
    wanting: dict[str, bool] = field(default_factory=dict)
    """:func:`asks_what_wanted` of each sentence heard so far."""
    asking: dict[str, bool] = field(default_factory=dict)
    """:func:`asks_something` of each sentence heard so far."""


_MARKS: dict[int, _Marks] = {}
_KEYS_HELD = 4096
_KEPT_CHARS = 1_000
"""Longest sentence whose reading a pack keeps (a kept 100,000-character reply would be 100 KB)."""
_Read = TypeVar("_Read")


def _kept(memo: dict[str, _Read], text: str, pack: Language, read: Callable[[str, Language], _Read]) -> _Read:
    """``read(text, pack)``, remembered in ``memo`` (bounded).

    A text longer than :data:`_KEPT_CHARS` is read afresh, never kept.
    """
    if len(text) > _KEPT_CHARS:
        return read(text, pack)
    found = memo.get(text)
    if found is None:
        if len(memo) >= _KEYS_HELD:
            memo.clear()
        found = memo[text] = read(text, pack)
    return found


def _marks(pack: Language) -> _Marks:
    found = _MARKS.get(id(pack))
    if found is None:
        exact: dict[str, set[str]] = {}
        prefix: dict[str, set[str]] = {}
        for concept, marks in pack.understand.concepts.items():
            for m in marks:
                exact.setdefault(m, set()).add(concept)
                if len(m) >= 3:
                    prefix.setdefault(m, set()).add(concept)
        found = _MARKS[id(pack)] = _Marks(
            pack,
            {m: frozenset(c) for m, c in exact.items()},
            {m: frozenset(c) for m, c in prefix.items()},
            {},
        )
    return found


def _concepts_of(tokens: tuple[str, ...], pack: Language) -> frozenset[str]:
    marks = _marks(pack)
    exact, prefix = marks.exact, marks.prefix
    out: set[str] = set()
    for token in tokens:
        out |= exact.get(token, frozenset())
        for size in range(3, len(token) + 1):  # the token's prefixes that could be a mark
            out |= prefix.get(token[:size], frozenset())
    return frozenset(out)


@functools.lru_cache(maxsize=2048)
def _key_tokens(key: str) -> tuple[str, ...]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", key)  # lastFour → last Four
    return tuple(w for w in re.split(r"[\W_]+", spaced.lower()) if w)


def key_concepts(key: str, pack: Language) -> frozenset[str]:
    """What a fact key is about: its words' concepts ("card_last4" → last4; "guest" → name).

    A key is read in its persona's language and in English (suites often name keys in
    English whatever the language of the call).
    """
    seen = _marks(pack).keys
    found = seen.get(key)
    if found is None:
        if len(seen) >= _KEYS_HELD:  # a long-lived process (the web UI) meets many suites
            seen.clear()
        found = seen[key] = _key_concepts(key, pack)
    return found


def _key_concepts(key: str, pack: Language) -> frozenset[str]:
    tokens = _key_tokens(key)
    english = caller_language("en")
    found = set(_concepts_of(tokens, pack)) | set(_concepts_of(tokens, english))
    persons = pack.understand.person_nouns | english.understand.person_nouns
    if {"last", "four"} <= set(tokens) or "last4" in tokens:
        found.add("last4")
    if tokens and all(t in persons for t in tokens):
        found.add("name")
    if "birth" in found:
        found.discard("date")
    if "last4" in found:
        found.discard("number")
    return frozenset(found)


NAME_PARTS = frozenset({"full", "first", "last", "given", "family", "sur", "surname", "my", "own"})
"""Words a key for the caller's own name may hold beside a name word ("full_name", "last_name")."""


def names_the_caller(key: str, pack: Language) -> bool:
    """A name key for the caller itself, not for something it owns ("pet_name", "company_name").

    Every word of the key names a name, a part of one or a person ("guest", "patient_name").
    Kept per pack and key, as :func:`key_concepts` is (asked about the same keys each turn).
    """
    named = _marks(pack).named
    found = named.get(key)
    if found is None:
        if len(named) >= _KEYS_HELD:
            named.clear()
        found = named[key] = _names_the_caller(key, pack)
    return found


def _names_the_caller(key: str, pack: Language) -> bool:
    english = caller_language("en")
    marks = {m for p in (pack, english) for m in p.understand.concepts.get("name", ())}
    persons = pack.understand.person_nouns | english.understand.person_nouns
    skip = NAME_PARTS | persons | pack.stop_words | english.stop_words  # "ime_i_prezime"
    return all(t in skip or any(t.startswith(m) for m in marks) for t in _key_tokens(key))


def key_stems(key: str, pack: Language) -> frozenset[str]:
    """The stems of a fact key's words, and of the pack's label for what no concept reads.

    ``plz`` is asked for as "Postleitzahl", ``booking_no`` in Russian as "номер брони": the
    label says the key's words in the pack's language. A word a concept reads already
    (``no``, ``tel``, ``dob``) is matched by that concept, not by its label's words too.
    """
    seen = _marks(pack).stems
    found = seen.get(key)
    if found is None:
        if len(seen) >= _KEYS_HELD:
            seen.clear()
        size = pack.understand.stem
        found = seen[key] = frozenset(
            _stem(w, size) for w in (*_key_tokens(key), *_label_words(key, pack)) if len(w) > 1
        )
    return found


def _label_words(key: str, pack: Language) -> tuple[str, ...]:
    tokens = _key_tokens(key)
    whole = _whole_label(tokens, pack)
    if whole:
        return word_tuple(whole)
    english = caller_language("en")
    unread = (t for t in tokens if not _concepts_of((t,), pack) and not _concepts_of((t,), english))
    return tuple(w for t in unread if t in pack.labels for w in word_tuple(pack.labels[t]))


_NUMBERED = frozenset({"no", "nr", "num", "number", "ref", "reference", "id", "code"})
"""Last words of a key that make it a number of something ("booking_ref", "order_id")."""


def _whole_label(tokens: tuple[str, ...], pack: Language) -> str:
    """The pack's label for the whole key ("booking_no" → "номер брони"), if it has one.

    Any number word last ("booking_ref", "order_id") is looked up as ``_no``.
    """
    found = pack.labels.get("_".join(tokens), "")
    if not found and len(tokens) > 1 and tokens[-1] in _NUMBERED:
        found = pack.labels.get("_".join((*tokens[:-1], "no")), "")
    return found


def key_label(key: str, pack: Language) -> str:
    """How a fact key is said in the pack's language ("policy_no" → "policy number").

    The whole key's label first ("booking_no" → "номер брони", head noun first), else each
    word's; a word the pack has no label for is said as written — unless the pack has a
    script of its own and the word is not in it: a Russian caller never says "Booking номер".
    Words with digits are dropped ("address2").
    """
    tokens = _key_tokens(key)
    whole = _whole_label(tokens, pack)
    if whole:
        return whole
    said = (pack.labels.get(t) or (t if _own_word(t, pack) else "") for t in tokens)
    return " ".join(w for w in said if w and not any(ch.isdigit() for ch in w))


def _own_word(word: str, pack: Language) -> bool:
    script = pack.signature.script
    return not script or bool(regex.search(script, word, concurrent=False))  # keeps the GIL


def content(text: str, pack: Language) -> set[str]:
    """The stems of a text's words that carry meaning (no stop words, no one-letter ones)."""
    return set(_content(text, pack.stop_words, pack.understand.stem))


@functools.lru_cache(maxsize=8192)
def _content(text: str, stop_words: frozenset[str], size: int) -> frozenset[str]:
    return frozenset(_stem(w, size) for w in word_tuple(text) if w not in stop_words and len(w) > 1)


_ENDINGS = "aeiouyаеиоуыэюяйь"


def _roots(stems: set[str]) -> set[str]:
    """Stems without an inflected last vowel: "malu" and "mala" meet as "mal"."""
    return {w[:-1] if len(w) > 3 and w[-1] in _ENDINGS else w for w in stems}


def in_goal(value: str, goal: str, pack: Language) -> bool:
    """The goal spells this fact out ("medium veggie" in "order a medium veggie pizza")."""
    said = _roots(content(value, pack))
    return bool(said) and said <= _roots(content(goal, pack))


# -- which fact a question asks for -------------------------------------------------------


_HELD = 4096
"""Answers kept per memo below; past this the memo starts again (a bound, not a policy)."""
_ASKED: dict[tuple[str, tuple[tuple[str, str], ...], str, int], tuple[Language, tuple[str, bool]]] = {}
_MISHEARD: dict[tuple[str, tuple[tuple[str, str], ...], int], tuple[Language, tuple[Misheard, ...]]] = {}
"""Both memos: every call of a suite hears the same agent lines against the same personas'
facts. Keyed by the pack's id and checked against the pack itself (a pack is not hashable)."""


def asked(question: str, facts: Mapping[str, str], goal: str, pack: Language) -> tuple[str, bool]:
    """(key, named): the fact asked for, and whether the question names it.

    Named: by its key's concepts or words, or a question word for its shape — not only by
    speaking of what the goal is about.
    """
    key = (question, tuple(facts.items()), goal, id(pack))
    hit = _ASKED.get(key)
    if hit is None or hit[0] is not pack:
        if len(_ASKED) >= _HELD:
            _ASKED.clear()
        hit = _ASKED[key] = (pack, _asked(question, facts, goal, pack))
    return hit[1]


def _asked(question: str, facts: Mapping[str, str], goal: str, pack: Language) -> tuple[str, bool]:
    raw = set(words(question))
    q_stems = content(question, pack)
    q_roots = _roots(q_stems)
    q_concepts = _question_concepts(question, pack)
    scores: dict[str, float] = {}
    for key, value in facts.items():
        if any(w in raw and mark not in value for w, mark in pack.understand.demands.items()):
            continue  # "your email address?" is not asking for the street address
        concepts = key_concepts(key, pack) | _shape_concepts(value)
        strict = concepts & STRICT
        if strict and not strict & q_concepts:
            continue  # a birth date only when asked for one
        # Roots, not stems: a short noun inflects in its last vowel ("za koju zonu?" asks for `zona`).
        score = 2.0 * len(_roots(set(key_stems(key, pack))) & q_roots) + 1.5 * len(concepts & q_concepts)
        if strict & q_concepts:
            score += 2.0
        if score:
            scores[key] = score
    if scores:
        # The noun asked for beats one in a complement saying whose it is: "el pin de cuatro
        # cifras de su línea" asks for the pin. A tie goes to the key the question names whole:
        # "the postcode" names all of `postcode` but only half of `account_no`.
        whose = _qualified_only(question, {k: facts[k] for k in scores}, pack)
        meant = _meant_by_goal(q_stems, scores, goal, pack)
        covered = {k: _covered(k, q_stems, q_concepts, pack) for k in scores}
        rank = {k: (k not in whose, scores[k], meant.get(k, (0, 0)), covered[k]) for k in scores}
        best = max(sorted(scores), key=rank.__getitem__)
        return best, True
    # "Which pizza, what size?" in a call to order a medium veggie pizza: the question is
    # about what the goal names, and the answer is the fact the goal spells out.
    if content(goal, pack) & q_stems or asks_what_wanted(question, pack):
        named = [k for k, v in sorted(facts.items()) if in_goal(v, goal, pack)]
        if named:
            return named[0], False
    return "", False


def _meant_by_goal(
    q_stems: set[str], keys: Mapping[str, float], goal: str, pack: Language
) -> dict[str, tuple[int, int]]:
    """Where the question is about doing the goal: each key's words the goal says, then its words.

    The qualified key is the one the goal changes. "An welche Adresse soll ich das Paket
    umleiten?" names ``adresse`` and ``neue_adresse`` alike; it asks about the goal's act
    ("umleiten", "Paket": words of the goal beside the keys'), and the goal ("Paket an eine
    neue Adresse umleiten", or "an eine andere Adresse") is to change the address: the new one
    is meant. Asked only for "Ihre Adresse", the caller gives its own.
    """
    goal_stems = content(goal, pack)
    named = set().union(*(key_stems(k, pack) for k in keys))
    if not (q_stems - named) & goal_stems:
        return {}
    return {k: (len(key_stems(k, pack) & goal_stems), len(key_stems(k, pack))) for k in keys}


_PARTS = re.compile(r"[,.;:?!¿¡]|\s(?:и|а также|and|also|i|und|sowie|y|e)\s")
"""Where one request for information ends and another may begin: a clause, or "and"."""


def asked_each(
    question: str, first: str, facts: Mapping[str, str], goal: str, pack: Language
) -> tuple[str, ...]:
    """Every fact a turn asks for, ``first`` (:func:`asked`'s) among them, in the order named.

    "назовите номер бронирования и фамилию пассажира" asks for two facts; a caller gives
    both, not the one it ranks first. Each part (a clause, or what "and" joins) is read on
    its own and must name the whole of its fact ("adresu, ulicu i kućni broj" asks for the
    address alone, not the customer number). Only ``first`` when no other part names another.
    """
    found: list[str] = []
    for part in _PARTS.split(question):
        key, named = asked(part, facts, goal, pack) if part.strip() else ("", False)
        if key and named and key not in found and (key == first or _names_whole(key, part, pack)):
            found.append(key)
    return tuple(found) if first in found and len(found) > 1 else (first,)


def _names_whole(key: str, part: str, pack: Language) -> bool:
    """The part names every word of the key, or of its label.

    "kućni broj" (a house number) names half of ``broj_korisnika``; "номер бронирования"
    all of ``booking_no`` (its label "номер брони").
    """
    stems = content(part, pack)
    if _covered(key, stems, _question_concepts(part, pack), pack) == 1.0:
        return True
    label = {_stem(w, pack.understand.stem) for w in _label_words(key, pack) if len(w) > 1}
    return bool(label) and label <= stems


_CLAUSE = re.compile(r"[,.;:?!¿¡]")


def _qualified_only(question: str, facts: Mapping[str, str], pack: Language) -> set[str]:
    """The keys a question names only after a qualifier ("of your", "de su", "Ihrer").

    In each clause the words after the first qualifier that follows a named fact say whose
    the thing asked for is: "the PIN of your line", "el pin de su línea", "die PIN Ihrer
    Leitung". A key named before it as well is not demoted.
    """
    if not pack.understand.qualifiers:
        return set()
    naming = {k: (key_stems(k, pack), key_concepts(k, pack) | _shape_concepts(v)) for k, v in facts.items()}
    head: set[str] = set()
    tail: set[str] = set()
    for clause in _CLAUSE.split(question):
        tokens = word_tuple(clause)
        cut = _qualifier_at(tokens, naming, pack)
        head |= _named_by(tokens[:cut], naming, pack, hints=True)
        tail |= _named_by(tokens[cut:], naming, pack, hints=False)
    return tail - head


def _qualifier_at(
    tokens: tuple[str, ...], naming: Mapping[str, tuple[frozenset[str], frozenset[str]]], pack: Language
) -> int:
    """Where a clause's complement starts: the first qualifier after a named fact (else its end)."""
    phrases = [tuple(q.split()) for q in pack.understand.qualifiers]
    for i in range(1, len(tokens)):
        opens = any(tokens[i : i + len(p)] == p for p in phrases)
        if opens and _named_by(tokens[:i], naming, pack, hints=False):
            return i
    return len(tokens)


def _named_by(
    tokens: tuple[str, ...],
    naming: Mapping[str, tuple[frozenset[str], frozenset[str]]],
    pack: Language,
    hints: bool,
) -> set[str]:
    """The keys these words name, by stem or concept (and question words, with ``hints``)."""
    size = pack.understand.stem
    stems = {_stem(t, size) for t in tokens if len(t) > 1}
    concepts = set(_concepts_of(tokens, pack))
    if hints:
        for t in _hint_words(tokens, pack):
            concepts.update(pack.understand.question_hints.get(t, ()))
    return {k for k, (k_stems, k_concepts) in naming.items() if k_stems & stems or k_concepts & concepts}


def _hint_words(tokens: tuple[str, ...], pack: Language) -> list[str]:
    """The words a question word can be read in: those outside a greeting phrase.

    German asks for a day by "Tag" ("An welchem Tag möchten Sie kommen?") and greets by it
    ("Guten Tag, was kann ich für Sie tun?"): a hint word inside a greeting asks for nothing.
    """
    greetings = [word_tuple(p) for p in pack.acts.greeting]
    inside: set[int] = set()
    for i in range(len(tokens)):
        for g in greetings:
            if tokens[i : i + len(g)] == g:
                inside.update(range(i, i + len(g)))
    return [t for i, t in enumerate(tokens) if i not in inside]


def _question_concepts(question: str, pack: Language) -> set[str]:
    """What a question asks for by its words' concepts and question words."""
    raw = set(words(question))
    q_concepts = set(_concepts_of(tuple(raw), pack))
    for w in _hint_words(word_tuple(question), pack):
        q_concepts.update(pack.understand.question_hints.get(w, ()))
    if raw & pack.weekdays:
        q_concepts.add("date")  # "Would Monday or Friday suit you?" asks for a day
    return q_concepts


def asked_about(question: str, pack: Language) -> frozenset[str]:
    """What a question asks about: its concepts, else its words' stems.

    Two questions that share one ask for the same thing: "Which day would you prefer?" and
    "Sorry, which day was that? We're open Monday to Friday." do; "What is your date of
    birth?" and "What does the meter show?" do not. Kept per pack and question.
    """
    return _kept(_marks(pack).about, question, pack, _asked_about)


def _asked_about(question: str, pack: Language) -> frozenset[str]:
    concepts = _question_concepts(question, pack)
    if concepts:
        return frozenset(f"concept:{c}" for c in concepts)
    return frozenset(content(question, pack))


def _covered(key: str, q_stems: set[str], q_concepts: set[str], pack: Language) -> float:
    """The share of a key's words the question names, by stem or by concept."""
    english = caller_language("en")
    tokens = [t for t in _key_tokens(key) if len(t) > 1]
    named = [
        t
        for t in tokens
        if _stem(t, pack.understand.stem) in q_stems
        or (_concepts_of((t,), pack) | _concepts_of((t,), english)) & q_concepts
    ]
    return len(named) / len(tokens) if tokens else 0.0


def asks_what_wanted(sentence: str, pack: Language) -> bool:
    """A question word with a verb of wanting: "Koji lijek trebate?", "Which size do you need?".

    The verbs are the language's `wants` phrases less their question words ("što trebate"
    → "trebate"), so "which medicine" asks what the caller came for, not for a fact. Kept per
    pack and sentence.
    """
    return _kept(_marks(pack).wanting, sentence, pack, _asks_what_wanted)


def _asks_what_wanted(sentence: str, pack: Language) -> bool:
    low = sentence.lower()
    return bool(set(words(sentence)) & pack.wh_words) and has(low, _want_verbs(pack))


_WANT_VERBS: dict[int, tuple[Language, tuple[str, ...]]] = {}


def _want_verbs(pack: Language) -> tuple[str, ...]:
    hit = _WANT_VERBS.get(id(pack))
    if hit is None or hit[0] is not pack:
        verbs = (" ".join(w for w in p.split() if w not in pack.wh_words) for p in pack.acts.wants)
        hit = _WANT_VERBS[id(pack)] = (pack, tuple(sorted({v for v in verbs if v})))
    return hit[1]


@functools.lru_cache(maxsize=4096)
def _shape_concepts(value: str) -> frozenset[str]:
    """What a value's shape answers: a time "when", a date "which date", a name "who"."""
    out = set()
    if _DATE.search(value):
        out.add("date")
    elif _TIME.search(value):
        out.add("time")
    if _NUMBER.search(value) or _CODE.search(value):
        out.add("number")
    return frozenset(out)


def asks_something(sentence: str, pack: Language) -> bool:
    """A question that asks the caller for information (not "anything else?").

    By a question word, an asking phrase, or a personal identifier named ("And the last
    four digits of the card you pay with?"). Kept per pack and sentence.
    """
    return _kept(_marks(pack).asking, sentence, pack, _asks_something)


def _asks_something(sentence: str, pack: Language) -> bool:
    low = sentence.lower()
    said = set(words(sentence))
    if said & pack.wh_words or has(low, pack.acts.asks):
        return True
    return bool(_concepts_of(tuple(said), pack) & STRICT)


# -- read-backs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Misheard:
    """The agent read one of the caller's facts back wrong."""

    key: str
    said: str
    right: str


@functools.lru_cache(maxsize=4096)
def value_parts(text: str) -> tuple[tuple[str, str, str], ...]:
    """(kind, normal form, as written) of each value in a text: dates, times, codes, numbers."""
    out = []
    rest = text
    for m in _DATE.finditer(text):
        out.append(("date", _date_digits(m.group(0)), m.group(0).rstrip(".")))
        rest = rest.replace(m.group(0), " ")
    for m in _CODE.finditer(rest):
        out.append((f"code:{m.group(1).upper()}", m.group(2), m.group(0)))
    rest = _CODE.sub(" ", rest)
    for m in _TIME.finditer(rest):
        out.append(("time", f"{int(m.group(1))}:{m.group(2)}", m.group(0)))
    rest = _TIME.sub(" ", rest)
    for m in _NUMBER.finditer(rest):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 5:
            out.append(("number", digits, m.group(0).strip()))
    rest = _NUMBER.sub(" ", rest)
    for m in _SHORT.finditer(rest):
        out.append(("short", m.group(0), m.group(0)))  # the last four digits of a card
    return tuple(out)


def _date_digits(date: str) -> str:
    """A date as year, month, day digits: "12.04.1975", "12. 4. 1975." and "1975-04-12" meet."""
    parts = re.findall(r"\d+", date)
    if len(parts[0]) == 4:
        return "".join(parts)
    day, month, year = parts
    return f"{year}{int(month):02d}{int(day):02d}"


def _distance(a: str, b: str) -> int:
    """Edit distance (the values are short)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def _addressed(text: str) -> list[str]:
    """Words the agent calls the caller by, in any script ("Booked for Tuesday, Željka.")."""
    out = []
    for m in re.finditer(r",\s+([^\W\d_][\w'-]*)[.!?]", text):
        word = m.group(1)
        if word[0].isupper():
            out.append(word)
    return out


def misheard(agent_text: str, facts: Mapping[str, str], pack: Language) -> list[Misheard]:
    """Values the agent read back that differ from a fact of the same kind.

    Only what the agent states, offers or asks to confirm is a read-back: an open question
    ("which day was that?") is not, nor a sentence that lists options ("Monday, Wednesday
    or Friday?") — a sentence with two values of one kind reads back neither.
    """
    key = (agent_text, tuple(facts.items()), id(pack))
    hit = _MISHEARD.get(key)
    if hit is None or hit[0] is not pack:
        if len(_MISHEARD) >= _HELD:
            _MISHEARD.clear()
        hit = _MISHEARD[key] = (pack, tuple(_misheard(agent_text, facts, pack)))
    return list(hit[1])


def _misheard(agent_text: str, facts: Mapping[str, str], pack: Language) -> list[Misheard]:
    out: list[Misheard] = []
    everything = {n for v in facts.values() for _, n, _ in value_parts(v)}
    spoken = [
        s
        for s in heard_turn(agent_text, pack).sentences
        if s.act != "wants" and not (s.act == "question" and set(words(s.text)) & pack.wh_words)
    ]
    said = tuple(p for s in spoken for p in _single(value_parts(s.text) + _word_dates(s.text)))
    said_days = [d for s in spoken for d in _single_days(s.text, pack)]
    addressed = _addressed(agent_text)
    for key, value in sorted(facts.items()):
        if "name" in key_concepts(key, pack) and addressed:
            own = {w.lower() for w in _CAPITALISED.findall(value)}
            strangers = [a for a in addressed if a.lower() not in own]
            if strangers and len(strangers) == len(addressed):
                out.append(Misheard(key, strangers[0], value))
                continue
        wrong = _wrong_value(value, said, everything)
        if wrong:
            out.append(Misheard(key, wrong, value))
            continue
        days = {w for w in word_tuple(value) if w in pack.weekdays}
        if days and said_days and not days & set(said_days):
            day = said_days[0]
            out.append(Misheard(key, day.capitalize() if value[:1].isupper() else day, value))
    return out


_WORD_DATE_KINDS = ("date", "day")
"""The kinds of :func:`polygon.score.values_in` that are dates: with a year, or a day and month."""


def _word_dates(sentence: str) -> tuple[tuple[str, str, str], ...]:
    """The dates a sentence says with the month as a word, as :func:`value_parts` gives dates.

    "the first on 15 November 2026", "el 15 de diciembre", "the fifteenth of November": only
    digit forms were read back, so a caller let a wrong date said this way pass uncorrected
    (trial5: a payment plan read back for 15 November, booked for 15 December, passed). A date
    said without its year is the day and month (``MMDD``), compared with a fact's.
    """
    if not regex.search(r"\p{L}{3}", sentence):
        return ()
    return tuple(
        ("date", v.value.replace("-", ""), v.words)
        for v in values_in(sentence)
        if v.kind in _WORD_DATE_KINDS and regex.search(r"\p{L}", v.words)
    )


def _single(parts: tuple[tuple[str, str, str], ...]) -> list[tuple[str, str, str]]:
    """The values of a sentence whose kind it names once (a list of options reads back none)."""
    kinds = [k for k, _, _ in parts]
    return [p for p in parts if kinds.count(p[0]) == 1]


def _single_days(sentence: str, pack: Language) -> list[str]:
    days = {w for w in words(sentence) if w in pack.weekdays}
    return list(days) if len(days) == 1 else []


def _wrong_value(value: str, said: tuple[tuple[str, str, str], ...], everything: set[str]) -> str:
    """How the agent said this fact wrong, if it did: a same-kind value near it, or a time."""
    for kind, norm, _ in value_parts(value):
        # a date said without its year (MMDD) is the fact's date if the day and month are
        same = [(norm[:4] + n if kind == "date" and len(n) == 4 else n, w) for k, n, w in said if k == kind]
        if not same or any(n == norm for n, _ in same):
            continue
        if kind == "time":
            return same[0][1]  # "confirmed for 18:00" when the caller said 18:30
        near = [w for n, w in same if n not in everything and _distance(n, norm) <= max(1, len(norm) // 4)]
        if near:
            return near[0]
    return ""


# -- outcomes --------------------------------------------------------------------------------


def settled(turn: Turn, goal: str, facts: Mapping[str, str], pack: Language) -> bool:
    """The agent reports the caller's goal taken care of (an outcome report, not a question).

    Either an outcome report ("done", "all set", "gotovo", "готово"…) about what the goal
    or the facts name, or — for a caller who only wants to know something — a statement
    (not a greeting, a question or a refusal) that answers about what the goal asks.
    """
    about = _about(goal, tuple(facts.values()), pack)
    own_words = " ".join((goal, *facts.values()))
    asks_only = pack.understand.asks_only(goal) and not _unsure(turn, pack)
    offers = "offer" in turn.acts  # "I have Monday 09:00 free. Shall I book it?" is no answer
    for s in turn.sentences:
        said = content(s.text, pack)
        own = s.act == "outcome" and (said & about or shares_a_head(s.text, own_words, pack))
        if own and not restates_problem(s.text, goal, pack):
            return True
        answers = asks_only and s.act in ("read_back", "filler", "outcome")
        if answers and (said & content(goal, pack) or _gives_what_goal_asks(s.text, goal, facts, pack)):
            return True
        if answers and _advises(s.text, goal, facts, pack):
            return True
        if answers and not offers and _states_when_or_price(s.text, goal, facts, pack):
            return True
    return False


_HEAD = 5
"""The fewest letters a compound's head keeps once its ending is off ("schad", "scheib"); a
shorter tail ("-ung", "-heit") is a suffix, not a noun of its own."""
_MODIFIER = 3
"""The fewest letters before the head in the longer word: "Unfall"-schaden, "Glas"-schaden."""


def shares_a_head(text: str, own: str, pack: Language) -> bool:
    """A word of ``text`` and one of ``own`` are one noun, one the head of the other's compound.

    German writes "einen Unfallschaden melden" and reports "Ihr Schaden ist aufgenommen";
    the crude stems ("unfal", "schad") share nothing. Only in a language whose pack says it
    closes compounds (``understand.compounds``): the shorter word, its ending off (the lint
    lexicon's ``suffixes``: "Schadens", "Scheibe"), ends the longer one after a modifier.
    """
    if not pack.understand.compounds:
        return False
    theirs = _long_words(text, pack)
    ours = _long_words(own, pack)
    return any(_is_head(a, b, pack) or _is_head(b, a, pack) for a in theirs for b in ours)


def _long_words(text: str, pack: Language) -> set[str]:
    stop = pack.stop_words
    return {_fold(w) for w in word_tuple(text) if w.isalpha() and len(w) >= _HEAD and w not in stop}


def _is_head(head: str, word: str, pack: Language) -> bool:
    """``head`` (its ending aside) closes ``word``, after a modifier of a few letters."""
    if len(word) < len(head) + _MODIFIER:
        return False
    if word.endswith(head):
        return True
    endings = pack.lint.suffixes
    bare = next((head[: -len(e)] for e in endings if head.endswith(e) and len(head) - len(e) >= _HEAD), "")
    at = word.rfind(bare) if bare else -1
    # The head's own ending may differ in the compound ("Schadens" / "Unfallschaden").
    return at >= _MODIFIER and word[at + len(bare) :] in ("", *endings)


def restates_problem(sentence: str, goal: str, pack: Language) -> bool:
    """The sentence reads as an outcome only through the caller's own trouble said back.

    "okay, so your flight was cancelled, i'm really sorry" (a goal "get rebooked after her
    flight was cancelled") tells the caller what it said itself: the parts holding a trouble
    word of the goal's (``understand.troubles``) are left out, and the rest reports nothing.
    "your flight was cancelled and i've rebooked you" still reports; so does "your booking is
    cancelled" to a caller who came to cancel (its goal says "cancel", no trouble word).
    """
    own = set(pack.understand.troubles) & set(word_tuple(goal))
    if not own:
        return False
    parts = _PARTS.split(sentence)
    rest = [p for p in parts if not own & set(word_tuple(p))]
    if len(rest) == len(parts):
        return False
    return "outcome" not in read_turn(", ".join(p.strip() for p in rest if p.strip()) + ".", pack).acts


def _unsure(turn: Turn, pack: Language) -> bool:
    """The agent does not know or puts the answer off ("I'm not sure", "let me check"): no answer."""
    return any(has(f" {s.text.lower()} ".replace("\u2019", "'"), pack.acts.unsure) for s in turn.sentences)


_CLOCK = re.compile(r"\b\d{1,2}\s?(?:[ap]\.?m\b\.?)", re.IGNORECASE)
_PRICE = re.compile(
    r"[£$€]\s?\d|\d\s?(?:[£$€]|eur\b|euros?\b|pounds?\b|dollars?\b|kn\b|rub\b|руб)", re.IGNORECASE
)


def _states_when_or_price(sentence: str, goal: str, facts: Mapping[str, str], pack: Language) -> bool:
    """A time, weekday, date or price the caller did not bring ("We're open 8:00 to 18:00").

    What an opening-hours or price question is answered with from the agent's prompt alone.
    """
    own = " ".join([goal, *facts.values()])
    new_digits = bool(set(re.findall(r"\d+", sentence)) - set(re.findall(r"\d+", own)))
    if _PRICE.search(sentence):
        return new_digits  # a price answers whatever was asked of it; a time or day, only "when"
    if not pack.understand.asks_when(goal):
        return False
    if _TIME.search(sentence) or _CLOCK.search(sentence) or _DATE.search(sentence):
        return new_digits
    return bool(set(words(sentence)) & pack.weekdays - set(words(own)))


def _advises(sentence: str, goal: str, facts: Mapping[str, str], pack: Language) -> bool:
    """Advice on what to do ("contact your embassy") that asks for none of the caller's facts.

    "You should give me your booking reference first" asks; it answers nothing (trial42 D4).
    """
    low = f" {sentence.lower()} ".replace("\u2019", "'")
    return has(low, pack.acts.advice) and not asked(sentence, facts, goal, pack)[0]


_WHEN = frozenset({"time", "date", "day"})


def _gives_what_goal_asks(sentence: str, goal: str, facts: Mapping[str, str], pack: Language) -> bool:
    """A statement holding the kind of value the goal's question word asks for, not the caller's own.

    "saznati koliko još moram platiti" is answered by "Otvoreni iznos je 84,20 EUR." though
    they share no word; reading back the caller's customer number answers nothing.
    """
    hints = {c for w in words(goal) for c in pack.understand.question_hints.get(w, ())}
    if not hints & (_WHEN | {"count"}):
        return False
    own = {d for v in facts.values() for d in re.findall(r"\d+", v)}
    digits = [d for d in re.findall(r"\d+", sentence) if d not in own]
    if "count" in hints and digits:
        return True
    if not hints & _WHEN:
        return False
    clock = bool(digits) and bool(_TIME.search(sentence) or _DATE.search(sentence))
    return clock or bool(set(words(sentence)) & pack.weekdays)


def _about(goal: str, values: tuple[str, ...], pack: Language) -> frozenset[str]:
    """What the goal and the facts speak of (stems), kept per (goal, values, pack): asked every turn."""
    key = (goal, values, id(pack))
    hit = _ABOUT.get(key)
    if hit is None or hit[0] is not pack:
        if len(_ABOUT) >= _HELD:
            _ABOUT.clear()
        stems = content(goal, pack) | {w for v in values for w in content(v, pack)}
        hit = _ABOUT[key] = (pack, frozenset(stems))
    return hit[1]


_ABOUT: dict[tuple[str, tuple[str, ...], int], tuple[Language, frozenset[str]]] = {}


def refuses_goal(turn: Turn, goal: str, pack: Language) -> bool:
    """A refusal that is about what the caller came for (or the only thing said).

    About it by a shared stem, or by naming the same thing in other words (the pack's
    ``same_thing``): "no puedo hacerle un reembolso" refuses "que me devuelvan el dinero".
    """
    refusals = turn.of("refusal")
    wanted = _things(goal, pack)
    return any(content(r, pack) & content(goal, pack) or _things(r, pack) & wanted for r in refusals)


def _things(text: str, pack: Language) -> set[int]:
    """Which of the pack's ``same_thing`` groups the text names (a word start of any member)."""
    low = f" {text.lower()}"
    return {
        i
        for i, group in enumerate(pack.understand.same_thing)
        if any(re.search(rf"(?<!\w){re.escape(mark)}", low) for mark in group)
    }
