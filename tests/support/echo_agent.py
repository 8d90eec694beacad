"""An HTTP agent on 127.0.0.1 that says back every credential it was sent, as a careless one might.

Each step it answers with the ``Authorization`` header it got, its request path (query as
written) and the query's values as parsed, in the reply text and in a tool call's arguments;
the call hangs up from turn 2. :attr:`EchoServer.authorization` keeps what each step was sent.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class EchoServer(ThreadingHTTPServer):
    authorization: list[str]

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no path)."""
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Echo(BaseHTTPRequestHandler):
    server: EchoServer

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        step = json.loads(self.rfile.read(int(self.headers["content-length"])))
        said = self.headers.get("authorization", "")
        self.server.authorization.append(said)
        values = [v for vs in urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).values() for v in vs]
        echo = f"I was sent {said} at {self.path} with {' '.join(values)}"
        answer: dict[str, Any] = {"reply": f"Your order is noted. {echo}.", "end": "hangup" if step["turn"] >= 2 else ""}
        if not step["tool_results"]:
            answer["tool_calls"] = [{"id": "c1", "name": "note_order", "arguments": {"echo": echo, "auth": said}}]
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def echo_agent() -> Iterator[EchoServer]:
    """A running :class:`EchoServer`, shut down on exit."""
    running = EchoServer(("127.0.0.1", 0), _Echo)
    running.daemon_threads = True
    running.authorization = []
    threading.Thread(target=running.serve_forever, daemon=True).start()
    try:
        yield running
    finally:
        running.shutdown()
        running.server_close()
