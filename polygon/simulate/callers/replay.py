"""The replay caller: a logged call's caller turns, as the agent heard them."""

from __future__ import annotations

from polygon.simulate.callers import Utterance
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.transcript import ConversationView, TurnView


class ReplayCaller:
    """Says the source call's caller turns as heard; can hand over to the scripted caller.

    A line that ended the source call (the caller's goodbye or hang-up) ends the new one
    too: otherwise the agent answers a goodbye the original never heard, and an identical
    agent's call ends another way than the original's did.
    """

    def __init__(self, source: ConversationView, takeover: ScriptedCaller | None) -> None:
        spoken = [t for t in source.turns if t.caller_text]
        self._lines = [t.heard_text if t.heard_text is not None else t.caller_text for t in spoken]
        self._ends = [_ends(source, t) for t in spoken]
        self._turn = 0
        self._takeover = takeover
        self.live = False

    def hand_over(self) -> None:
        """From now on the scripted caller speaks."""
        self.live = self._takeover is not None

    def next(self, agent_text: str | None) -> Utterance:
        """The next recorded line, or the scripted caller's answer once handed over."""
        self._turn += 1
        if self.live and self._takeover is not None:
            return self._takeover.next(agent_text)
        if self._turn > len(self._lines):
            return Utterance("(the recorded call ends here)", "replay_end", ends_call="done")
        return Utterance(self._lines[self._turn - 1], "replayed", ends_call=self._ends[self._turn - 1])


def _ends(source: ConversationView, turn: TurnView) -> str:
    """How this caller line ended the source call (``hangup``, ``done``), or "" when it did not."""
    if turn.caller_ends:
        return turn.caller_ends
    ended = source.ended
    if ended is not None and ended.by == "caller" and ended.turns == turn.turn and turn.agent_text is None:
        return "hangup" if ended.reason == "hangup" else "done"
    return ""
