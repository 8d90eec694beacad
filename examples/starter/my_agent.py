"""A tiny rule-based agent to start from: replace it with your own (or an HTTP endpoint)."""

from __future__ import annotations

import re
from typing import Any

from polygon import AgentReply, AgentStep, ToolCall


class OrderAgent:
    """Looks an order up when it hears an order number."""

    def __init__(self, prompt: str, params: dict[str, Any]) -> None:
        self.prompt = prompt

    def step(self, req: AgentStep) -> AgentReply:
        """Answer one step of the call."""
        if req.tool_results:
            r = req.tool_results[-1]
            if r.error:
                return AgentReply(reply=f"Sorry, I couldn't check that: {r.error}.")
            return AgentReply(reply=f"Your order is {next(iter(r.result.values()))}. Anything else?")
        heard = req.heard.lower()
        if "person" in heard:
            return AgentReply(reply="Transferring you now.", end="transfer")
        found = re.search(r"a-?\s?(\d{3})", heard)
        if found:
            call = ToolCall(id="c1", name="order_status", arguments={"order_id": f"A-{found.group(1)}"})
            return AgentReply(tool_calls=[call])
        return AgentReply(reply="Hello! What's your order number?")


def make_agent(prompt: str = "", params: dict[str, Any] | None = None) -> OrderAgent:
    """The factory the suite names: python:my_agent:make_agent."""
    return OrderAgent(prompt, params or {})
