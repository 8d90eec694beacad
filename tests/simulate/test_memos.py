"""The per-text memos of the caller, noise and probes give what the uncached code gives."""

from __future__ import annotations

import random
import re

from polygon.events import NoiseOp
from polygon.languages import caller_language
from polygon.simulate.callers import understanding as u
from polygon.simulate.noise import (
    P_DIGITS,
    P_DROP,
    P_FILLER,
    P_SOUNDALIKE,
    _as_number,
    _parts,
    _split_edges,
    _words,
    apply_noise,
    noise_seed,
)
from polygon.simulate.noise.packs import pack

FACTS = {"name": "Ana Kovac", "date_of_birth": "1980-03-12", "phone": "091 555 0134"}
LINES = (
    "Booked for Friday, Ivana. Your number is 091 555 0143?",
    "Can I have your date of birth?",
    "What is your phone number?",
    "All done, your cleaning is booked.",
)


def test_asked_and_misheard_answer_as_the_uncached_code() -> None:
    pack_en = caller_language("en")
    for line in LINES * 2:  # the second round is answered from the memo
        assert u.asked(line, FACTS, "book a cleaning", pack_en) == u._asked(
            line, FACTS, "book a cleaning", pack_en
        )
        assert u.misheard(line, FACTS, pack_en) == u._misheard(line, FACTS, pack_en)
    assert u.misheard(LINES[0], FACTS, pack_en)  # the read-back is wrong: the memo is not empty by luck


def test_what_a_question_asks_answers_as_the_uncached_code() -> None:
    questions = (*LINES, "What else?", "Which medicine do you need?", "Koji lijek trebate?", "Anything else?")
    answers = set()
    for code in ("en", "hr", "de"):
        pack_ = caller_language(code)
        for q in questions * 2:  # the second round is answered from the memo
            answers.add((u.asks_what_wanted(q, pack_), u.asks_something(q, pack_)))
            assert u.asked_about(q, pack_) == u._asked_about(q, pack_)
            assert u.asks_what_wanted(q, pack_) == u._asks_what_wanted(q, pack_)
            assert u.asks_something(q, pack_) == u._asks_something(q, pack_)
    assert len(answers) > 2  # the questions differ in what they ask: a memo of one answer would fail


def test_a_memo_answer_cannot_be_changed_by_its_caller() -> None:
    pack_en = caller_language("en")
    first = u.misheard(LINES[0], FACTS, pack_en)
    first.clear()
    assert u.misheard(LINES[0], FACTS, pack_en)


def test_another_pack_or_other_facts_are_not_answered_from_the_memo() -> None:
    pack_en = caller_language("en")
    u.asked(LINES[1], FACTS, "book a cleaning", pack_en)
    other = {"name": "Ana Kovac"}
    assert u.asked(LINES[1], other, "book a cleaning", pack_en) == u._asked(
        LINES[1], other, "book a cleaning", pack_en
    )
    deaf = pack_en.model_copy()
    assert u._ASKED[(LINES[1], tuple(FACTS.items()), "book a cleaning", id(pack_en))][0] is pack_en
    u.asked(LINES[1], FACTS, "book a cleaning", deaf)
    assert u._ASKED[(LINES[1], tuple(FACTS.items()), "book a cleaning", id(deaf))][0] is deaf


def test_the_memos_are_bounded() -> None:
    pack_en = caller_language("en")
    for i in range(u._HELD + 10):
        u.asked(f"line {i}?", FACTS, "book a cleaning", pack_en)
    assert 0 < len(u._ASKED) <= u._HELD


def test_a_words_noise_parts_are_what_the_word_gives() -> None:
    lp = pack("en")
    for word in ("fifty,", "Friday.", "(0134)", "two-thousand", "sea", "1980-03-12"):
        lead, core, trail = _split_edges(word)
        number = _as_number(core.lower(), lp)
        spoken = " ".join(lp.digits[int(d)] for d in number) if number is not None else None
        said = tuple(spoken.split()) if spoken else ()
        assert _parts(word, "en") == (lead, core, trail, spoken, said, lp.soundalikes.get(core.lower()))


def test_noise_is_the_same_with_a_cold_and_a_warm_memo() -> None:
    said = "My number is 091 555 0134, fifty two, and Friday suits me."
    _parts.cache_clear()
    _words.cache_clear()
    cold = apply_noise(said, intensity=1.0, language="en", run_seed=7, conversation="c", turn=3)
    warm = apply_noise(said, intensity=1.0, language="en", run_seed=7, conversation="c", turn=3)
    assert cold == warm
    assert cold[1]  # at intensity 1 some noise is applied


