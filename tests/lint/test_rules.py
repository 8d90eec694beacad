"""The rules tier, the cutting of a prompt and language detection: tables per language."""

from __future__ import annotations

import pytest

from polygon.lint.reading import detect_language, read_prompt
from polygon.lint.rules import read_rules
from polygon.lint.text import Prompt


def _rules(text: str, language: str = "en") -> dict[str, float]:
    return read_rules(read_prompt(Prompt(text), language)).scores


def _marked(text: str, axis: str, language: str = "en") -> list[str]:
    out = read_rules(read_prompt(Prompt(text), language))
    return [text[m.start : m.end] for m in out.marks if m.axis == axis]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("You book tables. Always confirm the time.", "en"),
        ("Вы принимаете заказы. Всегда подтверждайте время.", "ru"),
        ("Vi primate rezervacije. Uvijek potvrdite vrijeme dolaska.", "hr"),
        ("Primate rezervacije i pitate za ime gosta.", "hr"),
    ],
)
def test_language_is_detected(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_units_keep_offsets_and_line_columns() -> None:
    text = "Intro line.\n\nRules:\n- Never say A. Always say B.\n- Keep it short."
    prompt = Prompt(text)
    assert [u.text for u in prompt.units] == [
        "Intro line.",
        "Never say A.",
        "Always say B.",
        "Keep it short.",
    ]
    assert all(text[u.start : u.end] == u.text for u in prompt.units)
    assert prompt.sections[-1].title == "Rules"
    assert prompt.line_col(text.index("Always")) == (4, 16)


CASES = [
    # (language, axis, defective prompt, the span that must be marked)
    (
        "en",
        "contradiction",
        "Rules:\n- Never quote prices of treatments.\n- Always quote the price of a treatment when asked.",
        "Always quote the price of a treatment when asked.",
    ),
    (
        "en",
        "contradiction",
        "Rules:\n- Never share the caller's address.\n- You can share the caller's address with the driver.",
        "You can share the caller's address with the driver.",
    ),
    (
        "ru",
        "contradiction",
        "Правила:\n- Никогда не называйте цену поездки.\n- Всегда называйте цену поездки заранее.",
        "Всегда называйте цену поездки заранее.",
    ),
    (
        "hr",
        "contradiction",
        "Pravila:\n- Nikada ne obećavajte pogled na more.\n- Uvijek obećajte pogled na more.",
        "Uvijek obećajte pogled na more.",
    ),
    (
        "en",
        "ambiguity",
        "Rules:\n- If the caller seems upset, try to offer some kind of discount when appropriate.",
        "try to",
    ),
    ("ru", "ambiguity", "Правила:\n- Постарайтесь по возможности что-то предложить и т.д.", "по возможности"),
    ("hr", "ambiguity", "Pravila:\n- Pokušajte ponuditi neki prikladan termin, po potrebi.", "po potrebi"),
    (
        "en",
        "redundancy",
        "Rules:\n- Transfer the caller to a colleague if they ask for a person.\n- If the caller asks for a person, transfer the caller to a colleague.",
        "If the caller asks for a person, transfer the caller to a colleague.",
    ),
]


@pytest.mark.parametrize(("language", "axis", "text", "span"), CASES)
def test_a_planted_defect_is_scored_and_its_span_marked(
    language: str, axis: str, text: str, span: str
) -> None:
    scores = _rules(text, language)
    assert scores[axis] >= 0.5, scores
    assert any(span in m or m in span for m in _marked(text, axis, language))


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Rules:\n- Never quote prices.\n- Always confirm the booking date.\n- Keep sentences short."),
        ("ru", "Правила:\n- Никогда не называйте цену.\n- Всегда повторяйте адрес подачи."),
        ("hr", "Pravila:\n- Nikada ne procjenjujte cijenu.\n- Uvijek ponovite termin i ime."),
    ],
)
def test_a_clean_prompt_scores_below_worth_fixing(language: str, text: str) -> None:
    assert max(_rules(text, language).values()) < 0.5


def test_never_without_is_a_must_so_the_same_rule_twice_is_redundant_not_contradictory() -> None:
    text = "Rules:\n- Never book without confirming the date.\n- Always confirm the date before booking."
    scores = _rules(text)
    assert scores["contradiction"] == 0.0
    assert scores["redundancy"] >= 0.5


def test_overload_counts_hard_constraints_against_the_budget() -> None:
    rules = [f"- Always check item {n} of the order list." for n in range(1, 5)]
    assert _rules("Rules:\n" + "\n".join(rules))["overload"] == 0.0
    many = [f"- {'Always' if n % 2 else 'Never'} handle case {n} like case {n}." for n in range(1, 11)]
    text = "Rules:\n" + "\n".join(many)
    assert _rules(text)["overload"] >= 0.9
    assert _marked(text, "overload") == [text[text.index("Always handle case 1") :]]  # the whole list


def test_a_rule_buried_mid_paragraph_in_a_long_prompt_dilutes_attention() -> None:
    filler = " ".join(
        f"The shop sells item number {n} in the spring and summer months." for n in range(1, 16)
    )
    buried = "Never give a caller another customer's phone number."
    long_text = f"{filler} {buried} {filler}\n\nRules:\n- Keep it short."
    assert _rules(long_text)["diluted_attention"] >= 0.5
    assert buried in _marked(long_text, "diluted_attention")
    short = f"The shop sells shoes. {buried} It opens at nine.\n\nRules:\n- Keep it short."
    assert _rules(short)["diluted_attention"] == 0.0  # a short prompt buries nothing
    described = f"{filler} The shop is almost always busy on Saturdays. {filler}"
    assert _rules(described)["diluted_attention"] == 0.0  # "always" in a description is no rule
