"""Compatibility path: agents written against earlier READMEs import from ``polygon.agents``.

New code imports the same names from ``polygon`` (see ``polygon.__all__``).
"""

from polygon.simulate import Agent, AgentError, AgentReply, AgentStep, Message, ToolCall, ToolResult

__all__ = ["Agent", "AgentError", "AgentReply", "AgentStep", "Message", "ToolCall", "ToolResult"]
