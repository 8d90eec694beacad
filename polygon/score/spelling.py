"""A phrase or pattern found in the agent's speech however the agent spells it (trial42 D6, D7).

A voice agent's text is what LLMs writing for TTS and ASR emit: numbers in words or read
digit by digit ("bitte rufen Sie die eins eins zwei an"), German without umlauts ("wird
komplett uebernommen"), any case. ``phrases`` and ``expect.says`` are literal and ``matches``
are regexes, both case aside (a pattern that needs case writes ``(?-i)``). Each is first
tried exactly as it always was, so the readings below only ever add hits:

* umlauts are folded on both sides (ä→ae, ö→oe, ü→ue, ß→ss, each in its case; in a pattern,
  the literal ones outside and inside ``[...]``), so either spelling meets either;
* a phrase that holds a number meets the number however the agent says it: in two readings
  of the text, its numbers stand as digits — read as one digit string (digits, digit by
  digit, "four twelve"; any pack's number words, :func:`polygon.score.detectors.digit_runs`)
  and as whole numbers ("one thousand two hundred", "dreitausend",
  :func:`polygon.score.spoken_values.spoken_numbers`) — and the phrase, read the same way,
  must stand there as whole words ("112" is not "1120"). A number word written without its
  umlaut ("zwoelf", "fuenfzehn") is read as the packs spell it;
* a phrase that is only an amount with its cents ("84,50", "€12.50", "12,50 €") meets that
  amount said in words before a currency ("osamdeset četiri eura i pedeset centi", "twelve
  pounds fifty", :func:`polygon.score.spoken_values.said_amounts`): a whole-number reading
  sees 84 and 50 there, no 84.50 (trial3: a fee the tool gave, read out in words, failed
  ``expect.says``). A whole amount ("40.00") only meets the likeliest reading. It also meets
  the same amount written in digits beside a currency, its cents written otherwise ("35,5 €",
  "€35.5", "EUR 35.50" for "35,50"; trial7: a correct agent's "35,5 €" failed ``expect.says``).
"""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from functools import cache, lru_cache

import regex

from polygon.matching import REGEX_SECONDS, MatchTimeout, compare, normal
from polygon.score.detectors import digit_runs, number_words
from polygon.score.quantities import CURRENCY_AFTER, CURRENCY_WORDS, SIGNS, number_value, written_amounts
from polygon.score.spoken_values import said_amounts, spoken_numbers

_DIGRAPHS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "ẞ": "SS"}
_FOLD = str.maketrans(_DIGRAPHS)
_WORD = regex.compile(r"[^\W\d_]+")
_LETTER = regex.compile(r"[^\W\d_]")
_AMOUNT = regex.compile(
    rf"\s*(?:{SIGNS}\s?)?(\d{{1,6}}[.,]\d{{1,2}})\s?(?:{SIGNS}|(?:{CURRENCY_WORDS})(?!\w))?\s*",
    regex.IGNORECASE,
)
"""A phrase that is nothing but an amount with its cents, its currency before or after it."""
_CACHED = 4096
"""Texts whose readings are kept: a call's turns are matched against every phrase."""


def fold(text: str) -> str:
    """``text`` with its umlauts spelled out ("Übernahme" → "Uebernahme"), case kept."""
    return unicodedata.normalize("NFC", text).translate(_FOLD)


def phrase_said(phrase: str, text: str) -> bool:
    """Whether ``text`` holds the literal ``phrase``: case, umlaut spelling and number spelling aside."""
    if phrase.lower() in text.lower():  # as it always matched
        return True
    if fold(phrase).casefold() in fold(text).casefold():
        return True
    readings = _numbered(phrase)
    if not any(readings):  # no number in the phrase: nothing more to read
        return False
    if any(f" {p} " in f" {t} " for p, t in zip(readings, _numbered(text), strict=True) if p):
        return True
    return _amount_said(phrase, text)


def _amount_said(phrase: str, text: str) -> bool:
    """Whether ``phrase``, only an amount with its cents, is said in words in ``text``.

    An amount with cents meets any reading of the words ("nineteen ninety-nine pounds" may
    be 19.99); a whole one only the likeliest ("forty pounds fifty" is 40.50, not 40).
    """
    m = _AMOUNT.fullmatch(phrase)
    if m is None:
        return False
    value = number_value(m.group(1))
    if value in written_amounts(text):  # "35,5 €", "€35.5" for "35,50": its cents written otherwise
        return True
    for readings, _, _ in said_amounts(text, CURRENCY_AFTER):
        if value == readings[0] or (value != value.to_integral_value() and value in readings):
            return True
    return False


@lru_cache(maxsize=_CACHED)
def with_digits(text: str) -> str:
    """``text`` with each number said in words written as its digits ("call nine nine nine" → "call 999").

    Case and punctuation are kept (a pattern's sentence bounds still hold); a stretch that
    mixes digits and words is read whole ("0161 one one two 3456" is one number, no 112).
    """
    out, at = [], 0
    for run in digit_runs(text):
        if _LETTER.search(text, run.start, run.end):
            out += [text[at : run.start], run.digits]
            at = run.end
    return "".join([*out, text[at:]])


