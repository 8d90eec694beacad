"""Tier 1, rules: deterministic counts and pairs over the lexicon's markers (no model).

- overload: hard constraints in the prompt and in its densest section, against a budget;
- contradiction: a hard rule and an opposite one (or a permission) over the same objects;
- ambiguity: hedges and vague quantifiers, more where they pile up in one rule;
- redundancy: two rules with nearly the same words and the same polarity;
- diluted attention: in a long prompt, hard rules buried mid-paragraph in the middle, and
  rules on one object scattered far apart.
"""

from __future__ import annotations

from polygon.events import LintMark
from polygon.lint import TierReading
from polygon.lint.lexicon import lexicon
from polygon.lint.reading import Reading, UnitReading, partners, stem

RULES_MODEL = "polygon-rules/3"
"""The rule set's identity in the cache: bump it when a rule or threshold changes."""

TOTAL_BUDGET = 8
"""Hard constraints a prompt carries before overload starts to count."""
SECTION_BUDGET = 5
"""Hard constraints one section carries before overload starts to count."""
LONG_PROMPT_WORDS = 200
"""Below this, position in the prompt does not dilute a rule."""


def read_rules(reading: Reading) -> TierReading:
    """All five axes from the lexicon alone."""
    out = TierReading(tier="rules", model=RULES_MODEL)
    out.add("overload", *_overload(reading))
    out.add("contradiction", *_contradiction(reading))
    out.add("ambiguity", *_ambiguity(reading))
    out.add("redundancy", *_redundancy(reading))
    out.add("diluted_attention", *_diluted(reading))
    return out


def _overload(reading: Reading) -> tuple[float, list[LintMark]]:
    hard = [u for u in reading.units if u.hard]
    by_section: dict[int, list[UnitReading]] = {}
    for u in hard:
        by_section.setdefault(u.unit.section, []).append(u)
    densest = max(by_section.values(), key=len, default=[])
    score = max((len(hard) - TOTAL_BUDGET) / 8, (len(densest) - SECTION_BUDGET) / 5, 0.0)
    if score <= 0:
        return 0.0, []
    first, last = densest[0].unit, densest[-1].unit
    reason = (
        f"{len(densest)} hard constraints in one section, {len(hard)} in the prompt "
        f"(budget {SECTION_BUDGET} per section, {TOTAL_BUDGET} in all)"
    )
    return min(1.0, 0.3 + score), [
        LintMark(
            axis="overload", start=first.start, end=last.end, reason=reason, strength=min(1.0, 0.3 + score)
        )
    ]


POSITIVE = ("must", "should", "may")
CANDIDATE = 0.45
"""A pair the rules alone are not sure of (below "worth fixing"): the embeddings and judge
tiers get it to confirm."""
SITUATIONAL = 0.4
"""A prohibition limited to a situation against a rule that may apply elsewhere: noted, and
not confirmed by similarity (two rules alike in meaning can still hold in two situations)."""


def rule_pairs(reading: Reading) -> list[tuple[UnitReading, UnitReading]]:
    """Pairs of rules about the same action (or one's action and the other's order), in order.

    Indexed by action, never all pairs: each rule meets the first few and the nearest
    :data:`polygon.lint.MAX_PARTNERS` earlier rules of its action.
    """
    index: dict[str, list[int]] = {}
    found: set[tuple[int, int]] = set()
    for i, u in enumerate(reading.units):
        keys = {k for k in (u.rule.action, u.rule.then) if k}
        for k in keys:
            holders = index.setdefault(k, [])
            found.update((j, i) for j in partners(holders))
            holders.append(i)
    return [(reading.units[i], reading.units[j]) for i, j in sorted(found)]


