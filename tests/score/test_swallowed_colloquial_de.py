"""German says its system is down in everyday verbs: "Das System hakt", "unser System streikt" (trial6).

A correct claims agent whose ``open_claim`` answered 500 said "Das System hakt gerade. Ich
habe Ihre Angaben notiert, ein Kollege legt den Schaden heute noch an." It told the caller
the failure, yet none of the German pack's ``acts.failed`` phrases or ``failed_forms`` read
"hakt", "streikt", "spinnt", "hängt": the report was taken as swallowing the failure and a
correct agent failed goal_reached (a false fail). The business's system ("das System",
"unser Schadensystem") acting up tells a failure; the caller's own car or phone does not.
"""

from __future__ import annotations

import pytest

from polygon.languages import load_language, read_turn
from polygon.score.swallowed import swallowed
from tests.support.tool_turns import FAIL_500, call

TOLD = [
    "Das System hakt gerade. Ich habe Ihre Angaben notiert, ein Kollege legt den Schaden heute noch an.",
    "Unser System streikt gerade. Ihre Meldung ist aber notiert.",
    "Unser Schadensystem spinnt heute, Ihre Meldung ist aber notiert.",
    "Der Server hängt leider. Ihre Meldung ist trotzdem notiert.",
    "Das Programm reagiert gerade nicht. Ihre Daten sind notiert.",
]

NOT_TOLD = [
    "Erledigt — Ihr Auto streikt, der Abschleppwagen ist bestellt.",
    "Erledigt, Ihr Handy spinnt wohl, aber der Schaden ist aufgenommen.",
    "Erledigt — Ihr Schaden ist aufgenommen.",
]


@pytest.mark.parametrize("said", TOLD)
def test_the_business_system_acting_up_is_a_failure_told(said: str) -> None:
    assert "outcome" in read_turn(said, load_language("de")).acts, said  # a report, so it could be
    assert swallowed(call([([FAIL_500], said)], language="de")) == [], said


@pytest.mark.parametrize("said", NOT_TOLD)
def test_the_callers_own_thing_acting_up_tells_none(said: str) -> None:
    (hidden,) = swallowed(call([([FAIL_500], said)], language="de"))
    assert hidden.report.turn == 1, said
