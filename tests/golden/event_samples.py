"""One sample of every event type, and the writer of the golden encoded files.

Run ``python -m tests.golden.event_samples`` after adding an event type or bumping a schema
version: it writes the missing ``events/<tag>.v<version>.msgpack`` files and never
overwrites an existing one (old samples must keep decoding forever).
"""

from __future__ import annotations

from pathlib import Path

from polygon.events import Event, canonical
from polygon.events.families import (
    CallerTurnLabelled,
    CheckRecorded,
    ConversationEnded,
    ConversationStarted,
    CriterionScore,
    Evidence,
    JudgeScored,
    LabelRecorded,
    LintMark,
    ModelCalled,
    NoiseApplied,
    NoiseOp,
    PersonaSnapshot,
    PhoneApplied,
    PointRan,
    PointRefused,
    ProbeAnswered,
    PromptLinted,
    RubricRecorded,
    RunFinished,
    RunHidden,
    RunStarted,
    SpokenBesideTools,
    SweepFinished,
    SweepPoint,
    SweepStarted,
    SweepStopped,
    ToolCalled,
    TranscriptImported,
    TurnSpoken,
)
from polygon.events.registry import REGISTRY

GOLDEN_DIR = Path(__file__).parent / "events"

PERSONA = PersonaSnapshot(
    persona_id="busy-1",
    type="busy",
    outcome="success",
    difficulty=3,
    goal="book a cleaning",
    facts={"name": "Ana Kovač", "phone": "091 555 0134"},
    language="hr",
)

