from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polygon.errors import UserInputError
from polygon.simulate.noise import apply_noise

TEXT = "Hi, my number is 091 555 0134 and I need fifty cleanings on Tuesday, right?"


@settings(max_examples=200)
@given(st.text(max_size=80), st.integers(0, 2**40), st.sampled_from(["en", "ru", "hr"]))
def test_intensity_zero_changes_nothing(text: str, seed: int, lang: str) -> None:
    heard, ops, _ = apply_noise(text, intensity=0.0, language=lang, run_seed=seed, conversation="c", turn=1)
    assert heard == text and ops == []


def test_same_inputs_same_noise_in_another_process() -> None:
    here = apply_noise(TEXT, intensity=0.8, language="en", run_seed=42, conversation="s.0", turn=3)
    code = (
        "import json; from polygon.simulate.noise import apply_noise; from polygon.events import to_builtins\n"
        f"h, o, s = apply_noise({TEXT!r}, intensity=0.8, language='en', run_seed=42, conversation='s.0', turn=3)\n"
        "print(json.dumps([h, to_builtins(o), s]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": ""},
    )
    heard, ops, seed = json.loads(out.stdout)
    assert heard == here[0] and seed == here[2]
    assert [op["kind"] for op in ops] == [op.kind for op in here[1]]


def test_turn_and_conversation_change_the_noise() -> None:
    a = apply_noise(TEXT, intensity=0.8, language="en", run_seed=1, conversation="s.0", turn=1)
    b = apply_noise(TEXT, intensity=0.8, language="en", run_seed=1, conversation="s.0", turn=2)
    c = apply_noise(TEXT, intensity=0.8, language="en", run_seed=1, conversation="s.1", turn=1)
    assert len({a[2], b[2], c[2]}) == 3


@pytest.mark.parametrize("text", ["fifty", "50"])
def test_numbers_read_digit_by_digit(text: str) -> None:
    for seed in range(40):
        heard, ops, _ = apply_noise(
            f"I am {text} today",
            intensity=1.0,
            language="en",
            run_seed=seed,
            conversation="c",
            turn=1,
        )
        if any(op.kind == "digits" for op in ops):
            assert "five zero" in heard
            return
    pytest.fail("digit-by-digit reading never happened at intensity 1")


@pytest.mark.parametrize(
    ("lang", "text", "digits", "swap"),
    [
        ("ru", "мой код пятьдесят", "пять ноль", ("код", "кот")),
        ("hr", "moj broj je pedeset", "pet nula", ("broj", "boj")),
        ("en", "my code is fifty two", "five zero", ("two", "too")),
    ],
)
def test_language_packs(lang: str, text: str, digits: str, swap: tuple[str, str]) -> None:
    seen_digits = seen_swap = False
    for seed in range(60):
        heard, ops, _ = apply_noise(
            text, intensity=1.0, language=lang, run_seed=seed, conversation="c", turn=1
        )
        seen_digits |= digits in heard
        seen_swap |= any(
            op.kind == "soundalike" and op.before == swap[0] and op.after == swap[1] for op in ops
        )
    assert seen_digits and seen_swap


def test_intensity_one_distorts_and_records_every_op() -> None:
    heard, ops, _ = apply_noise(TEXT, intensity=1.0, language="en", run_seed=5, conversation="c", turn=1)
    assert heard != TEXT and ops
    kinds = {op.kind for op in ops}
    assert kinds <= {"drop", "digits", "soundalike", "filler"}
    for op in ops:
        if op.kind == "drop":
            assert op.before and not op.after
        if op.kind == "filler":
            assert heard.startswith(op.after)


def test_more_intensity_more_distortion_on_average() -> None:
    def count(x: float) -> int:
        return sum(
            len(apply_noise(TEXT, intensity=x, language="en", run_seed=s, conversation="c", turn=1)[1])
            for s in range(100)
        )

    assert count(0.1) < count(0.5) < count(1.0)


def test_unknown_language_is_a_user_error() -> None:
    with pytest.raises(UserInputError, match="no noise language pack 'xx'"):
        apply_noise("hello", intensity=0.5, language="xx", run_seed=1, conversation="c", turn=1)
