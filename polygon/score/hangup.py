"""An agent that hung up on a caller it never answered (trial39 defect 5).

A scenario whose ``expect`` only says what must *not* happen (``no_calls: [book_appointment]``
for a caller whose question should be declined) was met by an agent that said one brush-off
line and hung up: nothing was booked, so every expected end state held and the call passed
at 88.75. When the agent ends the call itself, at least one of its turns must have settled
something for the caller: an outcome report, a refusal, a transfer or a callback (the same
dialogue acts the scripted caller listens for, in the persona's language). A caller who
hangs up, a transfer, or a call the agent closed after saying "Done — ..." is unaffected.
"""

from __future__ import annotations

from polygon.events import PersonaSnapshot
from polygon.languages import LANGUAGES, load_language, read_turn
from polygon.transcript import ConversationView

SETTLING_ACTS = frozenset({"outcome", "refusal", "transfer", "callback"})
"""Acts that settle a caller's goal one way or another (docs/callers.md)."""


def unsettled_hangup(view: ConversationView, persona: PersonaSnapshot) -> str:
    """Why the agent's own hang-up left the caller's goal unsettled ("" when it did not)."""
    e = view.ended
    if e is None or e.by != "agent" or e.reason != "hangup" or persona.language not in LANGUAGES:
        return ""
    pack = load_language(persona.language)
    said = [t.agent_text for t in view.turns if t.agent_text]
    if any(SETTLING_ACTS & read_turn(text, pack).acts for text in said):
        return ""
    return (
        "the agent hung up without settling the caller's goal "
        "(it said no outcome, refusal, transfer or callback)"
    )
