"""The pages, one module per page (or per group of pages that share their data)."""

from __future__ import annotations

from starlette.routing import Route

from polygon.web.pages import compare, conversation, prompt, run, runs

ROUTES: list[Route] = [*runs.ROUTES, *run.ROUTES, *compare.ROUTES, *conversation.ROUTES, *prompt.ROUTES]
"""Every page's routes, in the order they are matched."""

__all__ = ["ROUTES"]
