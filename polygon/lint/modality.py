"""A rule read as a reviewer reads it: its modality, its action, its object, its conditions.

- modality: ``must`` (an "always"/"must" or a bare imperative: "Read the number back."),
  ``should``, ``may`` (a permission or a waiver), ``must_not`` ("never", "do not", "can
  never be …"), or ``""`` for a sentence that describes rather than asks;
- action: the verb the rule is about, as a short key (verbs of telling share one key:
  "read out", "quote", "tell", "называйте", "recite" all speak to the caller);
- order: "Q before P", "P only after Q", "never P without Q", "не P, пока не Q" — Q's words
  and P's key, so "P without Q" or "P at once" elsewhere meets it;
- skips: what the rule says may be left out ("without verifying", "без проверки", "bez
  broja", "… later") and whether it asks to act at once ("immediately", "сразу", "odmah").

Word lists, per language (en, ru, hr); no parser and no model: wrong now and then, always the
same way, and cheap (a few regular expressions per rule).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import regex


def _each(block: str) -> tuple[str, ...]:
    """Every word of a block (lines and spaces alike)."""
    return tuple(block.split())


@dataclass(frozen=True)
class Rule:
    """What one unit asks, if it asks anything."""

    modality: str
    action: str
    """The verb's key (``""`` when none was found)."""
    verb: str = ""
    """The verb's stem as the lexicon stems words (taken out of the rule's objects)."""
    generic: bool = False
    """The action is too general to pair two rules on one shared word."""
    qualified: bool = False
    """Limited to a situation ("if …", "when …", "on the same day"): it need not always hold."""
    first: frozenset[str] = frozenset()
    """Stems of what must come first (an order rule), else empty."""
    then: str = ""
    """The key of the action that must wait for ``first``."""
    skips: frozenset[str] = frozenset()
    """Stems of what the rule says may be skipped or left for later."""
    at_once: bool = False
    """Asks to act at once ("immediately", "сразу", "odmah", "as soon as")."""
    even: bool = False
    """Widens its own condition ("even if", "даже если", "čak i ako", "whether or not")."""


@dataclass(frozen=True)
class Words:
    """One language's words for reading rules."""

    imperative: str
    """A regular expression for an imperative verb form (``""``: use ``verbs``)."""
    verbs: frozenset[str]
    """Verbs that open a bare imperative (English has no imperative ending)."""
    not_verbs: frozenset[str]
    """Words the imperative ending catches that are no imperative."""
    should: tuple[str, ...]
    condition: str
    """Opens a leading condition clause (up to the first comma)."""
    before_then: str
    """``Q <before> P``: what follows names the later action."""
    after_first: str
    """``P only after Q``: what follows names what comes first (any rule)."""
    never_until: str
    """``never P until/without/before Q``: in a prohibition, what follows comes first."""
    without: str
    """``<without> Q``: what follows is left out."""
    later: str
    at_once: str
    even: str
    skip_words: frozenset[str]
    """Pronouns and particles between a marker and its verb ("you may *then* …")."""
    tell: tuple[str, ...]
    """Stems of verbs that tell the caller something: one action key."""
    generic: tuple[str, ...] = ()
    """Keys of verbs too general to pair rules on one shared word ("ask", "check", "use")."""
    verb_endings: tuple[str, ...] = ()
    """Endings taken off a verb before its key (aspect and person: upišete / upišite)."""
    qualifier: str = ""
    """A situation that limits a rule without a condition clause ("on the same day")."""


_EN = Words(
    imperative="",
    verbs=frozenset(
        _each(
            """
            ask tell read give send book block unblock quote change reserve offer check confirm
            verify open close transfer say spell use keep hold end greet collect record escalate
            refund cancel register note write call connect put take repeat mention share promise
            explain let answer suggest recommend apply add remove charge issue approve accept refuse
            reject schedule move update dispatch leave deliver return pass forward file create sell
            lend release freeze unfreeze provide disclose reveal discuss state name inform remind
            warn advise direct route look find get make start begin finish stop treat report reply
            respond request
            """
        )
    ),
    not_verbs=frozenset(),
    should=("should", "it is best to", "preferably", "ideally", "try to"),
    condition=(
        r"^(?:if|when|whenever|once|after|before|as soon as|for|unless|in case|where)\b[^,]{0,200},\s*"
    ),
    before_then=r"\bbefore (?:you |we |they |the caller |anyone )?(?:can |may )?(\p{L}+)",
    after_first=r"\b(?:only after|only once|only when|only if)\b",
    never_until=r"\b(?:until|unless|without|before)\b",
    without=r"\b(?:without|even before|whether or not)\b([^,.;]*)",
    later=r"\blater\b",
    at_once=r"\b(?:immediately|right away|at once|straight away|as soon as|straight to)\b",
    even=r"\b(?:even if|even when|even though|even before|whether or not|regardless)\b",
    skip_words=frozenset(
        _each(
            """
            you we they it them him her please also then first just still only always ever be to the
            a an not
            """
        )
    ),
    tell=(
        "tell",
        "say",
        "read",
        "quot",
        "give",
        "shar",
        "mention",
        "disclos",
        "reveal",
        "discuss",
        "inform",
        "spell",
    ),
    qualifier=(
        r"\b(?:if|when|whenever|once|the same day|on the day|today|at night|on weekends|during|while)\b"
    ),
    generic=("tell", "ask", "check", "use", "offer", "make", "get", "keep", "take", "put", "let", "help"),
)

