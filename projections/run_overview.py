"""The run overview: per configuration, how the calls went (a pure fold over the run's streams)."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from polygon.events import ConversationEnded, ConversationStarted, Envelope, ToolCalled

VERSION = 1


class ConfigOverview(msgspec.Struct, kw_only=True):
    """Counts for one configuration."""

    config: str
    conversations: int = 0
    turns: int = 0
    end_reasons: dict[str, int] = msgspec.field(default_factory=dict)
    tool_calls: int = 0
    invalid_tool_calls: int = 0
    tool_faults: int = 0
    loops: list[str] = msgspec.field(default_factory=list)


class RunOverview(msgspec.Struct, kw_only=True):
    """Every configuration of a run."""

    run_id: str
    configs: dict[str, ConfigOverview] = msgspec.field(default_factory=dict)
    _config_of: dict[str, str] = msgspec.field(default_factory=dict)


def apply(state: RunOverview, env: Envelope) -> RunOverview:
    """Fold one conversation event."""
    p = env.payload
    if isinstance(p, ConversationStarted):
        state._config_of[p.conversation_id] = p.config
        cfg = state.configs.setdefault(p.config, ConfigOverview(config=p.config))
        cfg.conversations += 1
    elif isinstance(p, ToolCalled):
        cfg = state.configs[state._config_of[p.conversation_id]]
        cfg.tool_calls += 1
        cfg.invalid_tool_calls += not p.valid
        cfg.tool_faults += bool(p.fault)
    elif isinstance(p, ConversationEnded):
        cfg = state.configs[state._config_of[p.conversation_id]]
        cfg.turns += p.turns
        cfg.end_reasons[p.reason] = cfg.end_reasons.get(p.reason, 0) + 1
        if p.loop_detected:
            cfg.loops.append(p.conversation_id)
    return state


def build_overview(run_id: str, events: Iterable[Envelope]) -> RunOverview:
    """Fold the events of a run's conversations (in any stream order)."""
    state = RunOverview(run_id=run_id)
    for env in events:
        state = apply(state, env)
    for cfg in state.configs.values():
        cfg.end_reasons = dict(sorted(cfg.end_reasons.items()))
        cfg.loops.sort()
    state.configs = dict(sorted(state.configs.items()))
    return state
