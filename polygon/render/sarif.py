"""SARIF 2.1.0 for lint results: GitHub code scanning and editors show the marks in place.

One run, one rule per axis (``polygon-lint/<axis>``), one result per mark with its region
(1-based lines and columns, as SARIF counts them) and its tier; the five scores of each
prompt ride in the run's properties. ``polygon/lint/sarif-schema-2.1.0.json`` is the
published schema the tests validate against.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from polygon import __version__
from polygon.lint import AXES
from polygon.projections import Marked, PromptLint

SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
RULE_PREFIX = "polygon-lint/"
HELP_URI = "https://github.com/polygon-eval/polygon#reading-the-prompt-before-any-call-polygon-lint"
# each rule's short description, after the axis's name
AXIS_TITLES = {
    "overload": "too many constraints at once",
    "diluted_attention": "key rules lost in the middle or scattered",
    "contradiction": "rules that exclude or weaken each other",
    "ambiguity": "wording with more than one reading",
    "redundancy": "the same rule said several ways",
}


def build_sarif(lints: Sequence[PromptLint], *, threshold: float = 0.5) -> str:
    """The SARIF log of every prompt's marks (stable bytes for the same lint)."""
    results = [_result(lint, m, threshold) for lint in lints for m in lint.marks]
    log: dict[str, Any] = {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "polygon-lint",
                        "version": __version__,
                        "informationUri": HELP_URI,
                        "rules": [_rule(axis) for axis in AXES],
                    }
                },
                "results": results,
                "properties": {
                    "prompts": [
                        {
                            "name": x.name,
                            "path": x.path,
                            "promptHash": x.prompt_hash,
                            "language": x.language,
                            "scores": x.scores,
                            "skippedTiers": x.skipped,
                        }
                        for x in lints
                    ]
                },
            }
        ],
    }
    return json.dumps(log, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def _rule(axis: str) -> dict[str, Any]:
    return {
        "id": RULE_PREFIX + axis,
        "name": "".join(part.title() for part in axis.split("_")),
        "shortDescription": {"text": f"{axis.replace('_', ' ')}: {AXIS_TITLES[axis]}"},
        "defaultConfiguration": {"level": "warning"},
    }


def _result(lint: PromptLint, m: Marked, threshold: float) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": RULE_PREFIX + m.axis,
        "ruleIndex": AXES.index(m.axis),
        "level": "warning" if m.strength >= threshold else "note",
        "message": {"text": f"{m.reason} [{m.tier} tier]"},
        "locations": [_location(lint.path, m.line, m.column, m.end_line, m.end_column, m.start, m.end)],
        "properties": {"tier": m.tier, "strength": m.strength, "axisScore": lint.scores.get(m.axis, 0.0)},
    }
    if m.related is not None:
        result["relatedLocations"] = [
            {
                "id": 0,
                "message": {"text": "the other rule of the pair"},
                "physicalLocation": {
                    "artifactLocation": {"uri": lint.path},
                    "region": {"charOffset": m.related[0], "charLength": m.related[1] - m.related[0]},
                },
            }
        ]
    return result


def _location(
    uri: str, line: int, col: int, end_line: int, end_col: int, start: int, end: int
) -> dict[str, Any]:
    region = {
        "startLine": line,
        "startColumn": col,
        "endLine": end_line,
        "endColumn": end_col,
        "charOffset": start,
        "charLength": end - start,
    }
    return {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}
