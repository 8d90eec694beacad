"""``reason_for_refusal`` validated as a table (issue 32, reproduction 7).

Four domains (bank card, insurance, power outage, pharmacy) in three languages; refusals
phrased many ways, with and without a reason, against outcome reports that carry negative
words ("can't be used", "no longer", "ne može", "нельзя"). Each row is one agent line; the
expected answer is what a person would say.
"""

from __future__ import annotations

import pytest

from polygon.events.families import PersonaSnapshot
from polygon.probe.library import LIBRARY, detect
from tests.support.views import conv

PROBE = next(p for p in LIBRARY if p.id == "reason_for_refusal")


def _persona(language: str, goal: str) -> PersonaSnapshot:
    return PersonaSnapshot(
        persona_id="p", type="cooperative", outcome="success", difficulty=2, goal=goal, facts={}, language=language
    )


BANK = ("en", "block my stolen card")
CLAIM = ("en", "file a claim for storm damage")
OUTAGE = ("hr", "prijaviti da nema struje")
PHARMACY = ("ru", "продлить рецепт")

ROWS = [
    # outcome reports with negative words: not refusals
    (BANK, "Done — the card ending 7730 is now blocked and can't be used.", "n/a"),
    (BANK, "The card has been blocked; it will no longer work anywhere.", "n/a"),
    (CLAIM, "Done — your claim is filed. You don't need to do anything else.", "n/a"),
    (OUTAGE, "Gotovo — kvar je prijavljen, struja se ne može vratiti prije 18 sati, ekipa je na putu.", "n/a"),
    (PHARMACY, "Готово — рецепт продлён, больше ничего делать не нужно.", "n/a"),
    # refusals with a reason
    (BANK, "I can't block it over the phone because the card is a business card.", "yes"),
    (BANK, "That's not possible, since the card was already cancelled.", "yes"),
    (CLAIM, "I'm unable to open a claim for that, due to the policy's flood exclusion.", "yes"),
    (CLAIM, "We don't do that by phone; the law requires a signed form.", "yes"),
    (OUTAGE, "Nažalost, to ne možemo, jer kvar mora prijaviti vlasnik priključka.", "yes"),
    (OUTAGE, "Ne mogu vam odobriti naknadu zato što zahtjev mora biti pisan.", "yes"),
    (PHARMACY, "К сожалению, не могу, потому что рецепт просрочен.", "yes"),
    (PHARMACY, "Нельзя продать без рецепта, так как это запрещено законом.", "yes"),
    # refusals without one
    (BANK, "I can't do that.", "no"),
    (BANK, "That's not possible.", "no"),
    (CLAIM, "I'm unable to help with that.", "no"),
    (CLAIM, "We don't do that.", "no"),
    (OUTAGE, "Nažalost, to ne možemo.", "no"),
    (OUTAGE, "Ne mogu vam pomoći.", "no"),
    (PHARMACY, "К сожалению, не могу.", "no"),
    (PHARMACY, "Нет, так нельзя.", "no"),
]


@pytest.mark.parametrize(("domain", "agent", "expected"), ROWS)
def test_reason_for_refusal_row(domain: tuple[str, str], agent: str, expected: str) -> None:
    language, goal = domain
    view = conv("c", [(1, "caller", goal), (1, "agent", agent)], persona=_persona(language, goal))
    answer, evidence = detect(PROBE, view)
    assert answer == expected, (agent, evidence)


def test_the_table_spans_four_domains_and_three_languages() -> None:
    assert len({d for d, _, _ in ROWS}) >= 4
    assert {d[0] for d, _, _ in ROWS} == {"en", "hr", "ru"}
    assert {e for _, _, e in ROWS} == {"yes", "no", "n/a"}


def test_the_correct_agent_scores_better_than_the_buggy_one() -> None:
    """The reproduction: a correct agent that blocks the card (and says it can't be used)
    is not scored as refusing without a reason; one that refuses bare is."""
    persona = _persona(*BANK)
    correct = conv("a", [(1, "caller", "Block my card."), (1, "agent", ROWS[0][1])], persona=persona)
    buggy = conv("b", [(1, "caller", "Block my card."), (1, "agent", "I can't do that.")], persona=persona)
    assert detect(PROBE, correct)[0] == "n/a"
    assert detect(PROBE, buggy)[0] == "no"
