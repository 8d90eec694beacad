"""A one-question outage line: it looks the outage up and tells the caller when power returns.

``params.bug: invents`` states a restore time of its own instead of the one the tool gave
(trial39, defect 1): the caller cannot tell, so only ``agent_contradicts_tools`` can.
"""

from __future__ import annotations

from typing import Any

from polygon import AgentReply, AgentStep, ToolCall


class OutageLine:
    """Looks the outage up on the caller's first words, answers, then says goodbye."""

    def __init__(self, prompt: str = "", params: dict[str, Any] | None = None) -> None:
        self.invents = (params or {}).get("bug") == "invents"
        self.answered = False

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results:
            back = "13:00" if self.invents else str(req.tool_results[0].result.get("back", "?"))
            self.answered = True
            return AgentReply(
                reply=f"Grid line, this is Ana. There is a fault in your area; power is back at {back}."
            )
        if self.answered:
            return AgentReply(reply="Goodbye!", end="hangup")
        return AgentReply(tool_calls=[ToolCall(id="c1", name="outage_status", arguments={})])


def make(prompt: str = "", params: dict[str, Any] | None = None) -> OutageLine:
    return OutageLine(prompt, params)
