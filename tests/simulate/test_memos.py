"""The per-text memos of the caller, noise and probes give what the uncached code gives."""

from __future__ import annotations

from polygon.languages import caller_language
from polygon.simulate.callers import understanding as u
from polygon.simulate.noise import _as_number, _parts, _split_edges, apply_noise
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
        assert _parts(word, "en") == (lead, core, trail, spoken, lp.soundalikes.get(core.lower()))


def test_noise_is_the_same_with_a_cold_and_a_warm_memo() -> None:
    said = "My number is 091 555 0134, fifty two, and Friday suits me."
    _parts.cache_clear()
    cold = apply_noise(said, intensity=1.0, language="en", run_seed=7, conversation="c", turn=3)
    warm = apply_noise(said, intensity=1.0, language="en", run_seed=7, conversation="c", turn=3)
    assert cold == warm
    assert cold[1]  # at intensity 1 some noise is applied
