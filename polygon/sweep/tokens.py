"""Tokens a point's calls use, and what a point not yet run will use.

Model agents: the usage their server reported (``model.called``, role ``agent``). Agents that
report none (Python and HTTP agents, the scripted references) are counted by a stated rule,
so the token limit works, and is tested, offline:

    RULE: every agent turn reads the prompt and the whole call so far and writes its reply,
    at 4 characters a token (rounded up, each part apart).

Before a point runs, its tokens are estimated from the points already run (their tokens
per call, moved by the difference in prompt length at their turns per call), or, for the
first point, from the prompt's length and the turns a call may take (``max_turns``) with
``max_tokens`` (default 150) written per turn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from polygon.events import Envelope, ModelCalled, TurnSpoken

CHARS_PER_TOKEN = 4
DEFAULT_REPLY_TOKENS = 150
RULE = "4 characters a token: at each agent turn the prompt, the call so far and the reply"


def tokens_of(text_chars: int) -> int:
    """Tokens of a text of ``text_chars`` characters under the rule."""
    return math.ceil(text_chars / CHARS_PER_TOKEN)


@dataclass
class Usage:
    """What a run's calls used."""

    tokens: int = 0
    calls: int = 0
    agent_turns: int = 0
    prompt_tokens: int = 0
    """The prompt's tokens under the rule (to move an estimate to another prompt)."""


def run_usage(prompt: str, conversations: Iterable[Iterable[Envelope]]) -> Usage:
    """Tokens of a run's calls: reported usage where any was recorded, else the rule."""
    usage = Usage(prompt_tokens=tokens_of(len(prompt)))
    for stream in conversations:
        usage.calls += 1
        reported, ruled, context = 0, 0, 0
        for env in stream:
            p = env.payload
            if isinstance(p, ModelCalled) and p.role == "agent":
                reported += int(p.usage.get("total_tokens", 0) or 0)
            elif isinstance(p, TurnSpoken):
                if p.speaker == "agent":
                    usage.agent_turns += 1
                    ruled += usage.prompt_tokens + tokens_of(context) + tokens_of(len(p.text))
                context += len(p.text)
        usage.tokens += reported or ruled
    return usage


def estimate(
    earlier: list[Usage], prompt: str, calls: int, max_turns: int, max_tokens: int | None
) -> tuple[int, str]:
    """Tokens a point of ``calls`` calls will use, and the basis of the estimate."""
    prompt_tokens = tokens_of(len(prompt))
    ran = [u for u in earlier if u.calls]
    if ran:
        total_calls = sum(u.calls for u in ran)
        per_call = sum(u.tokens for u in ran) / total_calls
        turns = sum(u.agent_turns for u in ran) / total_calls
        shift = (prompt_tokens - sum(u.prompt_tokens * u.calls for u in ran) / total_calls) * turns
        tokens = max(0, round((per_call + shift) * calls))
        return (
            tokens,
            f"{len(ran)} earlier point(s): {per_call:.0f} tokens a call, prompt {prompt_tokens:+d} tokens",
        )
    reply = max_tokens or DEFAULT_REPLY_TOKENS
    tokens = calls * max_turns * (prompt_tokens + reply)
    return (
        tokens,
        f"first point: {calls} calls × {max_turns} turns × ({prompt_tokens} prompt + {reply} reply tokens)",
    )
