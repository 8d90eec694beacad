"""A transfer line that greets and hands the caller over, in the language its params name."""

from __future__ import annotations

from typing import Any

from polygon import AgentReply, AgentStep, ToolCall

SAID = {
    # the Croatian version names an English brand and says "OK": neutral words never count
    "hr": "OK, ovdje Elektra Power Line. Prebacujem vas na djelatnika, molim pričekajte.",
    "en": "Elektra outage line, this is Mary. I'm putting you through to a colleague.",
    "ru": "Хорошо, сейчас я переведу вас на оператора, пожалуйста, подождите.",
}


class Agent:
    def __init__(self, prompt: str = "", params: dict[str, Any] | None = None) -> None:
        self.says = SAID[str((params or {}).get("says", "hr"))]

    def step(self, req: AgentStep) -> AgentReply:
        if req.tool_results:
            return AgentReply(reply=self.says, end="transfer")
        return AgentReply(tool_calls=[ToolCall(id="c1", name="transfer_agent", arguments={})])


def make(prompt: str = "", params: dict[str, Any] | None = None) -> Agent:
    return Agent(prompt, params)
