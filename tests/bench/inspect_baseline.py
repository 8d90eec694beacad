"""Issue 31's baseline: the workload of ``tests/bench/pipeline.py`` run through Inspect AI.

300 calls × 10 exchanges, each side in its own process (``python -m
tests.bench.inspect_baseline polygon|inspect CALLS TURNS`` prints one JSON line), repeats
interleaved; ``make bench`` shows throughput and peak memory as ratios to Inspect AI's.

What each side does, per call:

- **Polygon** (``pipeline.measure``): ``run_suite`` plans the call, plays the scripted caller
  (with its persona and seed) against the trivial Python agent, applies ASR noise to each
  caller turn, writes every turn, noise operation and the call's start and end to the
  durable LMDB log (group commit), then scores it (12 checks and the heuristic judge under
  rubric v1) and answers the 6 library probes with the offline detectors, writing those
  events too. The suite names no tools, so no stub is called.
- **Inspect AI** (``inspect_side``): ``inspect_ai.eval`` runs one ``Task`` of one ``Sample``
  per call (the same plans: persona, seed, noise), ``max_samples`` 32 like Polygon's
  concurrency 32. A solver plays the *same* ``ScriptedCaller`` and ``apply_noise`` for up to
  10 exchanges, appending each heard caller turn (the clean text, intent and noise
  operations as message metadata) and calling ``generate``; the model is a custom
  ``ModelAPI`` that answers what the trivial agent answers. Inspect orchestrates the
  samples and writes its own eval log (``.eval``, the default format) to disk. The scorer
  rebuilds Polygon's conversation view from the messages and runs the *same* checks,
  heuristic judge and 6 probe detectors, so scoring work is equal on both sides; the
  results go into the ``Score`` (value: the judge's mean criterion score; the rest as
  metadata), which Inspect logs.

Not like-for-like, and which way it leans:

- Inspect's model is a ``ModelAPI`` returning a ``ModelOutput`` with usage filled in
  (no ``ModelCall`` record, no token counting): cheaper than ``mockllm/model``, which dumps
  every request; this favours Inspect.
- Inspect's solver has no loop check and no phone effects (the suite has none, and the
  trivial agent never repeats itself). This favours Inspect, a little.
- Durability: Polygon fsyncs each exchange into the LMDB log (``sync=True``); Inspect puts
  each event into its realtime sample buffer (SQLite in WAL mode with ``synchronous=OFF``,
  in its data directory) and each finished sample into the ``.eval`` file. This favours
  Inspect.
- Polygon's log holds more records (one event per turn, noise, check and probe, with
  identities and hashes); Inspect's holds messages, model events and one score per call.
- Each side first runs one call (lazy imports, Inspect's first-eval set-up), then the timed
  run. Throughput is that run alone, in-process (``run_suite`` / ``eval``), wall and CPU
  (all threads, and the processes it waited for: Polygon's scoring process, which scores
  beside the simulation on a machine with a second core); memory is the whole side's
  process (imports included), peak RSS (``VmHWM``) plus the most its own children held
  privately (the scoring process is forked: what it shares with the run is counted once),
  and the peak of the anonymous part, polled from /proc as ``scale.polygon`` does.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from polygon.events import ConversationEnded, ConversationStarted, NoiseOp
from polygon.recording import ListSink
from polygon.simulate.agents import AgentStep
from polygon.simulate.callers.scripted import ScriptedCaller
from polygon.simulate.noise import apply_noise
from polygon.simulate.plan import ConversationPlan, plan_run
from polygon.transcript import ConversationView
from tests.bench.pipeline import Trivial, suite
from tests.bench.scale import Peaks

if TYPE_CHECKING:
    from inspect_ai import Task

    from tests.bench.run import Figure

CALLS = 300
TURNS = 10
CONCURRENCY = 32


@dataclass(frozen=True)
class Side:
    """One side's run in its own process."""

    calls: int
    exchanges: int
    wall_s: float
    """The run alone (no start-up, no imports)."""
    cpu_s: float
    """CPU seconds of the run, all threads (the wall of a shared machine is noisy)."""
    rss_mb: float
    anon_mb: float

    @property
    def calls_per_s(self) -> float:
        return self.calls / self.wall_s


