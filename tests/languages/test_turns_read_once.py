"""An agent turn read twice (the caller, the read-back check, the probes) reads the same."""

from __future__ import annotations

from polygon.languages import caller_language
from polygon.languages.acts import _read_turn, read_turn


def test_a_turn_read_again_is_the_same_reading() -> None:
    pack = caller_language("en")
    for text in ("Please hold while I transfer you.", "Booked for Friday 10:30. Anything else?", ""):
        first = read_turn(text, pack)
        assert read_turn(text, pack) is first
        assert first == _read_turn(text, pack)


def test_each_language_pack_reads_a_turn_its_own_way() -> None:
    pack = caller_language("en")
    text = "Please hold while I transfer you."
    assert "transfer" in read_turn(text, pack).acts
    deaf = pack.model_copy(update={"acts": pack.acts.model_copy(update={"transfer": ("zzz",)})})
    assert "transfer" not in read_turn(text, deaf).acts
    assert "transfer" in read_turn(text, pack).acts
