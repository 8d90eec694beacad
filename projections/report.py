"""``polygon report``: the run's scorecard and verdicts, as text, JSON, JUnit XML or HTML.

Rendered from the verdicts projection only; nothing here reads a clock, so the same log
gives byte-identical reports.
"""

from __future__ import annotations

import html
import json
import statistics
from xml.etree import ElementTree as ET

import msgspec

from polygon.events import to_builtins
from polygon.projections.verdicts import ConversationVerdict, RunRecord, choose_version, verdicts

HEURISTIC_LABEL = "heuristic baseline (scripted/heuristic) — not a model's judgement"


class ConfigSummary(msgspec.Struct, kw_only=True):
    """One configuration's scorecard line."""

    config: str
    conversations: int
    passed: int
    warned: int
    failed: int
    unjudged: int
    mean_composite: float | None
    gate_failures: int
    loops: int


class RunReport(msgspec.Struct, kw_only=True):
    """Everything a report shows."""

    run_id: str
    rubric_version: str
    rubric_hash: str
    judges: list[str]
    heuristic: bool
    configs: list[ConfigSummary]
    conversations: list[ConversationVerdict]


def make_report(state: RunRecord, wanted_version: str | None) -> RunReport:
    """The report of a run under one rubric version (refusing to mix versions)."""
    version = choose_version(state, wanted_version)
    rows = verdicts(state, version)
    hashes = sorted({r.rubric_hash for r in state.rubrics if r.version == version})
    judges = sorted({r.judge for r in rows if r.judge})
    return RunReport(
        run_id=state.run_id,
        rubric_version=version,
        rubric_hash=hashes[0] if hashes else "",
        judges=judges,
        heuristic=any(r.heuristic for r in rows),
        configs=_summaries(rows),
        conversations=rows,
    )


def _summaries(rows: list[ConversationVerdict]) -> list[ConfigSummary]:
    out = []
    for config in sorted({r.record.config for r in rows}):
        mine = [r for r in rows if r.record.config == config]
        judged = [r.verdict for r in mine if r.verdict is not None]
        out.append(
            ConfigSummary(
                config=config,
                conversations=len(mine),
                passed=sum(v.verdict == "pass" for v in judged),
                warned=sum(v.verdict == "warn" for v in judged),
                failed=sum(v.verdict == "fail" for v in judged),
                unjudged=len(mine) - len(judged),
                mean_composite=round(statistics.fmean(v.composite for v in judged), 2) if judged else None,
                gate_failures=sum(any(g.fired for g in v.gates) for v in judged),
                loops=sum(r.record.loop for r in mine),
            )
        )
    return out


def judge_label(report: RunReport) -> str:
    """How the judge is named wherever scores appear."""
    names = ", ".join(report.judges) or "none"
    return (
        HEURISTIC_LABEL
        if report.heuristic and names == "scripted/heuristic"
        else (f"{names} (includes the heuristic baseline)" if report.heuristic else names)
    )


def render_text(report: RunReport) -> str:
    """For people."""
    lines = [
        f"Run {report.run_id} · rubric {report.rubric_version} ({report.rubric_hash[:12]})",
        f"Judge: {judge_label(report)}",
        "",
        f"{'config':<10}{'calls':>6}{'pass':>6}{'warn':>6}{'fail':>6}{'mean':>8}{'gates':>7}{'loops':>7}",
    ]
    for c in report.configs:
        mean = f"{c.mean_composite:.1f}" if c.mean_composite is not None else "—"
        lines.append(
            f"{c.config:<10}{c.conversations:>6}{c.passed:>6}{c.warned:>6}{c.failed:>6}{mean:>8}"
            f"{c.gate_failures:>7}{c.loops:>7}"
        )
    lines += ["", f"{'conversation':<44}{'verdict':<9}{'composite':>10}  why"]
    for row in report.conversations:
        v = row.verdict
        composite = f"{v.composite:.2f}" + ("*" if v.partial else "") if v else "—"
        label = v.verdict if v else "unjudged"
        why = "; ".join(row.reasons()) if label != "pass" else ""
        lines.append(f"{row.record.conversation_id:<44}{label:<9}{composite:>10}  {why}")
    if any(r.verdict and r.verdict.partial for r in report.conversations):
        lines.append("* partial: some criteria were unreadable; the composite uses the scored weights only")
    return "\n".join(lines) + "\n"


def render_json(report: RunReport) -> str:
    """For scripts: deterministic key order."""
    data = to_builtins(report)
    data["judge_label"] = judge_label(report)
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def render_junit(report: RunReport) -> str:
    """One test case per conversation; failures carry the reasons."""
    root = ET.Element("testsuites", name=f"polygon {report.run_id} rubric {report.rubric_version}")
    for summary in report.configs:
        rows = [r for r in report.conversations if r.record.config == summary.config]
        suite = ET.SubElement(
            root,
            "testsuite",
            name=summary.config,
            tests=str(len(rows)),
            failures=str(summary.failed + summary.unjudged),
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
            v = row.verdict
            if v is None or v.verdict == "fail":
                detail = "; ".join(row.reasons())
                failure = ET.SubElement(
                    case,
                    "failure",
                    message=detail or "composite below the warn line",
                    type=v.verdict if v else "unjudged",
                )
                failure.text = f"composite {v.composite:.2f}" if v else "not judged"
            elif v.verdict == "warn":
                ET.SubElement(case, "system-out").text = f"warn: composite {v.composite:.2f}"
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def render_html(report: RunReport) -> str:
    """A single self-contained page."""
    e = html.escape
    rows = "".join(
        f"<tr class='{r.verdict.verdict if r.verdict else 'unjudged'}'><td>{e(r.record.conversation_id)}</td>"
        f"<td>{e(r.verdict.verdict if r.verdict else 'unjudged')}</td>"
        f"<td>{(r.verdict.composite if r.verdict else 0):.2f}</td><td>{e('; '.join(r.reasons()))}</td></tr>"
        for r in report.conversations
    )
    cards = "".join(
        f"<tr><td>{e(c.config)}</td><td>{c.conversations}</td><td>{c.passed}</td><td>{c.warned}</td>"
        f"<td>{c.failed}</td><td>{c.mean_composite if c.mean_composite is not None else '—'}</td></tr>"
        for c in report.configs
    )
    return (
        "<!doctype html><meta charset='utf-8'><title>Polygon report</title>"
        "<style>body{font:14px sans-serif;margin:2em}td,th{padding:2px 8px;text-align:left}"
        ".fail{background:#fdd}.warn{background:#ffd}.pass{background:#dfd}</style>"
        f"<h1>Run {e(report.run_id)} · rubric {e(report.rubric_version)}</h1>"
        f"<p>Judge: {e(judge_label(report))}</p>"
        f"<table><tr><th>config</th><th>calls</th><th>pass</th><th>warn</th><th>fail</th><th>mean</th></tr>{cards}</table>"
        f"<h2>Conversations</h2><table><tr><th>conversation</th><th>verdict</th><th>composite</th><th>why</th></tr>"
        f"{rows}</table>\n"
    )
