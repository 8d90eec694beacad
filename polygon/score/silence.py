"""An agent turn that says nothing: silence the caller hears (``check:agent_silent``).

Models that return an empty reply are common in production, and the protocol allows one
(``{}`` or ``reply: ""`` is "a turn of silence", docs/agents.md), so the engine goes on and
no other check looked: a call whose agent went quiet twice read like any other.

A turn is silent when the agent's reply holds no word (empty, whitespace, punctuation only),
it called no tool in it (a lookup without words is work, not silence) and it did not end the
call with it (a hang-up or transfer without words is judged by ``goal_reached``). One silent
turn after which the agent spoke again passes, named (a dropped reply it recovered from);
two or more, or a call whose last agent reply was silent, fail.

The check is recorded only for a call that has a silent turn: the events of a call whose
agent always spoke stay exactly as they were (golden reports, the accuracy benchmark).
"""

from __future__ import annotations

from polygon.events import CheckRecorded, Evidence
from polygon.score.recorded import check_recorded
from polygon.transcript import ConversationView, TurnView, silent_reply

AGENT_SILENT = "agent_silent"


def silent_turns(view: ConversationView) -> list[TurnView]:
    """The turns in which the agent said no word, called no tool and did not end the call."""
    return [t for t in view.turns if silent_reply(t)]


def agent_silent(view: ConversationView) -> list[CheckRecorded]:
    """``agent_silent`` for a call with a silent agent turn; nothing for any other call."""
    silent = silent_turns(view)
    if not silent:
        return []
    evidence = [
        Evidence(turn=t.turn, at=t.agent_at, quote=f"AGENT: (silence: {t.agent_text!r})") for t in silent
    ]
    replies = [t for t in view.turns if t.agent_text is not None]
    ended_on_it = replies[-1] is silent[-1]
    turns = ", ".join(str(t.turn) for t in silent)
    said = f"the agent said nothing at turn{'s' if len(silent) > 1 else ''} {turns}"
    if ended_on_it:
        outcome, why = "fail", f"{said}; the call ended on its silence"
    elif len(silent) > 1:
        outcome, why = "fail", f"{said} (silent {len(silent)} times)"
    else:
        outcome, why = "pass", f"{said} and spoke again after it"
    return [check_recorded(view, AGENT_SILENT, outcome, why, evidence)]
