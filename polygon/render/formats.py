"""The report's output formats by name: what ``polygon report --format`` chooses from."""

from __future__ import annotations

from polygon.render.report import render_html, render_json, render_junit, render_markdown, render_text

RENDERERS = {
    "text": render_text,
    "json": render_json,
    "junit": render_junit,
    "html": render_html,
    "markdown": render_markdown,
}
"""Format name → the renderer of a whole report (``json`` is also streamed: ``json_chunks``)."""
