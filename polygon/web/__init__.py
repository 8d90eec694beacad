"""``polygon serve``: the local web UI over the log (read-only, but for saving a prompt).

Starlette on uvicorn, bound to 127.0.0.1; Jinja2 templates with autoescape; charts drawn as
SVG on the server; one small script of our own (no CDN: it works offline); a strict
Content-Security-Policy with no inline script. Every number a page shows comes from the
same use cases and projections as the CLI's ``--json`` (the browser tests compare them).
"""
