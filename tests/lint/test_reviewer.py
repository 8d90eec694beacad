"""Rules read as a reviewer reads them (issue 30), and lint's bounds (issue 26): bare
imperatives, the modality ladder, order contradictions, both sides marked, caps on marks, and
a prompt too long to read refused in one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from polygon.cli.main import cli
from polygon.lint import MAX_MARKS, MAX_MARKS_PER_AXIS, MAX_PROMPT_CHARS
from polygon.lint.reading import read_prompt
from polygon.lint.rules import read_rules
from polygon.lint.text import Prompt
from tests.lint.corpus import load_corpus
from tests.support.text import replaced

CARD = """You answer the card services line of a bank.

Rules:
- Always verify the caller with verify_identity before you block a card.
- Block a lost or stolen card with block_card immediately, without verifying the caller first, so no time is lost.
- Never read out a full card number.
- Read the full card number back to the caller so they can check it is the right card.
- A blocked card can never be unblocked.
- If a regular customer asks nicely, you may unblock their card.
"""
PAIRS = [
    ("Always verify the caller", "Block a lost or stolen card"),
    ("Never read out a full card number.", "Read the full card number back"),
    ("A blocked card can never be unblocked.", "you may unblock their card"),
]


def _read(text: str, language: str = "en") -> tuple[dict[str, float], list[tuple[str, str, str]]]:
    """Scores, and each mark as (axis, its text, the text of the rule it meets)."""
    out = read_rules(read_prompt(Prompt(text), language))
    marks = [
        (m.axis, text[m.start : m.end], text[m.related[0] : m.related[1]] if m.related else "")
        for m in out.marks
    ]
    return out.scores, marks


def test_the_card_services_prompt_has_three_contradictions_each_marked_on_both_sides() -> None:
    scores, marks = _read(CARD)
    assert scores["contradiction"] >= 0.5
    strong = read_rules(read_prompt(Prompt(CARD), "en")).marks
    for one, other in PAIRS:
        for here, there in ((one, other), (other, one)):
            assert any(
                m.axis == "contradiction"
                and m.strength >= 0.5
                and here in CARD[m.start : m.end]
                and m.related
                and there in CARD[m.related[0] : m.related[1]]
                for m in strong
            ), (here, there)
    assert scores["redundancy"] < 0.5  # an order contradiction is no repetition


def test_the_same_rules_in_agreement_are_no_contradiction() -> None:
    agreed = (
        replaced(
            replaced(
                replaced(
                    CARD,
                    "Block a lost or stolen card with block_card immediately, without verifying the caller first, so no time is lost.",
                    "Block a lost or stolen card with block_card once the caller is verified.",
                ),
                "Read the full card number back",
                "Read the last four digits back",
            ),
            "If a regular customer asks nicely, you may unblock their card.",
            "Explain that a new card is sent by post.",
        )
    )
    scores, _ = _read(agreed)
    assert scores["contradiction"] < 0.5, scores


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (
            "ru",
            "Правила:\n- Если клиент просит соединить с врачом, сразу переводите звонок.\n"
            "- Никогда не переводите звонок на сотрудника.",
        ),
        (
            "ru",
            "Правила:\n- Всегда проверяйте адрес, прежде чем регистрировать заявку.\n"
            "- Регистрируйте заявку сразу, без проверки адреса.",
        ),
        (
            "hr",
            "Pravila:\n- Uvijek pitajte broj telefona prije nego upišete termin.\n"
            "- Ako se klijentu žuri, upišite termin odmah, bez broja telefona.",
        ),
        (
            "en",
            "Rules:\n- Never change the delivery address.\n- Change the delivery address whenever the recipient asks.",
        ),
    ],
)
def test_a_rule_and_its_opposite_meet_in_every_language(language: str, text: str) -> None:
    scores, marks = _read(text, language)
    assert scores["contradiction"] >= 0.5, scores
    sides = {here for axis, here, _ in marks if axis == "contradiction"}
    assert len(sides) == 2  # both rules are marked


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (
            "en",
            "Rules:\n- Do not discuss a policy until the caller's name and date of birth match it.\n"
            "- Once they match, you may tell the caller which cover the policy includes.",
        ),
        (
            "ru",
            "Правила:\n- Не называйте сумму к оплате, пока фамилия и адрес не совпали со счётом.\n"
            "- Когда они совпали, назовите сумму и срок оплаты.",
        ),
        ("en", "Rules:\n- Never quote prices.\n- Always quote the booking number."),
    ],
)
def test_an_exception_kept_or_another_object_is_no_contradiction(language: str, text: str) -> None:
    assert _read(text, language)[0]["contradiction"] < 0.5


def test_a_ban_on_a_whole_object_meets_a_rule_for_part_of_it() -> None:
    """"Never quote prices" covers the price of a cleaning (the browser test's prompt); a ban
    on part of an object ("the doctor's phone") does not cover the whole ("the clinic's phone")."""
    covering = "Rules:\n- Never quote prices.\n- Always quote the price of a cleaning when asked.\n"
    assert _read(covering)[0]["contradiction"] >= 0.5
    partial = "Rules:\n- Never give out the doctor's phone.\n- Always give the clinic's phone when asked.\n"
    assert _read(partial)[0]["contradiction"] < 0.5


def test_a_paraphrased_rule_with_the_same_action_and_object_is_redundant() -> None:
    text = (
        "Правила:\n- Перед записью проверьте клубную карту через `find_member`.\n"
        "- Если на занятии нет мест, предложите лист ожидания.\n"
        "- Прежде чем записать клиента на занятие, проверьте его клубную карту через `find_member`."
    )
    scores, marks = _read(text, "ru")
    assert scores["redundancy"] >= 0.5
    assert len({here for axis, here, _ in marks if axis == "redundancy"}) == 2


def _huge(chars: int) -> str:
    """The corpus's English prompts again and again: every rule repeated thousands of times."""
    parts, size = [], 0
    items = [i.text for i in load_corpus() if i.language == "en"]
    while size < chars:
        for text in items:
            parts.append(text)
            size += len(text) + 2
    return "\n\n".join(parts)[:chars]


def test_a_megabyte_prompt_is_read_with_bounded_marks() -> None:
    text = _huge(1_000_000)
    out = read_rules(read_prompt(Prompt(text), "en"))
    assert out.scores["redundancy"] >= 0.5  # it is all repetition, and it says so
    assert len(out.marks) <= MAX_MARKS
    for axis in out.scores:
        assert sum(m.axis == axis for m in out.marks) <= MAX_MARKS_PER_AXIS


def test_a_prompt_over_the_cap_is_one_line_and_exit_2(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_text(_huge(MAX_PROMPT_CHARS + 1), encoding="utf-8")
    res = CliRunner().invoke(cli, ["--log", str(tmp_path / "log"), "lint", str(big), "--tiers", "rules"])
    assert res.exit_code == 2
    assert "lint reads at most" in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_the_judge_is_asked_to_confirm_the_pairs_the_rules_suspect() -> None:
    from polygon.lint.judge import judge_request

    user = judge_request(read_prompt(Prompt(CARD), "en"), {})["messages"][1]["content"]
    asked = [line for line in user.splitlines() if line.startswith("- contradiction?")]
    assert len(asked) >= 3
    for one, other in PAIRS:
        assert any(one in line and other in line for line in asked), (one, other)


class _Topics:
    """A stand-in embedder: texts on one topic (a keyword) share a vector, others are apart."""

    identity = "test/topics"

    def __init__(self, topics: list[str]) -> None:
        self.topics = topics

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), len(self.topics) + len(texts)), dtype=np.float32)
        for i, text in enumerate(texts):
            hit = [k for k, topic in enumerate(self.topics) if topic in text.lower()]
            out[i, hit[0] if hit else len(self.topics) + i] = 1.0
        return out


def test_the_embeddings_tier_pairs_rules_that_share_a_subject_but_few_words() -> None:
    from polygon.lint.embeddings import read_embeddings

    text = (
        "Rules:\n- Never give dosage advice on the phone.\n- Book pharmacist calls with the booking tool.\n"
        "- If a caller asks how much of a medicine to take, tell them the usual dosage from the leaflet."
    )
    reading = read_prompt(Prompt(text), "en")
    assert read_rules(reading).scores["contradiction"] < 0.5  # one shared word: the rules alone are unsure
    out = read_embeddings(reading, _Topics(["dosage"]))
    assert out.scores["contradiction"] >= 0.5
    marked = {text[m.start : m.end] for m in out.marks if m.axis == "contradiction"}
    assert marked == {
        "Never give dosage advice on the phone.",
        "If a caller asks how much of a medicine to take, tell them the usual dosage from the leaflet.",
    }