# ---------------------------------------------------------------------------- the child process


def cpu_s() -> float:
    """CPU seconds of this process and of the children it has waited for (a run's scoring process)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def polygon_side(calls: int, turns: int) -> dict[str, float]:
    from tests.bench.pipeline import measure

    measure(conversations=1, turns=turns)  # warm: lazy imports load outside the timing, as for Inspect
    cpu = cpu_s()
    got = measure(conversations=calls, turns=turns)
    cpu = cpu_s() - cpu  # includes counting the exchanges back from the log, and the scoring process
    return {"calls": got.calls, "exchanges": got.exchanges, "wall_s": got.whole_s, "cpu_s": cpu}


def inspect_side(calls: int, turns: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        evaluate(1, turns, Path(tmp) / "warm")  # Inspect imports much of itself inside its first eval
        _EXCHANGES[0] = 0
        t0, cpu = time.perf_counter(), cpu_s()
        evaluate(calls, turns, Path(tmp) / "run")
        wall, cpu = time.perf_counter() - t0, cpu_s() - cpu
    return {"calls": calls, "exchanges": _EXCHANGES[0], "wall_s": wall, "cpu_s": cpu}


def evaluate(calls: int, turns: int, log_dir: Path) -> Any:
    """Inspect AI's eval of the workload, its log in ``log_dir``; the ``EvalLog`` it returns."""
    from inspect_ai import eval as inspect_eval

    plans = {p.conversation_id: p for p in plan_run(suite(calls, turns), "inspect", 1, ("t",))}
    (log,) = inspect_eval(
        _task(plans),
        model=_model(),
        log_dir=str(log_dir),
        display="none",
        max_samples=CONCURRENCY,
        score_display=False,
    )
    if log.status != "success":
        raise RuntimeError(f"Inspect AI's eval ended {log.status}: {log.error}")
    return log


_AGENT = Trivial()
_EXCHANGES = [0]
"""Agent replies the solvers got, counted as they happen (the returned log is not re-read)."""


