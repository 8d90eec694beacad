"""Importing production calls: transcript formats and redaction."""

# The public face: what code outside this package imports (generated from its uses;
# tests/test_faces.py pins it). Each name loads its module on first use.
from typing import TYPE_CHECKING  # noqa: E402

from polygon.lazy import face_getattr  # noqa: E402

if TYPE_CHECKING:
    from polygon.importing.drafting import Draft as Draft
    from polygon.importing.drafting import clusters as clusters
    from polygon.importing.drafting import coverage as coverage
    from polygon.importing.drafting import draft as draft
    from polygon.importing.drafting import refine_request as refine_request
    from polygon.importing.drafting import refined as refined
    from polygon.importing.drafting import suite_intents as suite_intents
    from polygon.importing.drafting import transcript_text as transcript_text
    from polygon.importing.formats import AGENT_NAMES as AGENT_NAMES
    from polygon.importing.formats import CALLER_NAMES as CALLER_NAMES
    from polygon.importing.formats import END_CALL_TOOLS as END_CALL_TOOLS
    from polygon.importing.formats import FORMATS as FORMATS
    from polygon.importing.formats import TRANSFER_TOOLS as TRANSFER_TOOLS
    from polygon.importing.formats import ImportedConversation as ImportedConversation
    from polygon.importing.formats import ImportProblem as ImportProblem
    from polygon.importing.formats import ending_of as ending_of
    from polygon.importing.formats import is_ending_tool as is_ending_tool
    from polygon.importing.formats import parse as parse
    from polygon.importing.formats import safe_key as safe_key
    from polygon.importing.redaction import redact as redact
    from polygon.importing.redaction import redact_value as redact_value

_FACE = {
    "AGENT_NAMES": "polygon.importing.formats",
    "CALLER_NAMES": "polygon.importing.formats",
    "Draft": "polygon.importing.drafting",
    "END_CALL_TOOLS": "polygon.importing.formats",
    "FORMATS": "polygon.importing.formats",
    "ImportProblem": "polygon.importing.formats",
    "ImportedConversation": "polygon.importing.formats",
    "TRANSFER_TOOLS": "polygon.importing.formats",
    "clusters": "polygon.importing.drafting",
    "coverage": "polygon.importing.drafting",
    "draft": "polygon.importing.drafting",
    "ending_of": "polygon.importing.formats",
    "is_ending_tool": "polygon.importing.formats",
    "parse": "polygon.importing.formats",
    "redact": "polygon.importing.redaction",
    "redact_value": "polygon.importing.redaction",
    "refine_request": "polygon.importing.drafting",
    "refined": "polygon.importing.drafting",
    "safe_key": "polygon.importing.formats",
    "suite_intents": "polygon.importing.drafting",
    "transcript_text": "polygon.importing.drafting",
}
__getattr__ = face_getattr(__name__, _FACE)

__all__ = sorted(_FACE)