def conflict(reading: Reading, a: UnitReading, b: UnitReading) -> tuple[str, float]:
    """Why two rules cannot both be followed (and how sure), or ``("", 0)``.

    - order: one says Q before P, the other does P without Q (or at once, Q unmet);
    - modality: the same action on a shared object, forbidden in one and asked or allowed in
      the other (a prohibition with its own exception, "never P until Q", meets only the
      order check: "once Q, P" agrees with it).
    """
    ra, rb = a.rule, b.rule
    for (s, su), (t, tu) in (((ra, a), (rb, b)), ((rb, b), (ra, a))):
        if s.first and s.then and t.action == s.then and t.modality in POSITIVE and not t.first:
            skipped = t.skips & s.first
            hasty = (_objects(reading, tu) & _objects(reading, su)) if t.at_once else frozenset()
            if skipped or hasty:
                what = ", ".join(sorted(skipped or hasty)[:3])
                return f"order: one rule puts {what} first, the other acts without it", 0.75
    mods = {ra.modality, rb.modality}
    if "must_not" in mods and mods & set(POSITIVE) and ra.action and ra.action == rb.action:
        banned, other = (ra, rb) if ra.modality == "must_not" else (rb, ra)
        if banned.first:
            return "", 0.0  # "never P until Q" is kept by "once Q, P"
        shared = _objects(reading, a) & _objects(reading, b)
        if not shared and not ra.generic:  # a specific action on the prompt's main object ("card")
            shared = _objects(reading, a, common=True) & _objects(reading, b, common=True)
        if not shared:
            return "", 0.0
        what = {"must": "asks for", "should": "advises", "may": "allows"}[other.modality]
        why = f"forbids what the other {what} (same action on {', '.join(sorted(shared)[:3])})"
        if banned.qualified and not (other.even or other.at_once):
            return why, SITUATIONAL  # "never P on the same day" and "if late, P": likely two situations
        loose = len(_objects(reading, a, common=True) & _objects(reading, b, common=True))
        whole_ban = _objects(reading, a if banned is ra else b) <= shared
        if ra.generic and loose < 2 and not whole_ban:
            return why, CANDIDATE  # "never say Y of X" and "say X": too loose alone, a candidate
        # (a ban on X as a whole — "never quote prices" — covers "quote the price of a cleaning")
        return why, min(0.9, 0.6 + 0.1 * (len(shared) - 1))
    return "", 0.0


def _objects(reading: Reading, u: UnitReading, *, common: bool = False) -> frozenset[str]:
    return reading.rule_objects(u, common=common)


def _contradiction(reading: Reading) -> tuple[float, list[LintMark]]:
    marks: list[LintMark] = []
    met: set[tuple[int, int]] = set()
    for a, b in rule_pairs(reading):
        met.add((a.unit.index, b.unit.index))  # read as rules: the word overlap below has no say
        why, strength = conflict(reading, a, b)
        if why:
            marks.extend(_both("contradiction", reading, a, b, f"contradicts line {{line}}: {why}", strength))
    for a, b in reading.sharing(2):
        if (a.unit.index, b.unit.index) in met:
            continue
        kind = _opposed(a, b)
        if not kind:
            continue
        shared = reading.objects(a) & reading.objects(b)
        if len(shared) < 2:
            continue
        strength = min(0.95, 0.55 + 0.1 * (len(shared) - 2))
        reason = f"{kind} over the same object ({_shown(reading, b, shared, 4)}) as line {_line(reading, a)}"
        marks.append(_pair_mark("contradiction", b, a, reason, strength))
    return max((m.strength for m in marks), default=0.0), marks


def _opposed(a: UnitReading, b: UnitReading) -> str:
    if a.polarity * b.polarity == -1:
        return "opposite hard rule"
    if (a.hard and b.allows and not b.hard) or (b.hard and a.allows and not a.hard):
        return "a permission that weakens a hard rule"
    return ""


def _ambiguity(reading: Reading) -> tuple[float, list[LintMark]]:
    marks: list[LintMark] = []
    total = 0.0
    for u in reading.units:
        weight = len(u.vague) + 0.5 * len(u.weak_vague)
        if not weight:
            continue
        total += weight
        piled = 0.25 * max(0.0, weight - 1)
        for hit in (*u.vague, *u.weak_vague):
            strength = min(1.0, (0.35 if hit in u.vague else 0.15) + piled)
            marks.append(
                LintMark(
                    axis="ambiguity",
                    start=hit.start,
                    end=hit.end,
                    reason=f"vague wording: {hit.marker.rstrip('*')!r} has more than one reading",
                    strength=strength,
                )
            )
    score = max([0.2 * total, *(m.strength for m in marks)]) if marks else 0.0
    return score, marks


def same_rule(reading: Reading, a: UnitReading, b: UnitReading) -> float:
    """How surely ``b`` asks again what ``a`` asks: same modality, action and object (0: not)."""
    ra, rb = a.rule, b.rule
    if not ra.modality or ra.modality != rb.modality or not ra.action:
        return 0.0
    if ra.then and ra.then == rb.then and ra.first & rb.first:
        return 0.7  # the same order, said twice
    if ra.action != rb.action:
        return 0.0
    oa, ob = _objects(reading, a), _objects(reading, b)
    shared = oa & ob
    jaccard = len(shared) / max(1, len(oa | ob))
    if len(shared) < 2 or jaccard < 0.25:
        return 0.0
    return min(0.9, 0.5 + 0.5 * jaccard)