SAMPLES: list[Event] = [
    RunStarted(
        run_id="r1",
        suite_name="clinic",
        suite_hash="ab" * 16,
        prompt_hashes={"v1": "cd" * 16},
        seed=7,
        configs=["v1", "v2"],
        scenarios=["s1"],
        trials=2,
        rubric_version="v1",
    ),
    RunFinished(run_id="r1", conversations=4, end_reasons={"caller_done": 3, "loop": 1}),
    ConversationStarted(
        run_id="r1",
        conversation_id="r1.v1.s1.0",
        config="v1",
        scenario="s1",
        trial=0,
        seed=99,
        persona=PERSONA,
        caller_model="scripted/caller",
        agent="python:polygon.examples.clinic.agents:v1",
        noise_intensity=0.3,
        max_turns=12,
    ),
    TurnSpoken(
        conversation_id="r1.v1.s1.0",
        turn=1,
        speaker="caller",
        text="Hi, I need a cleaning.",
        intent="state_goal",
    ),
    ConversationEnded(
        conversation_id="r1.v1.s1.0",
        reason="loop",
        by="engine",
        turns=5,
        loop_detected=True,
        detail="Could you repeat that?",
        tool_state={"calendar": "ef" * 8},
        final_state={"calendar": {"booked": ["tue-10"]}},
    ),
    NoiseApplied(
        conversation_id="r1.v1.s1.0",
        turn=1,
        intensity=0.5,
        language="en",
        clean_text="my number is 50",
        heard_text="um my is five zero",
        ops=[
            NoiseOp(kind="drop", position=1, before="number", after=""),
            NoiseOp(kind="digits", position=2, before="50", after="five zero"),
            NoiseOp(kind="filler", position=0, before="", after="um"),
        ],
        rng_seed=12345,
    ),
    SpokenBesideTools(
        conversation_id="r1.v1.s1.0",
        turn=2,
        index=0,
        text="Let me check that for you.",
    ),
    PhoneApplied(
        conversation_id="r1.v1.s1.0",
        turn=3,
        kind="barge_in",
        detail="cut in after 3 of 9 words",
        heard="Which day would",
        at_word=3,
    ),
    ToolCalled(
        conversation_id="r1.v1.s1.0",
        turn=2,
        index=0,
        call_id="c1",
        tool="calendar.book",
        arguments={"slot": "tue-10"},
        valid=True,
        result={"ok": True},
        latency_ms=120.0,
        state_hash="01" * 8,
    ),
    ModelCalled(
        role="judge",
        model="openai/gpt-4o-mini",
        request_hash="aa" * 16,
        request={"messages": [{"role": "user", "content": "score"}], "temperature": 0.0},
        response={"choices": []},
        usage={"prompt_tokens": 10},
        latency_ms=310.5,
        attempts=2,
        errors=["429 Too Many Requests"],
    ),
    CheckRecorded(
        conversation_id="r1.v1.s1.0",
        check="forbidden_phrase",
        outcome="fail",
        detail="agent said 'guaranteed'",
        evidence=[Evidence(turn=3, at=17, quote="guaranteed")],
    ),
    JudgeScored(
        conversation_id="r1.v1.s1.0",
        rubric_version="v1",
        rubric_hash="bb" * 16,
        judge="scripted/heuristic",
        repeat=0,
        heuristic=True,
        raw="{}",
        scores={
            "goal_achievement": CriterionScore(status="scored", score=4, evidence="AGENT: Booked."),
            "safety": CriterionScore(status="unscored", raw="four"),
        },
    ),
    ProbeAnswered(
        conversation_id="r1.v1.s1.0",
        probe_id="reask_after_garble",
        probe_hash="cc" * 16,
        question="Did the agent ask again after a garbled answer?",
        polarity="desired",
        answer="yes",
        evidence="turn 2",
        answered_by="scripted/detector",
        heuristic=True,
    ),
    PromptLinted(
        prompt_hash="dd" * 16,
        tier="rules",
        model="polygon-rules/1",
        language="en",
        scores={"overload": 0.2, "contradiction": 0.9},
        marks=[
            LintMark(
                axis="contradiction",
                start=10,
                end=42,
                reason="opposite rules",
                strength=0.9,
                related=(60, 80),
            )
        ],
    ),
    SweepStarted(
        sweep_id="w1",
        name="patience",
        sweep_hash="ab" * 16,
        suite_name="clinic",
        mode="oat",
        base="v1",
        points=[
            SweepPoint(index=0, values={}, profile="cd" * 16, run_id="s1"),
            SweepPoint(index=1, values={"patience": 1}, profile="ef" * 16, run_id="s2"),
        ],
        scenarios=["coop-booking"],
        trials=2,
        floor=50.0,
        token_limit=10000,
    ),
    PointRan(sweep_id="w1", index=0, run_id="s1", reused=False, tokens=1234, mean_composite=81.5),
    PointRefused(
        sweep_id="w1", index=1, estimated_tokens=20000, limit=10000, basis="earlier points: 600 tokens a call"
    ),
    SweepStopped(sweep_id="w1", after_index=0, mean_composite=41.0, floor=50.0),
    SweepFinished(sweep_id="w1", ran=1, refused=1, not_run=0),
    LabelRecorded(
        conversation_id="r1.v1.s1.0",
        verdict="fail",
        criteria={"goal_achievement": 2},
        reward=0.0,
        by="ana",
        note="booked the wrong day",
        source="labels.csv:3",
    ),
    CallerTurnLabelled(
        conversation_id="r1.v1.s1.0",
        turn=3,
        realistic=False,
        caller_type="confused",
        language="hr",
        caller_model="scripted/caller",
        by="ana",
        note="no one says that twice",
    ),
    RunHidden(run_id="r1", reason="a failed start"),
    RubricRecorded(
        run_id="r1",
        version="v2",
        rubric_hash="ee" * 16,
        weights={"goal_achievement": 25, "safety": 75},
        pass_at=75.0,
        warn_at=50.0,
        gates=["forbidden_phrase", "invalid_tool_answer"],
    ),
    TranscriptImported(
        run_id="r9",
        conversation_id="r9.calls.3",
        source_file="calls.jsonl",
        line=3,
        format="openai-chat",
        source_hash="dd" * 16,
    ),
]


def sample_for(tag: str) -> Event:
    """The sample of ``tag``."""
    for sample in SAMPLES:
        if REGISTRY.spec_for(sample).tag == tag:
            return sample
    raise KeyError(tag)


def golden_path(tag: str, version: int) -> Path:
    """Where the golden bytes of (tag, version) live."""
    return GOLDEN_DIR / f"{tag}.v{version}.msgpack"


def write_missing() -> list[Path]:
    """Write golden files that do not exist yet; return them."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    written = []
    for sample in SAMPLES:
        spec = REGISTRY.spec_for(sample)
        path = golden_path(spec.tag, spec.version)
        if not path.exists():
            path.write_bytes(canonical(sample))
            written.append(path)
    return written


if __name__ == "__main__":
    for p in write_missing():
        print("wrote", p)
