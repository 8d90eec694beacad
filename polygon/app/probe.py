"""The probe pass: every probe over every conversation of a run, in its own pass.

Probe answers are separate events; nothing here reads or writes a judge score, so probes
cannot move a composite or a verdict.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from polygon.app.passes import Visit, each_conversation, run_started
from polygon.app.progress import Progress, no_progress
from polygon.boundary import read_yaml
from polygon.errors import SuiteError
from polygon.events import EventLog
from polygon.events.families import ProbeAnswered
from polygon.events.streams import PROBE, keyed
from polygon.models.hub import ModelHub
from polygon.probe.answering import ProbeAnswerer, answered, answerer_for, parse_answer, probe_request
from polygon.probe.library import detect, probes_from
from polygon.recording import Sink
from polygon.suite.schema import ProbeSpec
from polygon.transcript import ConversationView


def load_probes(path: Path) -> list[dict[str, object]]:
    """A YAML list of probe specs (``id``, ``question``, ``polarity``, ``detector``/``keywords``)."""
    data = read_yaml(path, "probes")
    if not isinstance(data, list):
        raise SuiteError(f"{path}: expected a list of probes")
    for i, item in enumerate(data):
        try:
            ProbeSpec.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise SuiteError(f"{path}: {i}.{'.'.join(map(str, err['loc']))}: {err['msg']}") from None
    return data


DETECTORS_ONLY = ProbeAnswerer()


@dataclass(frozen=True)
class ProbeSummary:
    """What a probe pass did."""

    answered: int
    already: int
    probes: int


async def _answer(
    probe: ProbeSpec, view: ConversationView, answerer: ProbeAnswerer, sink: Sink
) -> ProbeAnswered:
    if answerer.recorder is None:
        return answered(probe, view, detect(probe, view), answerer.name)
    request = probe_request(probe, view, answerer.name)
    client = answerer.recorder.to(sink, view.conversation_id)
    reply = await client.complete(request, key=_key(probe, answerer))
    return answered(probe, view, parse_answer(reply.text), answerer.name)


def _key(probe: ProbeSpec, answerer: ProbeAnswerer) -> str:
    return f"{probe.id}:{probe.wording_hash}:{answerer.name}"


async def probe_run(
    log: EventLog,
    run_id: str,
    *,
    extra: Sequence[dict[str, object]] = (),
    answerer: ProbeAnswerer = DETECTORS_ONLY,
    now: Callable[[], str],
    progress: Progress = no_progress,
    abort: Callable[[], str] = lambda: "",
    concurrency: int = 1,
) -> ProbeSummary:
    """Answer every probe (library + the suite's + ``extra``) for every conversation of the run."""
    probing = Probing.start(log, run_id, answerer, extra)
    await each_conversation(
        log, run_id, probing.visit, now=now, progress=progress, abort=abort, concurrency=concurrency
    )
    return probing.summary()


@dataclass
class Probing:
    """A probe pass as a visitor: ``polygon run`` reads each call once for it and scoring."""

    probes: list[ProbeSpec]
    answerer: ProbeAnswerer
    new: int = 0
    already: int = 0

    @classmethod
    def start(
        cls, log: EventLog, run_id: str, answerer: ProbeAnswerer, extra: Sequence[dict[str, object]] = ()
    ) -> Probing:
        """The run's probes (library + the suite's + ``extra``)."""
        started = run_started(log, run_id)
        return cls(probes_from([*started.probes, *extra]), answerer)

    async def visit(self, conversation: Visit) -> None:
        """Answer each probe this call has no answer to from this answerer."""
        have = {
            (e.payload.probe_id, e.payload.probe_hash, e.payload.answered_by)
            for e in conversation.events
            if isinstance(e.payload, ProbeAnswered)
        }
        for probe in self.probes:
            if (probe.id, probe.wording_hash, self.answerer.name) in have:
                self.already += 1
                continue
            answer = await _answer(probe, conversation.view, self.answerer, conversation.sink)
            conversation.sink.emit(keyed(PROBE, _key(probe, self.answerer)), answer)
            self.new += 1

    def summary(self) -> ProbeSummary:
        """What the pass did."""
        return ProbeSummary(self.new, self.already, len(self.probes))


def _probe_on_ray(
    log: EventLog,
    run_id: str,
    extra: Sequence[dict[str, object]],
    answerer_model: str,
    hub: ModelHub,
    now: Callable[[], str],
    progress: Progress,
    concurrency: int,
    ray_address: str,
) -> ProbeSummary:
    from polygon.app.remote import PassRecipe, keyless, visit_on_ray

    answerer_for(answerer_model, hub)  # an unknown provider is refused before any task starts
    started = run_started(log, run_id)
    recipe = PassRecipe(
        started=started, settings=keyless(hub.settings), probe_model=answerer_model, extra_probes=tuple(extra)
    )
    result = visit_on_ray(
        log, recipe, hub, ray_address=ray_address, window=concurrency, now=now, progress=progress
    )
    return ProbeSummary(result.probed, result.probed_before, len(probes_from([*started.probes, *extra])))


def probe_with(
    log: EventLog,
    run_id: str,
    *,
    extra: Sequence[dict[str, object]],
    answerer_model: str,
    hub: ModelHub,
    now: Callable[[], str],
    progress: Progress = no_progress,
    concurrency: int = 8,
    executor: str = "local",
    ray_address: str = "",
) -> ProbeSummary:
    """``polygon probe``: the detectors, or a model through the hub, in one event loop."""
    if executor == "ray":
        return _probe_on_ray(log, run_id, extra, answerer_model, hub, now, progress, concurrency, ray_address)

    async def go() -> ProbeSummary:
        try:
            return await probe_run(
                log,
                run_id,
                extra=extra,
                answerer=answerer_for(answerer_model, hub),
                now=now,
                progress=progress,
                abort=hub.unreachable,
                concurrency=concurrency,
            )
        finally:
            await hub.aclose()

    return asyncio.run(go())
