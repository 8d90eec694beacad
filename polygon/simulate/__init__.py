"""Simulation: the run plan, the conversation engine, agents, callers, ASR noise, stub tools, loops."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.simulate.agents import Agent as Agent
    from polygon.simulate.agents import AgentError as AgentError
    from polygon.simulate.agents import AgentReply as AgentReply
    from polygon.simulate.agents import AgentStep as AgentStep
    from polygon.simulate.agents import Message as Message
    from polygon.simulate.agents import ToolCall as ToolCall
    from polygon.simulate.agents import ToolResult as ToolResult
    from polygon.simulate.agents.http import HttpAgent as HttpAgent
    from polygon.simulate.agents.model import profile_hash as profile_hash
    from polygon.simulate.callers.replay import ReplayCaller as ReplayCaller
    from polygon.simulate.callers.scripted import SCRIPTED_CALLER as SCRIPTED_CALLER
    from polygon.simulate.callers.scripted import ScriptedCaller as ScriptedCaller
    from polygon.simulate.engine import AGENT_ENDINGS as AGENT_ENDINGS
    from polygon.simulate.engine import MAX_TOOL_CALLS as MAX_TOOL_CALLS
    from polygon.simulate.engine import MAX_TOOL_ROUNDS as MAX_TOOL_ROUNDS
    from polygon.simulate.engine import Conversation as Conversation
    from polygon.simulate.latency import percentile as percentile
    from polygon.simulate.noise import apply_noise as apply_noise
    from polygon.simulate.noise.packs import languages as languages
    from polygon.simulate.phone import PhoneSettings as PhoneSettings
    from polygon.simulate.phone import cut_reply as cut_reply
    from polygon.simulate.phone import draw as draw
    from polygon.simulate.phone import self_correct as self_correct
    from polygon.simulate.plan import AgentPool as AgentPool
    from polygon.simulate.plan import ConversationPlan as ConversationPlan
    from polygon.simulate.plan import check_references as check_references
    from polygon.simulate.plan import iter_plans as iter_plans
    from polygon.simulate.plan import persona_snapshot as persona_snapshot
    from polygon.simulate.plan import plan_count as plan_count
    from polygon.simulate.plan import scenario_expectation as scenario_expectation
    from polygon.simulate.plan import tool_definitions as tool_definitions
    from polygon.simulate.tools import ToolBox as ToolBox

_FACE = {
    "AGENT_ENDINGS": "polygon.simulate.engine",
    "Agent": "polygon.simulate.agents",
    "AgentError": "polygon.simulate.agents",
    "AgentPool": "polygon.simulate.plan",
    "AgentReply": "polygon.simulate.agents",
    "AgentStep": "polygon.simulate.agents",
    "Conversation": "polygon.simulate.engine",
    "ConversationPlan": "polygon.simulate.plan",
    "HttpAgent": "polygon.simulate.agents.http",
    "MAX_TOOL_CALLS": "polygon.simulate.engine",
    "MAX_TOOL_ROUNDS": "polygon.simulate.engine",
    "Message": "polygon.simulate.agents",
    "PhoneSettings": "polygon.simulate.phone",
    "ReplayCaller": "polygon.simulate.callers.replay",
    "SCRIPTED_CALLER": "polygon.simulate.callers.scripted",
    "ScriptedCaller": "polygon.simulate.callers.scripted",
    "ToolBox": "polygon.simulate.tools",
    "ToolCall": "polygon.simulate.agents",
    "ToolResult": "polygon.simulate.agents",
    "apply_noise": "polygon.simulate.noise",
    "check_references": "polygon.simulate.plan",
    "cut_reply": "polygon.simulate.phone",
    "draw": "polygon.simulate.phone",
    "iter_plans": "polygon.simulate.plan",
    "languages": "polygon.simulate.noise.packs",
    "percentile": "polygon.simulate.latency",
    "persona_snapshot": "polygon.simulate.plan",
    "plan_count": "polygon.simulate.plan",
    "profile_hash": "polygon.simulate.agents.model",
    "scenario_expectation": "polygon.simulate.plan",
    "self_correct": "polygon.simulate.phone",
    "tool_definitions": "polygon.simulate.plan",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
