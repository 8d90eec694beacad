"""``polygon report``: the run's scorecard and verdicts, as text, JSON, JUnit XML or HTML.

Rendered from the report projection only; nothing here reads a clock, so the same log
gives byte-identical reports.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree as ET

import msgspec

from polygon.events import to_builtins
from polygon.projections import (
    ConfigSummary,
    ConversationVerdict,
    RunReport,
    ScenarioTrials,
    state_of,
)
from polygon.render.phrases import HEURISTIC_LABEL, LATENCY_NOTE, latency_cell, verdict_reasons
from polygon.score import GRADED
from polygon.texttable import LEFT, RIGHT, table
from polygon.visible import visible

if TYPE_CHECKING:
    import jinja2


def judge_label(report: RunReport) -> str:
    """How the judge is named wherever scores appear."""
    names = ", ".join(report.judges) or "none"
    return (
        HEURISTIC_LABEL
        if report.heuristic and names == "scripted/heuristic"
        else (f"{names} (includes the heuristic baseline)" if report.heuristic else names)
    )


STATE_NOTES = {
    "error": "error: the agent could not complete the call (counts against the agent)",
    "inconclusive": "inconclusive: the judgement cannot carry a verdict (never a pass)",
    "simulator_error": "simulator_error: the simulator broke the call, not the agent (not in the scorecard)",
}


def render_text(report: RunReport) -> str:
    """For people."""
    lines = [
        f"Run {report.run_id} · rubric {report.rubric_version} ({report.rubric_hash[:12]})",
        f"Judge: {judge_label(report)}",
        shown_line(report),
        "",
    ]
    lines += table(CONFIG_COLUMNS, (config_cells(c) for c in report.configs))
    lines.append("")
    lines += table(
        [("conversation", LEFT), ("verdict", LEFT), ("composite", RIGHT), ("why", LEFT)],
        (conversation_cells(row) for row in report.conversations),
    )
    lines += _trial_lines(report)
    lines += notes(report)
    return "\n".join(lines) + "\n"


CONFIG_COLUMNS = [
    ("config", LEFT),
    ("calls", RIGHT),
    ("pass", RIGHT),
    ("warn", RIGHT),
    ("fail", RIGHT),
    ("error", RIGHT),
    ("incon", RIGHT),
    ("simerr", RIGHT),
    ("mean", RIGHT),
    ("gates", RIGHT),
    ("loops", RIGHT),
    ("p95 ms", RIGHT),
]


def config_cells(c: ConfigSummary) -> list[str]:
    """One configuration's scorecard cells, in :data:`CONFIG_COLUMNS` order."""
    mean = f"{c.mean_composite:.1f}" if c.mean_composite is not None else "—"
    return [
        c.config,
        str(c.conversations),
        str(c.passed),
        str(c.warned),
        str(c.failed),
        str(c.errored),
        str(c.inconclusive),
        str(c.simulator_errors),
        mean,
        str(c.gate_failures),
        str(c.loops),
        latency_cell(c.latency_p95_ms, c.latency_calls, c.conversations),
    ]


def conversation_cells(row: ConversationVerdict) -> list[str]:
    """One call's (id, state, composite, why) cells."""
    v = row.verdict
    label = state_of(row)
    # an errored call's composite judges a broken call: show none rather than a number
    composite = f"{v.composite:.2f}" + ("*" if v.partial else "") if v and label in GRADED else "—"
    composite = f"({v.composite:.2f}*)" if v and label == "inconclusive" else composite
    why = "; ".join(verdict_reasons(row)) if label != "pass" else ""
    return [row.record.conversation_id, label, composite, why]


def notes(report: RunReport) -> list[str]:
    """The footnotes under the tables: states shown, partial composites, latency, inferred goals."""
    lines: list[str] = []
    states = {state_of(r) for r in report.conversations}
    lines += [STATE_NOTES[s] for s in STATE_NOTES if s in states]
    if any(r.verdict and r.verdict.partial for r in report.conversations):
        lines.append("* partial: some criteria were unreadable; the composite uses the scored weights only")
    if any(c.latency_p95_ms is not None for c in report.configs):
        lines.append(LATENCY_NOTE)
    inferred = sum(1 for r in report.conversations if r.record.persona_type and not r.record.expected)
    if inferred:
        lines.append(
            f"goal_reached: {inferred} of {len(report.conversations)} calls have no expect: in their "
            "scenario; "
            "their outcome is inferred from the end reason and store entries naming the caller "
            "(weaker: declare expect:)"
        )
    return lines


TRIAL_COLUMNS = [
    ("config", LEFT),
    ("scenario", LEFT),
    ("trials", RIGHT),
    ("pass rate", RIGHT),
    ("pass^k", RIGHT),
    ("flips", RIGHT),
    ("", LEFT),
]


