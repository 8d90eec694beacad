"""The log's vocabulary: stream names, id formats and identity kinds, spelled once.

One stream per run (``run/<run>``) and one per conversation (``conv/<conversation>``). A
conversation id is ``<run>.<config>.<scenario>.<trial>``, so a run's conversations are the
streams under the prefix ``conv/<run>.`` — which is why run ids may hold neither ``.`` nor
``/``.

Identity kinds are part of every stored identity (see :func:`polygon.events.identity`):
their spellings are frozen, mixed as they are, because changing one would orphan every
identity already written and break ``--resume`` of older runs.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable

RUN_PREFIX = "run/"
CONVERSATION_PREFIX = "conv/"
LABELS_PREFIX = "labels/"
"""``labels/<run>``: human labels of a run's calls, beside (never inside) their verdicts."""
SWEEP_PREFIX = "sweep/"
"""``sweep/<sweep>``: a sweep's points and what became of each (their calls are runs)."""
LINT_PREFIX = "lint/"
"""``lint/<prompt hash>``: every tier's reading of one prompt text, shared by every run."""

# Identity kinds of a run's stream.
RUN_STARTED = "run.started"
RUN_FINISHED = "run.finished"
RUN_HIDDEN = "run.hidden"
RUBRIC = "rubric"
"""``rubric:<version>:<hash>``: one per rubric file a run was judged under."""

# Identity kinds of a conversation's stream.
STARTED = "started"
ENDED = "ended"
IMPORTED = "imported"
CALLER_TURN = "caller_turn"
AGENT_TURN = "agent_turn"
NOISE = "noise"
PHONE = "phone"
"""``phone:<kind>`` (barge_in, silence, self_correction) at a caller turn."""
TOOL = "tool"
CHECK = "check"
"""``check:<pass>``, indexed by the check's position."""
JUDGE = "judge"
"""``judge:<pass>``, indexed by the repeat."""
PROBE = "probe"
"""``probe:<probe>:<wording hash>:<answered by>``."""


# Identity kinds of a run's labels stream.
LABEL = "label"
"""``label:<conversation>:<by>``, indexed by how many that labeller gave the call before."""

# Identity kinds of a sweep's stream.
SWEEP_STARTED = "sweep.started"
POINT_RAN = "point.ran"
"""Indexed by the point."""
POINT_REFUSED = "point.refused"
SWEEP_STOPPED = "sweep.stopped"
SWEEP_FINISHED = "sweep.finished"

# Identity kinds of a prompt's lint stream.
LINTED = "linted"
"""``linted:<tier>:<model>``: one reading per tier and model (a cache entry)."""


def model_call_kind(role: str, key: str = "") -> str:
    """``<role>-call`` (agent, caller, judge, persona), or ``<role>-call:<key>`` (probes)."""
    return f"{role}-call:{key}" if key else f"{role}-call"


def keyed(kind: str, *parts: str) -> str:
    """A kind qualified by a pass, a probe or a rubric: ``kind:part:part``."""
    return ":".join((kind, *parts))


def run_stream(run_id: str) -> str:
    """The run's own stream."""
    return f"{RUN_PREFIX}{run_id}"


def labels_stream(run_id: str) -> str:
    """The stream of a run's human labels."""
    return f"{LABELS_PREFIX}{run_id}"


DRAFTS_PREFIX = "drafts/"


def drafts_stream(run_id: str) -> str:
    """The model calls that drafted scenarios from an imported run's calls."""
    return f"{DRAFTS_PREFIX}{run_id}"


def sweep_stream(sweep_id: str) -> str:
    """A sweep's own stream."""
    return f"{SWEEP_PREFIX}{sweep_id}"


def lint_stream(prompt_hash: str) -> str:
    """The stream holding every lint of one prompt text."""
    return f"{LINT_PREFIX}{prompt_hash}"


def conversation_stream(conversation_id: str) -> str:
    """A conversation's stream."""
    return f"{CONVERSATION_PREFIX}{conversation_id}"


def run_conversations(run_id: str) -> str:
    """The stream prefix under which every conversation of ``run_id`` lies."""
    return f"{CONVERSATION_PREFIX}{run_id}."


def conversation_id(run_id: str, config: str, scenario: str, trial: int) -> str:
    """``<run>.<config>.<scenario>.<trial>``: the id every view and command uses."""
    return f"{run_id}.{config}.{scenario}.{trial}"


def run_of_stream(stream: str) -> str:
    """The run id of a ``run/…`` stream."""
    return stream.removeprefix(RUN_PREFIX)


def conversation_of_stream(stream: str) -> str:
    """The conversation id of a ``conv/…`` stream."""
    return stream.removeprefix(CONVERSATION_PREFIX)


def is_conversation_stream(stream: str) -> bool:
    """True for a conversation's stream."""
    return stream.startswith(CONVERSATION_PREFIX)


def valid_run_id(run_id: str) -> bool:
    """A run id must not hold the separators of conversation ids and streams."""
    return bool(run_id) and "." not in run_id and "/" not in run_id


def fresh_id(prefix: str, basis: str, taken: Callable[[str], bool]) -> str:
    """A short id (``prefix`` + 8 hex digits) derived from ``basis`` that ``taken`` says is free.

    Ids come from what a command starts with (content hashes and the start time, to the
    second), so two starts within one second share a basis: the n-th candidate salts the hash
    with n, and each invocation against a log gets an id of its own.
    """
    for n in itertools.count():
        salted = basis if n == 0 else f"{basis}\0{n}"
        candidate = prefix + hashlib.blake2b(salted.encode(), digest_size=4).hexdigest()
        if not taken(candidate):
            return candidate
    raise AssertionError("unreachable")  # pragma: no cover
