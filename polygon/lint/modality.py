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

Word lists, per language: each language file's ``lint.rules`` section; no parser and no
model: wrong now and then, always the same way, and cheap (a few regular expressions per rule).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import regex

from polygon.lint.lexicon import lexicon

if TYPE_CHECKING:
    from polygon.languages import RuleWords


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
    w = lexicon(language).rules
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


def key(verb: str, w: RuleWords, stem: Callable[[str], str]) -> str:
    """The action key of a verb: one key for the verbs of telling, else its stem's head."""
    if any(verb.startswith(t) for t in w.tell):
        return "tell"
    for ending in w.verb_endings:
        if verb.endswith(ending) and len(verb) - len(ending) >= 3:
            return str(verb[: -len(ending)][:5])
    return stem(verb)[:5]


def _split_condition(text: str, w: RuleWords) -> tuple[str, str]:
    found = _re(w.condition).match(text.lstrip())
    if not found:
        return text.lstrip(), ""
    return text.lstrip()[found.end() :], found.group()


def _modality(text: str, main: str, w: RuleWords, *, must: bool, must_not: bool, allows: bool) -> str:
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


def _imperative(main: str, w: RuleWords) -> str:
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


def _verb_after(text: str, at: int, w: RuleWords) -> str:
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
    w: RuleWords,
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


def _is_verb(word: str, w: RuleWords) -> bool:
    """After "before": a verb ("before you *block*", "before *booking*") or a clause's subject."""
    if w.imperative:  # ru/hr: "прежде чем *записать*", "prije nego *upišete*": always a verb
        return True
    return word in w.verbs or word.endswith("ing")


def _skips(text: str, w: RuleWords, content: Callable[[str], frozenset[str]]) -> frozenset[str]:
    out: set[str] = set()
    for m in _re(w.without).finditer(text):
        out |= content(m.group(1))
    for m in _re(w.later).finditer(text):  # "… and ask for the plate later": that clause waits
        start = max(text.rfind(",", 0, m.start()), text.rfind(";", 0, m.start()), 0)
        out |= content(text[start : m.start()])
    return frozenset(out)