@functools.cache  # registered and made once per process
def _model() -> Any:
    from inspect_ai.model import GenerateConfig, ModelAPI, ModelOutput, ModelUsage, get_model, modelapi

    @modelapi(name="polygon_trivial")
    class TrivialAPI(ModelAPI):
        """The trivial agent of ``pipeline.py`` as an Inspect model: its reply, no network."""

        async def generate(self, input: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
            turn = sum(1 for m in input if m.role == "user")
            step = AgentStep(conversation_id="", turn=turn, heard=input[-1].text, history=[])
            reply = _AGENT.step(step).reply
            out = ModelOutput.from_content(model="trivial", content=reply)
            out.usage = ModelUsage(input_tokens=turn, output_tokens=len(reply.split()), total_tokens=turn)
            return out

    return get_model("polygon_trivial/agent", config=GenerateConfig(max_connections=CONCURRENCY))


def _task(plans: dict[str, ConversationPlan]) -> Task:
    from inspect_ai import Task
    from inspect_ai.dataset import Sample

    samples = [Sample(id=cid, input=p.persona.goal if p.persona else "") for cid, p in plans.items()]
    return Task(dataset=samples, solver=_call_solver(plans), scorer=_polygon_scorer(plans))


def _call_solver(plans: dict[str, ConversationPlan]) -> Any:
    from inspect_ai.model import ChatMessageUser
    from inspect_ai.solver import Generate, TaskState, solver

    @solver
    def call() -> Any:
        async def solve(state: TaskState, generate: Generate) -> TaskState:
            plan = plans[str(state.sample_id)]
            assert plan.persona is not None
            caller = ScriptedCaller(plan.persona, plan.seed)
            state.messages = []
            agent_said: str | None = None
            state.metadata["ended"] = "max_turns"
            for turn in range(1, plan.max_turns + 1):
                said = caller.next(agent_said)
                meta: dict[str, Any] = {"said": said.text, "intent": said.intent, "ends": said.ends_call}
                if said.ends_call:  # the engine writes the goodbye and asks the agent nothing
                    state.messages.append(ChatMessageUser(content=said.text, metadata=meta))
                    state.metadata["ended"] = "hangup" if said.ends_call == "hangup" else "caller_done"
                    break
                heard, ops, _ = _hear(plan, turn, said.text)
                meta["ops"] = msgspec.to_builtins(ops)
                state.messages.append(ChatMessageUser(content=heard, metadata=meta))
                state = await generate(state)
                agent_said = state.output.completion
                _EXCHANGES[0] += 1
            return state

        return solve

    return call()


def _hear(plan: ConversationPlan, turn: int, text: str) -> tuple[str, list[NoiseOp], int]:
    return apply_noise(
        text,
        intensity=plan.noise_intensity,
        language=plan.noise_language,
        run_seed=plan.run_seed,
        conversation=plan.noise_key,
        turn=turn,
    )


def _polygon_scorer(plans: dict[str, ConversationPlan]) -> Any:
    from inspect_ai.scorer import Score, Target, mean, scorer
    from inspect_ai.solver import TaskState

    from polygon.events import CheckRecorded, JudgeScored
    from polygon.probe import answered, detect, probes_from
    from polygon.probe.library import DETECTOR
    from polygon.score import JudgeContext, JudgeSettings, load_rubric, score_conversation
    from polygon.score.conversation import make_judge

    settings = JudgeSettings(rubric=load_rubric("v1"), judge=make_judge("scripted/heuristic"))
    probes = probes_from([])

    @scorer(metrics=[mean()])
    def polygon_checks() -> Any:
        async def score(state: TaskState, target: Target) -> Score:
            view = _view(plans[str(state.sample_id)], state)
            sink = ListSink()
            await score_conversation(view, settings, [], sink, JudgeContext(prompt="", tools=[]))
            answers = [answered(p, view, detect(p, view), DETECTOR) for p in probes]
            judged = next(e for _, e, _, _ in sink.events if isinstance(e, JudgeScored))
            points = [c.score for c in judged.scores.values() if c.score is not None]
            return Score(
                value=sum(points) / max(len(points), 1),
                metadata={
                    "checks": {
                        e.check: e.outcome for _, e, _, _ in sink.events if isinstance(e, CheckRecorded)
                    },
                    "probes": {a.probe_id: a.answer for a in answers},
                },
            )

        return score

    return polygon_checks()


def _view(plan: ConversationPlan, state: Any) -> ConversationView:
    """Polygon's view of one call, rebuilt from Inspect's messages (what the scorer reads)."""
    view = ConversationView(conversation_id=plan.conversation_id, started=_started(plan))
    turn = 0
    for m in state.messages:
        if m.role == "user":
            turn += 1
            t, meta = view.turn(turn), m.metadata or {}
            t.caller_text, t.caller_intent, t.caller_ends = meta["said"], meta["intent"], meta["ends"]
            if not meta["ends"]:
                t.heard_text, t.noise_ops = m.text, msgspec.convert(meta["ops"], list[NoiseOp])
        elif m.role == "assistant":
            view.turn(turn).agent_text = m.text
    reason = state.metadata["ended"]
    by = "engine" if reason == "max_turns" else "caller"
    view.ended = ConversationEnded(conversation_id=plan.conversation_id, reason=reason, by=by, turns=turn)
    return view


def _started(p: ConversationPlan) -> ConversationStarted:
    return ConversationStarted(
        run_id=p.run_id,
        conversation_id=p.conversation_id,
        config=p.config,
        scenario=p.scenario,
        trial=p.trial,
        seed=p.seed,
        persona=p.persona,
        caller_model=p.caller_model,
        agent=p.agent_ref,
        noise_intensity=p.noise_intensity,
        max_turns=p.max_turns,
    )


# ---------------------------------------------------------------------------- the parent


def installed() -> bool:
    """Whether inspect-ai can be imported here (the ``bench`` extra)."""
    from importlib.util import find_spec

    return find_spec("inspect_ai") is not None


def run_side(side: str, calls: int = CALLS, turns: int = TURNS) -> Side:
    """One side in a fresh process: its own figures, and its peak memory polled from /proc."""
    cmd = [sys.executable, "-m", "tests.bench.inspect_baseline", side, str(calls), str(turns)]
    peaks = Peaks()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=Path(__file__).resolve().parents[2])
        while True:
            pid, status, _ = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peaks.poll(proc.pid)
            time.sleep(0.005)
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"{side} side failed: {err.read().decode(errors='replace')[-2000:]}")
        got = json.loads(out.read().decode().strip().splitlines()[-1])
    return Side(
        int(got["calls"]),
        int(got["exchanges"]),
        float(got["wall_s"]),
        float(got["cpu_s"]),
        peaks.rss_kb / 1024,
        peaks.anon / 1024,
    )