def _redundancy(reading: Reading) -> tuple[float, list[LintMark]]:
    marks: list[LintMark] = []
    met: set[tuple[int, int]] = set()
    for a, b in rule_pairs(reading):
        strength = same_rule(reading, a, b)
        if strength and not conflict(reading, a, b)[0]:
            met.add((a.unit.index, b.unit.index))
            marks.extend(
                _both(
                    "redundancy",
                    reading,
                    a,
                    b,
                    "asks again what line {line} asks (same action, same object)",
                    strength,
                )
            )
    for a, b in reading.sharing(3, common_too=True):
        if (a.unit.index, b.unit.index) in met or not (a.rule.modality or b.rule.modality):
            continue  # two descriptions that overlap (a tool's line and a sentence on it) ask nothing twice
        if a.polarity != b.polarity or a.allows != b.allows:
            continue
        sa, sb = (
            reading.objects(a) | (a.stems & reading.common),
            reading.objects(b) | (b.stems & reading.common),
        )
        shared = sa & sb
        if len(shared) < 3:
            continue
        jaccard = len(shared) / len(sa | sb)
        if jaccard < 0.5:
            continue
        strength = min(1.0, 0.6 + (jaccard - 0.5))
        marks.append(
            _pair_mark("redundancy", b, a, f"says again what line {_line(reading, a)} says", strength)
        )
    return max((m.strength for m in marks), default=0.0), marks


def _diluted(reading: Reading) -> tuple[float, list[LintMark]]:
    if reading.word_count < LONG_PROMPT_WORDS:
        return 0.0, []
    longer = min(0.2, (reading.word_count - LONG_PROMPT_WORDS) / 1000)
    marks: list[LintMark] = []
    for u in reading.units:
        middle = 0.3 <= reading.prompt.position(u.unit) <= 0.75
        if u.hard and middle and not u.unit.bullet and _commands(u) and _among_descriptions(reading, u):
            reason = "a hard rule buried mid-paragraph in the middle of a long prompt (lost in the middle)"
            marks.append(
                LintMark(
                    axis="diluted_attention",
                    start=u.unit.start,
                    end=u.unit.end,
                    reason=reason,
                    strength=0.6 + longer,
                )
            )
    marks.extend(_scatter(reading))
    return max((m.strength for m in marks), default=0.0), marks


def _among_descriptions(reading: Reading, u: UnitReading) -> bool:
    """The sentences around it (same section) describe and ask nothing.

    The rule is hidden in prose, not one of a paragraph of instructions ("Things you do not
    do: …").
    """
    i = u.unit.index
    around = [reading.units[j] for j in (i - 1, i + 1) if 0 <= j < len(reading.units)]
    return not any(_instructs(n) and n.unit.section == u.unit.section for n in around)


def _instructs(u: UnitReading) -> bool:
    """An instruction: a bare imperative, or a force word that opens it.

    Not "the hotel is almost always full", not "there is a room where you can leave a child".
    """
    imperative = u.rule.modality == "must" and not u.force and not u.allows
    return imperative or _commands(u)


def _commands(u: UnitReading) -> bool:
    """The force word opens the sentence ("Never give…"): an instruction.

    Not a description that happens to say "always" ("the hotel is almost always full").
    """
    return bool(u.force) and u.force[0].start - u.unit.start <= 12  # "You must never…" still counts


def _scatter(reading: Reading) -> list[LintMark]:
    """Rules on the same objects, sections apart: the reader has to join them."""
    marks: list[LintMark] = []
    for a, b in reading.sharing(2):
        if not (a.hard and b.hard):
            continue
        apart = abs(reading.prompt.position(b.unit) - reading.prompt.position(a.unit))
        if b.unit.section - a.unit.section < 2 or apart < 0.5:
            continue
        shared = reading.objects(a) & reading.objects(b)
        if len(shared) >= 2:
            about = _shown(reading, b, shared, 3)
            reason = f"about the same thing as line {_line(reading, a)}, far from it ({about})"
            marks.append(_pair_mark("diluted_attention", b, a, reason, 0.5))
    return marks


def _pair_mark(axis: str, later: UnitReading, earlier: UnitReading, reason: str, strength: float) -> LintMark:
    return LintMark(
        axis=axis,
        start=later.unit.start,
        end=later.unit.end,
        reason=reason,
        strength=round(strength, 3),
        related=(earlier.unit.start, earlier.unit.end),
    )


def _both(
    axis: str, reading: Reading, a: UnitReading, b: UnitReading, reason: str, strength: float
) -> list[LintMark]:
    """Marks on both rules of a pair, each naming the other's line (``{line}`` in ``reason``)."""
    return [
        _pair_mark(axis, b, a, reason.format(line=_line(reading, a)), strength),
        _pair_mark(axis, a, b, reason.format(line=_line(reading, b)), strength),
    ]


def _shown(reading: Reading, u: UnitReading, stems: frozenset[str], most: int) -> str:
    """The shared objects as the author wrote them in ``u`` (not as crude stems)."""
    lex = lexicon(reading.language)
    words: dict[str, str] = {}
    for w in reading.prompt.unit_words(u.unit):
        s = stem(w.text, lex)
        if s in stems and s not in words:
            words[s] = w.text
    return ", ".join(words.get(s, s) for s in sorted(stems)[:most])


def _line(reading: Reading, u: UnitReading) -> int:
    return reading.prompt.line_col(u.unit.start)[0]
