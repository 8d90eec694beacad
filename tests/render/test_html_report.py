"""The HTML report drawn through the shared Jinja environment: the same bytes as ever, escaped."""

from __future__ import annotations

import html

import jinja2
import msgspec
import pytest

from polygon.projections.report import RunReport, _summaries, scenario_trials
from polygon.projections.verdicts import ConversationRecord, ConversationVerdict
from polygon.render import render_html, render_text
from polygon.render.phrases import verdict_reasons
from polygon.render.report import config_cells
from polygon.render.templating import environment
from polygon.score.verdict import Verdict

HOSTILE = "<b>'Tom' & \"Jerry\"</b>"


def _row(cid: str, config: str, composite: float | None, state: str = "fail") -> ConversationVerdict:
    verdict = (
        None
        if composite is None
        else Verdict(
            composite=composite,
            verdict=state,
            partial=False,
            unscored=[],
            missing=[],
            criteria=[],
            gates=[],
            state_reason=f"the agent said {HOSTILE}" if state != "pass" else "",
        )
    )
    record = ConversationRecord(conversation_id=cid, config=config, scenario="s")
    return ConversationVerdict(record=record, pass_id="p", judge="j", heuristic=False, verdict=verdict)


def _report() -> RunReport:
    rows = [
        _row("r.a'<.s.0", "a'<", 66.666),
        _row("r.a'<.s.1", "a'<", 91.0, "pass"),
        _row("r.b.s.0", "b", None),
    ]
    return RunReport(
        run_id='r"&<',
        rubric_version="v'1",
        rubric_hash="h" * 32,
        judges=["judge/'x'", "a&#39;b"],
        heuristic=False,
        configs=_summaries(rows),
        conversations=rows,
        scenarios=scenario_trials(rows),
    )


# What the page writes for _report(), byte for byte: html.escape's spelling of quotes (as the
# f-string renderer this template replaced wrote it), a `&#39;` in a value kept as text, and since
# its tables hold the text report's cells, the text report's columns (gates, loops, p95 ms), mean
# (one decimal), composite (none for an unjudged call) and why (none for a pass).
EXPECTED = (
    "<!doctype html><meta charset='utf-8'><title>Polygon report</title>"
    "<style>body{font:14px sans-serif;margin:2em}td,th{padding:2px 8px;text-align:left}"
    ".fail,.error{background:#fdd}.warn{background:#ffd}.pass{background:#dfd}"
    ".inconclusive,.simulator_error,.unjudged{background:#eee}</style>"
    "<h1>Run r&quot;&amp;&lt; · rubric v&#x27;1</h1><p>Judge: judge/&#x27;x&#x27;, a&amp;#39;b</p>"
    "<table><tr><th>config</th><th>calls</th><th>pass</th><th>warn</th><th>fail</th><th>error</th>"
    "<th>inconclusive</th><th>simulator error</th><th>mean</th><th>gates</th><th>loops</th><th>p95 ms</th></tr>"
    "<tr><td>a&#x27;&lt;</td><td>2</td><td>1</td><td>0</td><td>1</td><td>0</td><td>0</td><td>0</td><td>78.8</td>"
    "<td>0</td><td>0</td><td>—</td></tr>"
    "<tr><td>b</td><td>1</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>—</td>"
    "<td>0</td><td>0</td><td>—</td></tr></table>"
    "<h2>Conversations</h2><table><tr><th>conversation</th><th>verdict</th><th>composite</th><th>why</th></tr>"
    "<tr class='fail'><td>r.a&#x27;&lt;.s.0</td><td>fail</td><td>66.67</td>"
    "<td>the agent said &lt;b&gt;&#x27;Tom&#x27; &amp; &quot;Jerry&quot;&lt;/b&gt;</td></tr>"
    "<tr class='pass'><td>r.a&#x27;&lt;.s.1</td><td>pass</td><td>91.00</td><td></td></tr>"
    "<tr class='unjudged'><td>r.b.s.0</td><td>unjudged</td><td>—</td><td>not judged under this rubric</td></tr>"
    "</table>\n"
)


def test_the_page_is_the_expected_one() -> None:
    assert render_html(_report()) == EXPECTED


def test_the_tables_agree_with_the_text_report_a_pass_has_no_why() -> None:
    """A pass with reasons on record (a partial composite, failed checks) shows none, as text does."""
    report = _report()
    partial = msgspec.structs.replace(report.conversations[1].verdict, partial=True, unscored=["tone"])
    report.conversations[1] = msgspec.structs.replace(report.conversations[1], verdict=partial)
    assert "partial composite" in "; ".join(verdict_reasons(report.conversations[1]))
    page, text = render_html(report), render_text(report)
    assert "<tr class='pass'><td>r.a&#x27;&lt;.s.1</td><td>pass</td><td>91.00*</td><td></td></tr>" in page
    passed = next(line for line in text.splitlines() if line.startswith("r.a'<.s.1"))
    assert passed.split() == ["r.a'<.s.1", "pass", "91.00*"]
    for cells in (config_cells(c) for c in report.configs):
        assert "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>" in page


def test_every_value_is_escaped_and_the_page_is_one_line() -> None:
    page = render_html(_report())
    assert "<b>" not in page and "&lt;b&gt;&#x27;Tom&#x27; &amp; &quot;Jerry&quot;&lt;/b&gt;" in page
    assert page.count("\n") == 1 and page.endswith("</table>\n")


def test_the_environment_autoescapes_and_refuses_unknown_names() -> None:
    env = environment()
    assert (
        env.from_string("{{ x }}").render(x=HOSTILE)
        == "&lt;b&gt;&#39;Tom&#39; &amp; &#34;Jerry&#34;&lt;/b&gt;"
    )
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ nothing }}").render()


def test_the_web_run_page_takes_its_table_headers_from_the_report_tables() -> None:
    env = environment("polygon.web")
    tables = env.get_template("report/tables.html").module
    assert env.loader is not None and "report/tables.html" in env.loader.get_source(env, "run.html")[0]
    assert str(tables.config_head(["loops"])).endswith("<th>mean</th><th>loops</th>")  # type: ignore[attr-defined]
    assert str(tables.calls_head(True)).startswith("<th>conversation</th><th>caller</th>")  # type: ignore[attr-defined]
