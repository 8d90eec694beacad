"""The event contract: payload types, envelopes, identities, codec and the logs.

See ``events/README.md`` for the invariants. Public names are listed in ``__all__`` and
pinned by a test; everything else is private.
"""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.errors import PolygonError, UserInputError
from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.events import families as families
    from polygon.events.codec import canonical as canonical
    from polygon.events.codec import content_hash as content_hash
    from polygon.events.codec import digest as digest
    from polygon.events.codec import to_builtins as to_builtins
    from polygon.events.envelope import Envelope as Envelope
    from polygon.events.envelope import Pending as Pending
    from polygon.events.envelope import Prepared as Prepared
    from polygon.events.envelope import decode_envelope as decode_envelope
    from polygon.events.envelope import prepare as prepare
    from polygon.events.envelope import prepare_stored as prepare_stored
    from polygon.events.envelope import unnumbered_records as unnumbered_records
    from polygon.events.errors import DecodeError as DecodeError
    from polygon.events.errors import ForkedUseError as ForkedUseError
    from polygon.events.errors import FutureVersionError as FutureVersionError
    from polygon.events.errors import IdentityConflictError as IdentityConflictError
    from polygon.events.errors import LogError as LogError
    from polygon.events.errors import LogFormatError as LogFormatError
    from polygon.events.errors import StorageError as StorageError
    from polygon.events.errors import UnknownTagError as UnknownTagError
    from polygon.events.errors import WriterBusyError as WriterBusyError
    from polygon.events.families import CallerTurnLabelled as CallerTurnLabelled
    from polygon.events.families import CheckRecorded as CheckRecorded
    from polygon.events.families import ConversationEnded as ConversationEnded
    from polygon.events.families import ConversationStarted as ConversationStarted
    from polygon.events.families import CriterionScore as CriterionScore
    from polygon.events.families import Evidence as Evidence
    from polygon.events.families import Expectation as Expectation
    from polygon.events.families import JudgeScored as JudgeScored
    from polygon.events.families import LabelRecorded as LabelRecorded
    from polygon.events.families import LintMark as LintMark
    from polygon.events.families import ModelCalled as ModelCalled
    from polygon.events.families import NoiseApplied as NoiseApplied
    from polygon.events.families import NoiseOp as NoiseOp
    from polygon.events.families import PersonaSnapshot as PersonaSnapshot
    from polygon.events.families import PhoneApplied as PhoneApplied
    from polygon.events.families import PointRan as PointRan
    from polygon.events.families import PointRefused as PointRefused
    from polygon.events.families import ProbeAnswered as ProbeAnswered
    from polygon.events.families import PromptLinted as PromptLinted
    from polygon.events.families import RubricRecorded as RubricRecorded
    from polygon.events.families import RunFinished as RunFinished
    from polygon.events.families import RunHidden as RunHidden
    from polygon.events.families import RunStarted as RunStarted
    from polygon.events.families import SaidBefore as SaidBefore
    from polygon.events.families import SpokenBesideTools as SpokenBesideTools
    from polygon.events.families import SweepFinished as SweepFinished
    from polygon.events.families import SweepPoint as SweepPoint
    from polygon.events.families import SweepStarted as SweepStarted
    from polygon.events.families import SweepStopped as SweepStopped
    from polygon.events.families import ToolCalled as ToolCalled
    from polygon.events.families import TranscriptImported as TranscriptImported
    from polygon.events.families import TurnSpoken as TurnSpoken
    from polygon.events.identities import EventKey as EventKey
    from polygon.events.identities import StreamIdentities as StreamIdentities
    from polygon.events.identities import identity as identity
    from polygon.events.identities import identity_of as identity_of
    from polygon.events.lmdb_log import FORMAT_VERSION as FORMAT_VERSION
    from polygon.events.lmdb_log import LmdbLog as LmdbLog
    from polygon.events.lmdb_log import holds_polygon_log as holds_polygon_log
    from polygon.events.memory import MemoryLog as MemoryLog
    from polygon.events.registry import REGISTRY as REGISTRY
    from polygon.events.registry import Event as Event
    from polygon.events.registry import event_type as event_type
    from polygon.events.snapshots import SNAPSHOT_DIR as SNAPSHOT_DIR
    from polygon.events.snapshots import LmdbSnapshots as LmdbSnapshots
    from polygon.events.snapshots import NullSnapshots as NullSnapshots
    from polygon.events.snapshots import Snapshot as Snapshot
    from polygon.events.snapshots import SnapshotStore as SnapshotStore
    from polygon.events.store import AppendResult as AppendResult
    from polygon.events.store import EventLog as EventLog
    from polygon.events.store import LogStats as LogStats
    from polygon.events.store import VerifyReport as VerifyReport
    from polygon.events.streams import AGENT_TURN as AGENT_TURN
    from polygon.events.streams import CALLER_TURN as CALLER_TURN
    from polygon.events.streams import CHECK as CHECK
    from polygon.events.streams import CONVERSATION_PREFIX as CONVERSATION_PREFIX
    from polygon.events.streams import ENDED as ENDED
    from polygon.events.streams import IMPORTED as IMPORTED
    from polygon.events.streams import JUDGE as JUDGE
    from polygon.events.streams import LABEL as LABEL
    from polygon.events.streams import LINTED as LINTED
    from polygon.events.streams import NOISE as NOISE
    from polygon.events.streams import PHONE as PHONE
    from polygon.events.streams import POINT_RAN as POINT_RAN
    from polygon.events.streams import POINT_REFUSED as POINT_REFUSED
    from polygon.events.streams import PROBE as PROBE
    from polygon.events.streams import RUBRIC as RUBRIC
    from polygon.events.streams import RUN_FINISHED as RUN_FINISHED
    from polygon.events.streams import RUN_HIDDEN as RUN_HIDDEN
    from polygon.events.streams import RUN_PREFIX as RUN_PREFIX
    from polygon.events.streams import RUN_STARTED as RUN_STARTED
    from polygon.events.streams import STARTED as STARTED
    from polygon.events.streams import SWEEP_FINISHED as SWEEP_FINISHED
    from polygon.events.streams import SWEEP_PREFIX as SWEEP_PREFIX
    from polygon.events.streams import SWEEP_STARTED as SWEEP_STARTED
    from polygon.events.streams import SWEEP_STOPPED as SWEEP_STOPPED
    from polygon.events.streams import TOOL as TOOL
    from polygon.events.streams import conversation_id as conversation_id
    from polygon.events.streams import conversation_of_stream as conversation_of_stream
    from polygon.events.streams import conversation_stream as conversation_stream
    from polygon.events.streams import drafts_stream as drafts_stream
    from polygon.events.streams import fresh_id as fresh_id
    from polygon.events.streams import is_conversation_stream as is_conversation_stream
    from polygon.events.streams import keyed as keyed
    from polygon.events.streams import labels_stream as labels_stream
    from polygon.events.streams import lint_stream as lint_stream
    from polygon.events.streams import model_call_kind as model_call_kind
    from polygon.events.streams import run_conversations as run_conversations
    from polygon.events.streams import run_of_stream as run_of_stream
    from polygon.events.streams import run_stream as run_stream
    from polygon.events.streams import sweep_stream as sweep_stream
    from polygon.events.streams import valid_run_id as valid_run_id

