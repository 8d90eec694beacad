"""The replay caller: a logged call's caller turns, as the agent heard them."""

from __future__ import annotations

from polygon.simulate.callers import Utterance
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.transcript import ConversationView


class ReplayCaller:
    """Says the source call's caller turns as heard; can hand over to the scripted caller."""

    def __init__(self, source: ConversationView, takeover: ScriptedCaller | None) -> None:
        self._lines = [
            t.heard_text if t.heard_text is not None else t.caller_text for t in source.turns if t.caller_text
        ]
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
        return Utterance(self._lines[self._turn - 1], "replayed")
