"""Small conversation views built from events by hand, shared by the probe and divergence tests."""

from __future__ import annotations

from polygon.events import Envelope
from polygon.events.families import (
    ConversationEnded,
    ConversationStarted,
    NoiseApplied,
    NoiseOp,
    PersonaSnapshot,
    ToolCalled,
    TurnSpoken,
)
from polygon.transcript import ConversationView, build


def env(seq: int, payload: object) -> Envelope:
    return Envelope(
        seq=seq,
        stream="conv/x",
        stream_version=seq,
        identity="0" * 32,
        tag="t",
        schema_version=1,
        recorded_at="",
        content_hash="",
        payload=payload,
    )  # type: ignore[arg-type]


PERSONA = PersonaSnapshot(
    persona_id="p",
    type="busy",
    outcome="success",
    difficulty=2,
    goal="g",
    facts={"phone": "091 555 0134", "day": "Tuesday"},
)


def conv(
    cid: str,
    lines: list[tuple],
    noise: dict[int, list[NoiseOp]] | None = None,
    persona: PersonaSnapshot = PERSONA,
) -> ConversationView:
    events = [
        env(
            1,
            ConversationStarted(
                run_id="r", conversation_id=cid, config="c", scenario="s", trial=0, seed=1, persona=persona
            ),
        )
    ]
    for turn, speaker, text, *rest in lines:
        extra = rest[0] if rest else {}
        for i, (tool, args) in enumerate(extra.get("tools", [])):
            events.append(
                env(
                    len(events) + 1,
                    ToolCalled(
                        conversation_id=cid,
                        turn=turn,
                        index=i,
                        call_id="c",
                        tool=tool,
                        arguments=args,
                        valid=True,
                    ),
                )
            )
        events.append(
            env(
                len(events) + 1,
                TurnSpoken(
                    conversation_id=cid,
                    turn=turn,
                    speaker=speaker,
                    text=text,
                    intent=extra.get("intent", ""),
                    ends_call=extra.get("end", ""),
                ),
            )
        )
        if speaker == "caller" and noise and turn in noise:
            events.append(
                env(
                    len(events) + 1,
                    NoiseApplied(
                        conversation_id=cid,
                        turn=turn,
                        intensity=1,
                        language="en",
                        clean_text=text,
                        heard_text=text,
                        ops=noise[turn],
                        rng_seed=1,
                    ),
                )
            )
    return build(cid, events)


BASE = [
    (1, "caller", "I want to book a cleaning on Tuesday"),
    (1, "agent", "Sure, what is your phone number please?"),
    (2, "caller", "It is 091 555 0134"),
    (2, "agent", "Thanks, let me check the calendar for you"),
]




def exchange(
    language: str, turns: list[tuple[str, str]], *, ended: str = "caller_done", goal: str = "pay a bill"
) -> ConversationView:
    """A call in ``language``: each turn the caller says the first text, the agent the second."""
    persona = PersonaSnapshot(
        persona_id="p", type="cooperative", outcome="success", difficulty=1, goal=goal,
        facts={"name": "Sue Blake"}, language=language,
    )  # fmt: skip
    events: list[object] = [
        ConversationStarted(
            run_id="r", conversation_id="x", config="c", scenario="s", trial=0, seed=1, persona=persona
        )
    ]
    for n, (caller, agent) in enumerate(turns, 1):
        events.append(TurnSpoken(conversation_id="x", turn=n, speaker="caller", text=caller))
        events.append(TurnSpoken(conversation_id="x", turn=n, speaker="agent", text=agent))
    events.append(ConversationEnded(conversation_id="x", reason=ended, by="caller", turns=len(turns)))
    return build("x", [env(n, e) for n, e in enumerate(events, 1)])


def agent_says(*agent: str) -> ConversationView:
    """A call whose agent says each of ``agent``, one turn each (the caller says "...")."""
    lines: list[tuple[int, str, str]] = []
    for i, text in enumerate(agent, start=1):
        lines += [(i, "caller", "..."), (i, "agent", text)]
    return conv("x", lines)