_FACE = {
    "AGENT_TURN": "polygon.events.streams",
    "AppendResult": "polygon.events.store",
    "CALLER_TURN": "polygon.events.streams",
    "CHECK": "polygon.events.streams",
    "CONVERSATION_PREFIX": "polygon.events.streams",
    "CallerTurnLabelled": "polygon.events.families",
    "CheckRecorded": "polygon.events.families",
    "ConversationEnded": "polygon.events.families",
    "ConversationStarted": "polygon.events.families",
    "CriterionScore": "polygon.events.families",
    "DecodeError": "polygon.events.errors",
    "ENDED": "polygon.events.streams",
    "Envelope": "polygon.events.envelope",
    "Event": "polygon.events.registry",
    "EventKey": "polygon.events.identities",
    "EventLog": "polygon.events.store",
    "Evidence": "polygon.events.families",
    "Expectation": "polygon.events.families",
    "FORMAT_VERSION": "polygon.events.lmdb_log",
    "ForkedUseError": "polygon.events.errors",
    "FutureVersionError": "polygon.events.errors",
    "IMPORTED": "polygon.events.streams",
    "IdentityConflictError": "polygon.events.errors",
    "JUDGE": "polygon.events.streams",
    "JudgeScored": "polygon.events.families",
    "LABEL": "polygon.events.streams",
    "LINTED": "polygon.events.streams",
    "LabelRecorded": "polygon.events.families",
    "LintMark": "polygon.events.families",
    "LmdbLog": "polygon.events.lmdb_log",
    "LmdbSnapshots": "polygon.events.snapshots",
    "LogError": "polygon.events.errors",
    "LogFormatError": "polygon.events.errors",
    "LogStats": "polygon.events.store",
    "MemoryLog": "polygon.events.memory",
    "ModelCalled": "polygon.events.families",
    "NOISE": "polygon.events.streams",
    "NoiseApplied": "polygon.events.families",
    "NoiseOp": "polygon.events.families",
    "NullSnapshots": "polygon.events.snapshots",
    "PHONE": "polygon.events.streams",
    "POINT_RAN": "polygon.events.streams",
    "POINT_REFUSED": "polygon.events.streams",
    "PROBE": "polygon.events.streams",
    "Pending": "polygon.events.envelope",
    "PersonaSnapshot": "polygon.events.families",
    "PhoneApplied": "polygon.events.families",
    "PointRan": "polygon.events.families",
    "PointRefused": "polygon.events.families",
    "Prepared": "polygon.events.envelope",
    "ProbeAnswered": "polygon.events.families",
    "PromptLinted": "polygon.events.families",
    "REGISTRY": "polygon.events.registry",
    "RUBRIC": "polygon.events.streams",
    "RUN_FINISHED": "polygon.events.streams",
    "RUN_HIDDEN": "polygon.events.streams",
    "RUN_PREFIX": "polygon.events.streams",
    "RUN_STARTED": "polygon.events.streams",
    "RubricRecorded": "polygon.events.families",
    "RunFinished": "polygon.events.families",
    "RunHidden": "polygon.events.families",
    "RunStarted": "polygon.events.families",
    "SNAPSHOT_DIR": "polygon.events.snapshots",
    "STARTED": "polygon.events.streams",
    "SWEEP_FINISHED": "polygon.events.streams",
    "SWEEP_PREFIX": "polygon.events.streams",
    "SWEEP_STARTED": "polygon.events.streams",
    "SWEEP_STOPPED": "polygon.events.streams",
    "SaidBefore": "polygon.events.families",
    "Snapshot": "polygon.events.snapshots",
    "SnapshotStore": "polygon.events.snapshots",
    "SpokenBesideTools": "polygon.events.families",
    "StorageError": "polygon.events.errors",
    "StreamIdentities": "polygon.events.identities",
    "SweepFinished": "polygon.events.families",
    "SweepPoint": "polygon.events.families",
    "SweepStarted": "polygon.events.families",
    "SweepStopped": "polygon.events.families",
    "TOOL": "polygon.events.streams",
    "ToolCalled": "polygon.events.families",
    "TranscriptImported": "polygon.events.families",
    "TurnSpoken": "polygon.events.families",
    "UnknownTagError": "polygon.events.errors",
    "VerifyReport": "polygon.events.store",
    "WriterBusyError": "polygon.events.errors",
    "canonical": "polygon.events.codec",
    "content_hash": "polygon.events.codec",
    "conversation_id": "polygon.events.streams",
    "conversation_of_stream": "polygon.events.streams",
    "conversation_stream": "polygon.events.streams",
    "decode_envelope": "polygon.events.envelope",
    "digest": "polygon.events.codec",
    "drafts_stream": "polygon.events.streams",
    "event_type": "polygon.events.registry",
    "families": "polygon.events.families",
    "fresh_id": "polygon.events.streams",
    "holds_polygon_log": "polygon.events.lmdb_log",
    "identity": "polygon.events.identities",
    "identity_of": "polygon.events.identities",
    "is_conversation_stream": "polygon.events.streams",
    "keyed": "polygon.events.streams",
    "labels_stream": "polygon.events.streams",
    "lint_stream": "polygon.events.streams",
    "model_call_kind": "polygon.events.streams",
    "prepare": "polygon.events.envelope",
    "prepare_stored": "polygon.events.envelope",
    "run_conversations": "polygon.events.streams",
    "run_of_stream": "polygon.events.streams",
    "run_stream": "polygon.events.streams",
    "sweep_stream": "polygon.events.streams",
    "to_builtins": "polygon.events.codec",
    "unnumbered_records": "polygon.events.envelope",
    "valid_run_id": "polygon.events.streams",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = [
    "AGENT_TURN",
    "AppendResult",
    "CALLER_TURN",
    "CHECK",
    "CONVERSATION_PREFIX",
    "CallerTurnLabelled",
    "CheckRecorded",
    "ConversationEnded",
    "ConversationStarted",
    "CriterionScore",
    "DecodeError",
    "ENDED",
    "Envelope",
    "Event",
    "EventKey",
    "EventLog",
    "Evidence",
    "Expectation",
    "FORMAT_VERSION",
    "ForkedUseError",
    "FutureVersionError",
    "IMPORTED",
    "IdentityConflictError",
    "JUDGE",
    "JudgeScored",
    "LABEL",
    "LINTED",
    "LabelRecorded",
    "LintMark",
    "LmdbLog",
    "LmdbSnapshots",
    "LogError",
    "LogFormatError",
    "LogStats",
    "MemoryLog",
    "ModelCalled",
    "NOISE",
    "NoiseApplied",
    "NoiseOp",
    "NullSnapshots",
    "PHONE",
    "POINT_RAN",
    "POINT_REFUSED",
    "PROBE",
    "Pending",
    "PersonaSnapshot",
    "PhoneApplied",
    "PointRan",
    "PointRefused",
    "PolygonError",
    "Prepared",
    "ProbeAnswered",
    "PromptLinted",
    "REGISTRY",
    "RUBRIC",
    "RUN_FINISHED",
    "RUN_HIDDEN",
    "RUN_PREFIX",
    "RUN_STARTED",
    "RubricRecorded",
    "RunFinished",
    "RunHidden",
    "RunStarted",
    "SaidBefore",
    "SNAPSHOT_DIR",
    "STARTED",
    "SWEEP_FINISHED",
    "SWEEP_PREFIX",
    "SWEEP_STARTED",
    "SWEEP_STOPPED",
    "Snapshot",
    "SnapshotStore",
    "SpokenBesideTools",
    "StorageError",
    "StreamIdentities",
    "SweepFinished",
    "SweepPoint",
    "SweepStarted",
    "SweepStopped",
    "TOOL",
    "ToolCalled",
    "TranscriptImported",
    "TurnSpoken",
    "UnknownTagError",
    "UserInputError",
    "VerifyReport",
    "WriterBusyError",
    "canonical",
    "content_hash",
    "conversation_id",
    "conversation_of_stream",
    "conversation_stream",
    "decode_envelope",
    "digest",
    "drafts_stream",
    "event_type",
    "families",
    "fresh_id",
    "holds_polygon_log",
    "identity",
    "identity_of",
    "is_conversation_stream",
    "keyed",
    "labels_stream",
    "lint_stream",
    "model_call_kind",
    "prepare",
    "prepare_stored",
    "run_conversations",
    "run_of_stream",
    "run_stream",
    "sweep_stream",
    "to_builtins",
    "unnumbered_records",
    "valid_run_id",
]
