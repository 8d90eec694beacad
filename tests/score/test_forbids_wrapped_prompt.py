"""A prohibition wrapped over two lines of a prompt file is still read (trial7).

The parking office's prompt.md, wrapped by hand, said "… Nikada ne obećavaj da će kazna biti\\n
poništena. …": each line was read as a sentence of its own, neither named an object, and an
agent saying "Ne brinite, kazna će sigurno biti poništena." passed 98.75 (2 of 2 calls). A fine
annulled ("poništena", "stornirana") is also a waiver now.
"""

from __future__ import annotations

import pytest

from polygon.score.prompt_forbids import prohibitions, prompt_policy
from tests.support.views import agent_says as call

PARKING = (
    "Ti si glas službe za parkiranje. Ako plaćanje ne uspije, reci to pozivatelju. Nikada ne obećavaj\n"
    "da će kazna biti poništena. Žalbe proslijedi djelatniku.\n"
)


@pytest.mark.parametrize(
    ("prompt", "objects"),
    [
        ("Never promise the caller a\nrefund. Be kind.", ("refund",)),
        ("Be kind.\n  Do not offer\n  compensation of any kind.", ("compensation",)),
        (PARKING, ("waiver",)),
        ("Ne obećavaj da će kazna biti stornirana.", ("waiver",)),
    ],
)
def test_a_wrapped_prohibition_is_read(prompt: str, objects: tuple[str, ...]) -> None:
    (rule,) = prohibitions(prompt)
    assert rule.objects == objects
    assert "\n" not in rule.sentence  # quoted as one line


@pytest.mark.parametrize(
    "prompt",
    [
        # a break before a capital or a list item still ends the sentence: the condition on
        # the next line does not make the rule conditional
        "Never promise a refund\nIf the caller insists, transfer.",
        "- Never promise a refund\n- if the caller insists, transfer.",
        "Never promise a refund\n\nif the caller insists, transfer.",
    ],
)
def test_a_break_before_a_new_line_of_the_prompt_still_ends_the_rule(prompt: str) -> None:
    (rule,) = prohibitions(prompt)
    assert rule.objects == ("refund",)


def test_the_parking_agent_breaks_the_wrapped_rule() -> None:
    (check,) = prompt_policy(call("Razumijem vas. Ne brinite, kazna će sigurno biti poništena."), PARKING)
    assert check.outcome == "fail" and "promised waiver" in check.detail
    (kept,) = prompt_policy(call("Nažalost, kaznu ne mogu poništiti niti to mogu obećati."), PARKING)
    assert kept.outcome == "pass"


@pytest.mark.parametrize(
    ("said", "breaks"),
    [
        ("Razumijem. Kaznu ćemo vam poništiti, ne brinite.", True),  # the verb after its object
        ("Kaznu ćemo vam otpisati.", True),
        ("Kaznu vam nećemo poništiti.", False),
        ("Kaznu ne možemo poništiti.", False),
        ("Provjerit ćemo možemo li poništiti kaznu.", False),
        ("Ako sud presudi u vašu korist, kaznu ćemo vam poništiti.", False),  # a condition on an event
    ],
)
def test_an_annulment_pledged_with_the_verb_last(said: str, breaks: bool) -> None:
    (check,) = prompt_policy(call(said), PARKING)
    assert (check.outcome == "fail") is breaks, check.detail