def pattern_said(pattern: str, text: str) -> bool:
    """Whether the regex ``pattern`` finds something in ``text``: as written, case aside, umlauts folded.

    Raises :class:`~polygon.matching.MatchTimeout` when one search runs past its budget.
    """
    if compare("matches", text, pattern):  # as it always matched
        return True
    if _search(pattern, text):
        return True
    folded, folded_text = fold_pattern(pattern), fold(text)
    if bool(folded) and (folded, folded_text) != (pattern, text) and _search(folded, folded_text):
        return True
    # A pattern that asks for digits meets a number said in words, as a phrase's number does: a
    # TTS agent says "the CVV is one two three", which `\d{3}` never met (trial8).
    if _DIGIT_CLASS.search(pattern):
        numbered = with_digits(text)
        return numbered != text and _search(pattern, numbered)
    return False


_DIGIT_CLASS = regex.compile(r"\\d|\[[^\]]*0-9")
"""A pattern's digit: ``\\d``, or a class with the range 0-9."""


def _search(pattern: str, text: str) -> bool:
    try:
        return regex.search(pattern, text, regex.IGNORECASE, timeout=REGEX_SECONDS) is not None
    except TimeoutError:
        budget = f"{REGEX_SECONDS * 1000:.0f} ms"
        raise MatchTimeout(f"the regex {pattern!r} ran past its {budget} budget") from None
    except regex.error:  # a folding the regex engine refuses: the pattern as written was tried
        return False


@lru_cache(maxsize=_CACHED)
def _numbered(text: str) -> tuple[str, str]:
    """The text's two number readings, lower case and folded ("" for one that reads no number)."""
    text = _WORD.sub(_respelled, unicodedata.normalize("NFC", text))
    runs = [(r.start, r.end, r.digits) for r in digit_runs(text)]
    whole = [(start, end, _digits(value)) for value, start, end in spoken_numbers(text)]
    return _reading(text, runs), _reading(text, whole)


def _respelled(word: regex.Match[str]) -> str:
    """A number word written without its umlauts ("zwoelf", "fuenf") as the packs spell it."""
    return _ascii_numbers().get(word.group(0).lower(), word.group(0))


@cache
def _ascii_numbers() -> dict[str, str]:
    """Each number word with an umlaut or ß, spelled out ("fuenfzig") → as the packs spell it."""
    words = {w for key in number_words() for w in key}
    return {fold(w).casefold(): w for w in sorted(words) if fold(w).casefold() != w}


def _reading(text: str, numbers: list[tuple[int, int, str]]) -> str:
    """``text`` with each number replaced by its digits, as :func:`~polygon.matching.normal` words."""
    if not numbers:
        return ""
    parts, at = [], 0
    for start, end, digits in numbers:
        parts += [text[at:start], f" {digits} "]
        at = end
    return _SPELLED.sub(_joined, normal(fold("".join([*parts, text[at:]]))))


_SPELLED = regex.compile(r"(?<!\S)[^\W\d_](?: [^\W\d_])+(?!\S)")
"""Letters said one by one ("d e", "k s"): a code's prefix as a voice agent spells it."""


def _joined(letters: regex.Match[str]) -> str:
    """Spelled letters as the code writes them ("d e 8937…" is "de 8937…", as "DE89 3704…" reads)."""
    return letters.group(0).replace(" ", "")


def _digits(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else str(value)


@lru_cache(maxsize=_CACHED)
def fold_pattern(pattern: str) -> str:
    """``pattern`` with its literal umlauts spelled out: ``ü`` → ``(?:ue)``, ``[üu]`` → ``(?:[u]|ue)``.

    A class that holds a range, an escape or a nested set is kept as written (its other
    letters still meet the spelled-out text: ``[a-zäöü]+`` reads "uebernommen"). "" for a
    pattern a negated class naming an umlaut holds: ``[^ü]ber`` would meet the "e" of "ueber".
    """
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(f"(?:{_DIGRAPHS[nxt]})" if nxt in _DIGRAPHS else pattern[i : i + 2])
            i += 2
        elif ch == "[":
            end = _class_end(pattern, i)
            cls = pattern[i:end]
            if cls.startswith("[^") and any(c in _DIGRAPHS for c in cls):
                return ""
            out.append(_fold_class(cls))
            i = end
        else:
            out.append(f"(?:{_DIGRAPHS[ch]})" if ch in _DIGRAPHS else ch)
            i += 1
    return "".join(out)


def _class_end(pattern: str, i: int) -> int:
    """Where the character class opening at ``i`` ends (past its ``]``; a leading ``]`` is literal)."""
    j = i + 1
    j += pattern.startswith("^", j)
    j += pattern.startswith("]", j)
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return min(j + 1, len(pattern))


def _fold_class(cls: str) -> str:
    inner = cls[1:-1]
    kept = not cls.endswith("]") or any(c in inner for c in "[-\\")
    umlauts = [c for c in dict.fromkeys(inner) if c in _DIGRAPHS]
    if kept or not umlauts:
        return cls
    rest = "".join(c for c in inner if c not in _DIGRAPHS)
    spelled = dict.fromkeys(_DIGRAPHS[c].lower() for c in umlauts)
    return "(?:" + "|".join(([f"[{rest}]"] if rest else []) + list(spelled)) + ")"
