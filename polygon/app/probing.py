"""The probe pass as a visitor: every probe over each conversation of a run.

Probe answers are separate events; nothing here reads or writes a judge score, so probes
cannot move a composite or a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from polygon.app.passes import Visit, run_started
from polygon.events import PROBE, EventLog, ProbeAnswered, keyed
from polygon.probe import ProbeAnswerer, answered, detect, parse_answer, probe_request, probes_from
from polygon.recording import Sink
from polygon.suite import ProbeSpec
from polygon.transcript import ConversationView


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
        have = conversation.head.probe_answers
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