def trial_cells(s: ScenarioTrials) -> list[str]:
    """One (configuration, scenario)'s trial cells, in :data:`TRIAL_COLUMNS` order."""
    rate = f"{s.pass_rate * 100:.0f}%" if s.pass_rate is not None else "—"
    return [
        s.config,
        s.scenario,
        str(s.trials),
        rate,
        "yes" if s.pass_all else "no",
        f"{s.flip_rate * 100:.0f}%",
        "flaky" if s.flaky else "",
    ]


def _trial_lines(report: RunReport) -> list[str]:
    """Per-scenario pass rates, shown only when some scenario ran more than one trial."""
    if not any(s.trials > 1 for s in report.scenarios):
        return []
    return ["", *table(TRIAL_COLUMNS, (trial_cells(s) for s in report.scenarios))]


def markdown_table(columns: list[tuple[str, str]], rows: Iterable[list[str]]) -> list[str]:
    """A GitHub-flavoured Markdown table (pipes in cells escaped, empty cells kept)."""
    head = "| " + " | ".join(_md(h) for h, _ in columns) + " |"
    rule = "|" + "|".join("---:" if align == RIGHT else "---" for _, align in columns) + "|"
    return [head, rule, *("| " + " | ".join(_md(c) for c in row) + " |" for row in rows)]


def _md(cell: str) -> str:
    """A cell as text, never markup.

    A call's own words (an agent's end reason, a tool's error) could hold HTML, which GitHub
    and most Markdown viewers would render.
    """
    cell = cell.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return cell.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_markdown(report: RunReport, *, limit: int = 50) -> str:
    """For a pull-request comment or a CI step summary: the scorecard and the calls that did not pass.

    Passing calls are counted, not listed; at most ``limit`` other calls are listed (the
    text or HTML report has them all).
    """
    states = Counter(state_of(r) for r in report.conversations)
    summary = ", ".join(f"{n} {s}" for s, n in sorted(states.items()))
    lines = [
        f"### Polygon run `{report.run_id}`",
        "",
        f"Rubric {report.rubric_version} (`{report.rubric_hash[:12]}`) · judge: {judge_label(report)} · "
        f"{len(report.conversations)} calls: {summary or 'none'}",
        "",
        *markdown_table(CONFIG_COLUMNS, (config_cells(c) for c in report.configs)),
    ]
    failing = [r for r in report.conversations if state_of(r) != "pass"]
    if failing:
        lines += ["", f"#### Calls that did not pass ({len(failing)})", ""]
        lines += markdown_table(
            [("conversation", LEFT), ("verdict", LEFT), ("composite", RIGHT), ("why", LEFT)],
            (conversation_cells(r) for r in failing[:limit]),
        )
        if len(failing) > limit:
            lines.append(f"\n… {len(failing) - limit} more: `polygon report {report.run_id}` lists all")
    else:
        lines += ["", "Every call passed."]
    if any(s.trials > 1 for s in report.scenarios):
        lines += [
            "",
            "#### Trials",
            "",
            *markdown_table(TRIAL_COLUMNS, (trial_cells(s) for s in report.scenarios)),
        ]
    extra = notes(report)
    if extra:
        lines += ["", *(f"<sub>{_md(n)}</sub><br>" for n in extra)]
    return "\n".join(lines) + "\n"


def shown_line(report: RunReport) -> str:
    """Which rubric and pass the report shows, what else the log holds, how to choose ("" if unsaid)."""
    s = report.selection
    if s is None:
        return ""
    rubric = f"rubric {report.rubric_version}" + _other_versions(report.rubric_version, s.versions, s.own)
    which = s.chosen_pass or (s.used_passes[0] if len(s.used_passes) == 1 else "each call's latest")
    more = f" (latest of {s.passes})" if s.chosen_pass is None and s.passes > 1 else ""
    return f"Shown: {rubric} · pass {which}{more} · choose with --rubric, --judge, --pass"


def _other_versions(version: str, have: list[str], own: str) -> str:
    """Why this version of several, when it is not the run's own.

    The own is the default, and its report stays byte-identical whatever rubric a later
    `judge --rubric` adds.
    """
    if version == own or len(have) < 2:
        return ""
    if own in have:  # the default would have been the own: this one was asked for
        return f" (the run's own is {own})"
    return f" (newest of {', '.join(have)})" if version == have[-1] else ""


def render_json(report: RunReport) -> str:
    """For scripts: deterministic key order."""
    return "".join(json_chunks(report))


_ROWS = "\u0000rows\u0000"


def json_chunks(report: RunReport, rows: Iterable[ConversationVerdict] | None = None) -> Iterator[str]:
    """:func:`render_json` a piece at a time, byte for byte the same.

    ``rows`` replaces ``report.conversations`` (whole rows, with every repeat and check,
    read one call at a time): the report's own rows may be reduced ones, and a 20,000-call
    document is never held whole.
    """
    return json_document(report, map(json_row, report.conversations if rows is None else rows))


