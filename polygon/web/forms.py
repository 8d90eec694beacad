"""What a state-changing or expensive request must be: ours, small, and well-formed.

Each check raises :class:`Refused` with a status and one line; the page (or the JSON API)
that called it turns that into its answer.
"""

from __future__ import annotations

import json
import secrets
from urllib.parse import parse_qs

from starlette.requests import Request


class Refused(Exception):
    """A request refused with a status and one line (turned into a page or JSON by the caller)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def same_origin(request: Request, hosts: frozenset[str], token: str, given: object) -> None:
    """Refuse a state-changing or expensive request that did not come from our own page.

    It needs the per-server token (read from the page, which another origin cannot read) and
    an Origin whose scheme, host and port are this server's (http://127.0.0.1:PORT, aliases).
    """
    origin = request.headers.get("origin", "").lower()
    if origin not in {f"http://{h}" for h in hosts}:
        raise Refused(403, "refused: the request did not come from this server's own page (Origin)")
    if not isinstance(given, str) or not secrets.compare_digest(given.encode(), token.encode()):
        raise Refused(403, "refused: the request did not come from this server's own page (token)")


async def capped_body(request: Request, limit: int) -> bytes:
    """The request's body, refused with 413 past ``limit`` bytes (read no further than that)."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"refused: the request is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, f"refused: the request is larger than {limit} bytes")
    return bytes(body)


def media_type(request: Request) -> str:
    """The request's content type without parameters (``application/json; charset=utf-8`` → …)."""
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def lint_request(body: bytes) -> tuple[str, tuple[str, ...]]:
    """The text and tiers of a lint request (a JSON object), or a 400 naming what is wrong."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise Refused(400, 'expected a JSON object {"text": …, "tiers": …}') from None
    if not isinstance(data, dict):
        raise Refused(400, 'expected a JSON object {"text": …, "tiers": …}')
    text, tiers = data.get("text", ""), data.get("tiers", "rules")
    if not isinstance(text, str) or not isinstance(tiers, str):
        raise Refused(400, "text and tiers must be strings")
    known = tuple(t for t in tiers.split(",") if t in ("rules", "surprisal", "embeddings"))
    return text, known or ("rules",)


def save_form(body: bytes) -> dict[str, str]:
    """A URL-encoded form (the editor's save), each field once."""
    try:
        fields = parse_qs(
            body.decode("utf-8"), keep_blank_values=True, max_num_fields=16, strict_parsing=False
        )
    except (UnicodeDecodeError, ValueError):
        raise Refused(400, "expected a URL-encoded form") from None
    return {k: v[0] for k, v in fields.items()}