_RU = Words(
    imperative=r"\p{L}{3,}(?:йте|ите|ьте)",
    verbs=frozenset(),
    not_verbs=frozenset(
        _each(
            """
            можете хотите видите знаете говорите звоните
            """
        )
    ),
    should=("следует", "стоит", "лучше", "желательно", "рекомендуется"),
    condition=(
        r"^(?:если|когда|как только|после того как|прежде чем|перед|для|при|в случае)\b[^,]{0,200},\s*"
    ),
    before_then=r"(?<!\w)(?:прежде чем|перед тем как|до того как)\s+(\p{L}+)",
    after_first=r"(?<!\w)(?:только после|только когда|только если)\b",
    never_until=r"(?<!\w)(?:пока|без|прежде чем|до того как)\b",
    without=r"(?<!\w)(?:без|не проверяя|не дожидаясь|не уточняя|даже до)\b([^,.;]*)",
    later=r"\b(?:позже|потом|после)\b",
    at_once=r"\b(?:сразу|немедленно|тут же|как только|срочно)\b",
    even=r"(?<!\w)(?:даже если|даже когда|независимо от)",
    skip_words=frozenset(
        _each(
            """
            вы его ему ей им их вам себе это сразу всегда обязательно ни
            """
        )
    ),
    tell=(
        "назыв",
        "назов",
        "назва",
        "сообщ",
        "говор",
        "скаж",
        "раскры",
        "раскро",
        "озвуч",
        "расска",
        "упомин",
        "упомян",
        "обсужд",
        "обсуд",
        "диктуй",
        "продикт",
        "переда",
    ),
    verb_endings=("йте", "ите", "ьте", "ете", "ать", "ять", "ить", "еть", "уть", "ти", "ть", "ет", "ит"),
    qualifier=r"(?<!\w)(?:если|когда|как только|в тот же день|ночью|в выходные|во время|пока)(?!\w)",
    generic=("tell", "спрос", "уточн", "прове", "испол", "предл", "помог"),
)

_HR = Words(
    imperative=r"\p{L}{3,}(?:ite|jte|ajte)",
    verbs=frozenset(),
    not_verbs=frozenset(
        _each(
            """
            možete želite vidite trebate znate hoćete smijete morate idite
            """
        )
    ),
    should=("trebate", "treba", "bilo bi dobro", "preporučuje se", "poželjno"),
    condition=r"^(?:ako|kad|kada|čim|nakon|prije nego|za|u slučaju)\b[^,]{0,200},\s*",
    before_then=r"(?<!\w)prije nego (?:što )?(\p{L}+)",
    after_first=r"(?<!\w)(?:tek nakon|tek kad|samo nakon|samo ako)\b",
    never_until=r"(?<!\w)(?:dok|bez|prije nego)\b",
    without=r"(?<!\w)(?:bez|čak i prije)\b([^,.;]*)",
    later=r"\b(?:kasnije|poslije|naknadno)\b",
    at_once=r"\b(?:odmah|smjesta|čim|hitno)\b",
    even=r"(?<!\w)(?:čak i ako|čak i kad|bez obzira)",
    skip_words=frozenset(
        _each(
            """
            vi mu joj im ga ih vam se to odmah uvijek obavezno
            """
        )
    ),
    tell=(
        "reci",
        "rec",
        "kaž",
        "dajt",
        "govor",
        "otkri",
        "naved",
        "spomi",
        "priopć",
        "javi",
        "diktir",
        "pročit",
        "ponov",
    ),
    verb_endings=(
        "ajte",
        "ujte",
        "ijte",
        "jte",
        "ite",
        "ete",
        "ate",
        "iti",
        "ati",
        "eti",
        "uti",
        "ti",
        "a",
        "e",
        "i",
    ),
    qualifier=r"\b(?:ako|kad|kada|čim|istog dana|isti dan|noću|vikendom|tijekom|dok)\b",
    generic=("tell", "pita", "provj", "koris", "ponud", "pomog"),
)

WORDS = {"en": _EN, "ru": _RU, "hr": _HR}