def _noise_word_by_word(text: str, intensity: float, language: str, seed: int) -> tuple[str, list[NoiseOp]]:
    """The noise as it was drawn before the per-text memo: a word at a time, nothing kept."""
    rng, lp = random.Random(seed), pack(language)
    ops: list[NoiseOp] = []
    out: list[str] = []
    for word in re.findall(r"\S+", text):
        lead, core, trail = _split_edges(word)
        number = _as_number(core.lower(), lp)
        spoken = " ".join(lp.digits[int(d)] for d in number) if number is not None else None
        swapped = lp.soundalikes.get(core.lower())
        drop, digits, sound = rng.random(), rng.random(), rng.random()
        if spoken is not None and digits < P_DIGITS * intensity:
            ops.append(NoiseOp(kind="digits", position=len(out), before=word, after=spoken))
            out.extend(spoken.split())
        elif swapped is not None and sound < P_SOUNDALIKE * intensity:
            ops.append(NoiseOp(kind="soundalike", position=len(out), before=word, after=swapped))
            out.append(lead + swapped + trail)
        elif drop < P_DROP * intensity and len(core) > 0:
            ops.append(NoiseOp(kind="drop", position=len(out), before=word, after=""))
        else:
            out.append(word)
    if rng.random() < P_FILLER * intensity:
        filler = rng.choice(lp.fillers)
        out.insert(0, filler)
        ops.append(NoiseOp(kind="filler", position=0, before="", after=filler))
    return " ".join(out), ops


def test_noise_is_what_the_word_by_word_draw_gave() -> None:
    lines = (
        "My number is 091 555 0134, fifty two, and Friday suits me.",
        "Moj broj je nula devet jedan, petak mi odgovara.",
        "Sorry, I don't have that. (0134) two-thousand sea!",
    )
    seen = 0
    for turn in range(40):
        for line, language in zip(lines, ("en", "hr", "en"), strict=True):
            for intensity in (0.3, 1.0):
                got = apply_noise(line, intensity=intensity, language=language, run_seed=5, conversation="c", turn=turn)
                seed = noise_seed(5, "c", turn)
                assert got == (*_noise_word_by_word(line, intensity, language, seed), seed)
                seen += len(got[1])
    assert seen > 100  # the draws did distort: digits, sound-alikes, drops and fillers were compared


def test_a_long_text_is_read_as_before_but_not_kept() -> None:
    from polygon.score import danger

    long = "Sorry, I can smell gas in the kitchen, what is your phone number? " * 20
    assert len(long) > danger.KEPT_CHARS
    _words.cache_clear()
    got = apply_noise(long, intensity=1.0, language="en", run_seed=5, conversation="c", turn=1)
    assert got == (*_noise_word_by_word(long, 1.0, "en", noise_seed(5, "c", 1)), noise_seed(5, "c", 1))
    assert _words.cache_info().currsize == 0
    kept = danger._kept_named.cache_info().currsize
    assert danger._find_all(long, ("en",), {}) == [("gas", "smell gas")]
    assert danger._kept_named.cache_info().currsize == kept
    pack_en = caller_language("en")
    memo = u._marks(pack_en)
    sizes = len(memo.about), len(memo.wanting), len(memo.asking)
    assert u.asks_something(long, pack_en) and u.asked_about(long, pack_en) == u._asked_about(long, pack_en)
    assert u.asks_what_wanted(long, pack_en) == u._asks_what_wanted(long, pack_en)
    assert (len(memo.about), len(memo.wanting), len(memo.asking)) == sizes


def _named_kind_by_kind(text: str, codes: tuple[str, ...], known: set[str]) -> list[tuple[str, str]]:
    """The dangers a text names as they were read before the per-text memo: known kinds skipped."""
    from polygon.score import danger

    low, out = danger._low(text), {}
    for reading in map(danger._reading, codes):
        for kind, pattern in reading.dangers:
            if kind in known or kind in out:
                continue
            for match in pattern.finditer(low):
                if not danger._negated(low[: match.start()], reading.negations):
                    out[kind] = match.group(0)
                    break
    return list(out.items())


def test_the_dangers_a_text_names_are_what_the_kind_by_kind_scan_found() -> None:
    from polygon.languages import LANGUAGES
    from polygon.score import danger

    texts = (
        "I can smell gas and my father has chest pain.",
        "There's no smell of gas, but something is burning!",
        "Osjećam miris plina u kuhinji.",
        "Sorry, I don't have that.",
    )
    named = 0
    for text in texts * 2:  # the second round is answered from the memo
        for codes in (("en",), ("hr",), LANGUAGES):
            for known in (set(), {"gas"}, {"fire", "medical"}):
                got = danger._find_all(text, codes, dict.fromkeys(known))  # type: ignore[arg-type]
                assert got == _named_kind_by_kind(text, codes, known)
                named += len(got)
    assert named > 10  # several kinds were found, and some were skipped as known