def json_row(row: ConversationVerdict) -> str:
    """One row of the JSON report's ``conversations``, indented as the document holds it.

    Each check and judge repeat is placed by ``at``, its position in the call's stream, not
    by the log's sequence number: a run that scores beside its simulation (or runs on Ray)
    commits calls in no fixed order, and the same suite and seed give the same document.

    Views may keep these texts (``polygon.app.json_rows``): a change to what this writes
    must change that module's ``VERSION``.
    """
    text = json.dumps(row_data(row), sort_keys=True, ensure_ascii=False, indent=2)
    return "    " + text.replace("\n", "\n    ")


def row_data(row: ConversationVerdict) -> dict[str, Any]:
    """A verdict row as plain data, each check and judge repeat placed by ``at`` only."""
    data: dict[str, Any] = to_builtins(row)
    for entry in (*data["checks"], *data["judged"]):
        del entry["seq"]  # the log's numbering: another in every run scored beside its simulation
    return data


def json_document(report: RunReport, rows: Iterable[str]) -> Iterator[str]:
    """The JSON report around rows already written (:func:`json_row`), a piece at a time."""
    data = to_builtins(msgspec.structs.replace(report, conversations=[]))
    data["judge_label"] = judge_label(report)
    # the selection as the one line the format has always had under "shown"
    del data["selection"]
    data["shown"] = shown_line(report)
    data["conversations"] = [_ROWS]
    outline = json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
    marker = "    " + json.dumps(_ROWS)
    before, after = outline.split(marker)
    some = False
    for text in rows:
        yield (",\n" if some else before) + text
        some = True
    if some:
        yield after
    else:  # an empty list is `[]` on one line
        yield before.removesuffix("[\n") + "[]" + after.removeprefix("\n  ]")


def render_junit(report: RunReport) -> str:
    """One test case per conversation.

    ``fail`` (and ``unjudged``) is a ``<failure>``; ``error`` (the agent could not complete
    the call) is an ``<error>``; ``inconclusive`` and ``simulator_error`` are ``<skipped>``
    with the reason: not evaluated, never passed. ``--fail-on`` decides the exit code.
    """
    root = ET.Element("testsuites", name=f"polygon {report.run_id} rubric {report.rubric_version}")
    for summary in report.configs:
        rows = [r for r in report.conversations if r.record.config == summary.config]
        suite = ET.SubElement(
            root,
            "testsuite",
            name=summary.config,
            tests=str(len(rows)),
            failures=str(summary.failed + summary.unjudged),
            errors=str(summary.errored),
            skipped=str(summary.inconclusive + summary.simulator_errors),
        )
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="judge", value=judge_label(report))
        for row in rows:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"{report.run_id}.{summary.config}",
                name=f"{row.record.scenario}.{row.record.trial}",
            )
            _junit_outcome(case, row)
    _shown_controls(root)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _shown_controls(root: ET.Element) -> None:
    """Control characters (an agent's reply in a reason) written as escapes.

    XML 1.0 forbids most C0, and a CR reaches a CI's log as ``&#13;``, free to overprint.
    """
    for element in root.iter():
        if element.text:
            element.text = visible(element.text)
        for key, value in element.attrib.items():
            element.set(key, visible(value))


def _junit_outcome(case: ET.Element, row: ConversationVerdict) -> None:
    v = row.verdict
    state = state_of(row)
    detail = "; ".join(verdict_reasons(row))
    if v is None or state == "fail":
        message = detail or "composite below the warn line"
        failure = ET.SubElement(case, "failure", message=message, type=state)
        failure.text = f"composite {v.composite:.2f}" if v else "not judged"
    elif state == "error":
        error = ET.SubElement(case, "error", message=detail, type="error")
        error.text = "the agent could not complete the call"
    elif state in ("inconclusive", "simulator_error"):
        ET.SubElement(case, "skipped", message=f"{state}: {detail}")
    elif state == "warn":
        ET.SubElement(case, "system-out").text = f"warn: composite {v.composite:.2f}"


def render_html(report: RunReport) -> str:
    """A single self-contained page (the template ``report/page.html``, shared with the web UI)."""
    from polygon.render.templating import quotes_as_ever  # Jinja loads only when a page is drawn

    # the text report's cells: the two reports agree on every number and reason they show
    configs = [config_cells(c) for c in report.configs]
    calls = [(state_of(r), conversation_cells(r)) for r in report.conversations]
    text = _page().render(report=report, judge=judge_label(report), configs=configs, calls=calls)
    return quotes_as_ever(text) + "\n"  # Jinja drops a template's last newline; the page has one


@functools.cache
def _page() -> jinja2.Template:
    """The report's template, compiled once per process."""
    from polygon.render.templating import environment  # Jinja loads only when a page is drawn

    return environment().get_template("report/page.html")