def interleaved_sides(repeats: int, calls: int = CALLS, turns: int = TURNS) -> dict[str, list[Side]]:
    """Both sides ``repeats`` times, alternating (P I, P I, ...)."""
    out: dict[str, list[Side]] = {"polygon": [], "inspect": []}
    for _ in range(repeats):
        for side in out:
            out[side].append(run_side(side, calls, turns))
    return out


def figures(repeats: int, calls: int = CALLS, turns: int = TURNS) -> list[Figure]:
    """Issue 31's two goals, each beside the absolute numbers it is a ratio of."""
    from tests.bench.run import Figure, ratios

    got = interleaved_sides(repeats, calls, turns)
    ours, theirs = got["polygon"], got["inspect"]
    for side in (*ours, *theirs):  # the same work on both sides, or the ratio means nothing
        assert side.exchanges == ours[0].exchanges, (side, ours[0])
    rate = [s.calls_per_s for s in ours], [s.calls_per_s for s in theirs]
    per_cpu = [s.calls / s.cpu_s for s in ours], [s.calls / s.cpu_s for s in theirs]
    rss = [s.rss_mb for s in ours], [s.rss_mb for s in theirs]
    heap = [s.anon_mb for s in ours], [s.anon_mb for s in theirs]
    what = f"{calls} × {turns}"  # calls × exchanges
    return [
        Figure(f"throughput ÷ Inspect AI's, {what} (wall)", ratios(*rate), "×", 30),
        Figure("  Polygon", rate[0], "calls/s", 0),
        Figure("  Inspect AI", rate[1], "calls/s", 0),
        Figure("  calls per CPU second ÷ Inspect AI's", ratios(*per_cpu), "×", 0),
        Figure("  Polygon CPU per 100 calls", [100 / r for r in per_cpu[0]], "s", 0),
        Figure("  Inspect AI CPU per 100 calls", [100 / r for r in per_cpu[1]], "s", 0),
        Figure(f"memory ÷ Inspect AI's, {what} (peak RSS)", ratios(*rss), "×", 0.5, higher_is_better=False),
        Figure("  Polygon", rss[0], "MB", 0),
        Figure("  Inspect AI", rss[1], "MB", 0),
        Figure("  heap (anonymous RSS) ÷ Inspect AI's", ratios(*heap), "×", 0),
    ]


def main() -> None:
    side, calls, turns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    got = polygon_side(calls, turns) if side == "polygon" else inspect_side(calls, turns)
    print(json.dumps(got), flush=True)


if __name__ == "__main__":
    main()
