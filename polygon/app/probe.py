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
from polygon.models.recorded import RecordedClient
from polygon.probe.answering import ProbeAnswerer, answered, parse_answer, probe_request
from polygon.probe.library import DETECTOR, ProbeSpec, detect, probes_from
from polygon.recording import Sink
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
    if answerer.client is None:
        return answered(probe, view, detect(probe, view), answerer.name)
    request = probe_request(probe, view, answerer.name)
    client = RecordedClient(answerer.client, sink, role="probe", model=answerer.name)
    reply = await client.complete(
        request, key=_key(probe, answerer), conversation_id=view.conversation_id
    )
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
    started = run_started(log, run_id)
    probes = probes_from([*started.probes, *extra])
    new = already = 0

    async def visit(conversation: Visit) -> None:
        nonlocal new, already
        have = {
            (e.payload.probe_id, e.payload.probe_hash, e.payload.answered_by)
            for e in conversation.events
            if isinstance(e.payload, ProbeAnswered)
        }
        for probe in probes:
            if (probe.id, probe.wording_hash, answerer.name) in have:
                already += 1
                continue
            answer = await _answer(probe, conversation.view, answerer, conversation.sink)
            conversation.sink.emit(keyed(PROBE, _key(probe, answerer)), answer)
            new += 1

    await each_conversation(
        log, run_id, visit, now=now, progress=progress, abort=abort, concurrency=concurrency
    )
    return ProbeSummary(new, already, len(probes))


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
) -> ProbeSummary:
    """``polygon probe``: the detectors, or a model through the hub, in one event loop."""

    async def go() -> ProbeSummary:
        try:
            answerer = (
                DETECTORS_ONLY
                if answerer_model == DETECTOR
                else ProbeAnswerer(name=answerer_model, client=hub.client(answerer_model))
            )
            return await probe_run(
                log,
                run_id,
                extra=extra,
                answerer=answerer,
                now=now,
                progress=progress,
                abort=hub.unreachable,
                concurrency=concurrency,
            )
        finally:
            await hub.aclose()

    return asyncio.run(go())
