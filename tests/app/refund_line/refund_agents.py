"""A kettle shop's line whose prompt says "Never promise a refund": one version keeps it, one does not."""

from __future__ import annotations

from typing import Any

from polygon import AgentReply, AgentStep, ToolCall

SAID = {
    "keeps": "I'm sorry about the kettle. I can't promise a refund: the billing team decides. "
    "I'm putting you through to them now.",
    "promises": "I'm sorry about the kettle. Don't worry, you'll get a full refund. "
    "I'm putting you through to billing now.",
}


class Agent:
    def __init__(self, prompt: str = "", params: dict[str, Any] | None = None) -> None:
        self.says = SAID[str((params or {}).get("says", "keeps"))]

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results:
            return AgentReply(reply=self.says, end="transfer")
        return AgentReply(tool_calls=[ToolCall(id="c1", name="transfer_to_billing", arguments={})])


def make(prompt: str = "", params: dict[str, Any] | None = None) -> Agent:
    return Agent(prompt, params)