def read_rule(
    text: str,
    language: str,
    *,
    must: bool,
    must_not: bool,
    allows: bool,
    marker_end: int,
    stem: Callable[[str], str],
    content: Callable[[str], frozenset[str]],
) -> Rule:
    """The rule in ``text`` (lower-cased, code blanked), given the lexicon's markers found in it.

    ``marker_end`` is where the force or permission marker ends in ``text`` (-1 if none):
    the verb that follows it is the action. ``stem`` turns a word into its stem, ``content``
    a stretch of text into the stems of its content words.
    """
    w = WORDS[language]
    main, cond = _split_condition(text, w)
    modality = _modality(text, main, w, must=must, must_not=must_not, allows=allows)
    if not modality:
        return Rule(modality="", action="")
    verb = _verb_after(text, marker_end, w) if marker_end >= 0 else _imperative(main, w)
    action = key(verb, w, stem) if verb else ""
    first, then = _order(text, action, w, stem, content, prohibits=modality == "must_not")
    return Rule(
        modality=modality,
        action=action,
        verb=stem(verb) if verb else "",
        generic=action in w.generic,
        qualified=bool(cond) or bool(w.qualifier and _re(w.qualifier).search(text)),
        first=first,
        then=then,
        skips=_skips(text, w, content) if modality != "must_not" else frozenset(),
        at_once=bool(_re(w.at_once).search(text)),
        even=bool(_re(w.even).search(text)),
    )


def key(verb: str, w: Words, stem: Callable[[str], str]) -> str:
    """The action key of a verb: one key for the verbs of telling, else its stem's head."""
    if any(verb.startswith(t) for t in w.tell):
        return "tell"
    for ending in w.verb_endings:
        if verb.endswith(ending) and len(verb) - len(ending) >= 3:
            return str(verb[: -len(ending)][:5])
    return stem(verb)[:5]


def _split_condition(text: str, w: Words) -> tuple[str, str]:
    found = _re(w.condition).match(text.lstrip())
    if not found:
        return text.lstrip(), ""
    return text.lstrip()[found.end() :], found.group()


def _modality(text: str, main: str, w: Words, *, must: bool, must_not: bool, allows: bool) -> str:
    if must_not:
        return "must_not"
    if allows:
        return "may"
    if must:
        return "must"
    if _any_of(w.should).search(text):
        return "should"
    return "must" if _imperative(main, w) else ""


_WORD = regex.compile(r"\p{L}[\p{L}'’-]*")


def _imperative(main: str, w: Words) -> str:
    """The verb of a bare imperative opening ``main`` (or, in ru/hr, any imperative form)."""
    words: list[str] = _WORD.findall(main)
    if not words:
        return ""
    if w.imperative:
        pattern = _re(w.imperative)
        for i, word in enumerate(words):
            negated = i > 0 and words[i - 1] in ("не", "ne")
            if pattern.fullmatch(word) and word not in w.not_verbs and not negated:
                return word
        return ""
    lead = [x for x in words[:3] if x not in ("please", "also", "then", "first", "just", "now")]
    return lead[0] if lead and lead[0] in w.verbs else ""


@lru_cache(maxsize=8)
def _any_of(words: tuple[str, ...]) -> regex.Pattern[str]:
    return regex.compile(r"(?<!\w)(?:" + "|".join(regex.escape(s) for s in words) + r")(?!\w)")


@lru_cache(maxsize=128)
def _re(pattern: str) -> regex.Pattern[str]:
    """A word list's pattern, compiled once."""
    return regex.compile(pattern)


def _verb_after(text: str, at: int, w: Words) -> str:
    """The first word after a marker that is no pronoun or particle ("never *read* out")."""
    found: list[str] = _WORD.findall(text[at : at + 80])
    for word in found:
        if word in w.skip_words or word in ("не", "ne", "se", "do", "not", "can", "must", "never"):
            continue
        return word
    return ""


def _order(
    text: str,
    action: str,
    w: Words,
    stem: Callable[[str], str],
    content: Callable[[str], frozenset[str]],
    *,
    prohibits: bool,
) -> tuple[frozenset[str], str]:
    """(what comes first, the key of what waits), or empty when the rule sets no order."""
    before = _re(w.before_then).search(text)
    if before and _is_verb(before.group(1), w):  # "Q before you P" or "before you P, Q"
        then = key(before.group(1), w, stem)
        first_part = text[: before.start()] if before.start() > 3 else text[before.end() :]
        return content(first_part) - {then}, then
    after = _re(w.never_until if prohibits else w.after_first).search(text) or _re(w.after_first).search(text)
    if after and action:  # "P only after Q", "never P before the adjuster …", "не P, пока не Q"
        return content(text[after.end() :]), action
    return frozenset(), ""


def _is_verb(word: str, w: Words) -> bool:
    """After "before": a verb ("before you *block*", "before *booking*") or a clause's subject."""
    if w.imperative:  # ru/hr: "прежде чем *записать*", "prije nego *upišete*": always a verb
        return True
    return word in w.verbs or word.endswith("ing")


def _skips(text: str, w: Words, content: Callable[[str], frozenset[str]]) -> frozenset[str]:
    out: set[str] = set()
    for m in _re(w.without).finditer(text):
        out |= content(m.group(1))
    for m in _re(w.later).finditer(text):  # "… and ask for the plate later": that clause waits
        start = max(text.rfind(",", 0, m.start()), text.rfind(";", 0, m.start()), 0)
        out |= content(text[start : m.start()])
    return frozenset(out)
