"""A real HTTP server on 127.0.0.1 speaking the OpenAI wire format, with scripted faults.

Each request pops the next behaviour from a queue (the last one repeats):
``ok:TEXT``, ``tool:NAME:ARGS``, ``429:SECONDS``, ``500``, ``slow:SECONDS``, ``truncated``,
``malformed``, ``400schema`` (rejects JSON-schema output), ``404``, ``401echo`` (the key echoed
in the body), ``raw:BODY`` (a 200 with exactly BODY).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FaultServer:
    def __init__(self, behaviours: list[str]) -> None:
        self.behaviours = list(behaviours)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()
        self.inflight = 0
        self.max_inflight = 0
        self.smart: Any = None

    def next(self) -> str:
        with self.lock:
            return self.behaviours.pop(0) if len(self.behaviours) > 1 else self.behaviours[0]


def completion(text: str | None, tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "x",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13},
    }


def _handler(server: FaultServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            with server.lock:
                server.requests.append(body)
                server.headers.append(dict(self.headers))
            behaviour = server.next()
            kind, _, arg = behaviour.partition(":")
            if kind == "429":
                return self._send(429, b'{"error": "slow down"}', {"retry-after": arg})
            if kind == "500":
                return self._send(500, b'{"error": "boom"}')
            if kind == "401echo":  # as many proxies do: the key comes back in the body
                said = json.dumps({"error": f"invalid key {self.headers.get('authorization', '')}"})
                return self._send(401, said.encode())
            if kind == "raw":  # a 200 of any shape, verbatim
                return self._send(200, arg.encode())
            if kind == "404":
                return self._send(404, b'{"error": "no such model"}')
            if kind == "400schema":
                if body.get("response_format", {}).get("type") == "json_schema":
                    return self._send(400, b'{"error": "response_format json_schema is not supported"}')
                return self._send(200, json.dumps(completion('{"answer": "yes", "evidence": "e"}')).encode())
            if kind == "slow":
                time.sleep(float(arg))
                return self._send(200, json.dumps(completion("late")).encode())
            if kind == "truncated":
                return self._send(200, json.dumps(completion("cut")).encode()[:25])
            if kind == "malformed":
                return self._send(200, b"<html>not json</html>")
            if kind == "tool":
                name, _, args = arg.partition(":")
                call = {"id": "call-1", "type": "function", "function": {"name": name, "arguments": args}}
                return self._send(200, json.dumps(completion(None, [call])).encode())
            if kind == "delay":
                with server.lock:
                    server.inflight += 1
                    server.max_inflight = max(server.max_inflight, server.inflight)
                time.sleep(float(arg))
                with server.lock:
                    server.inflight -= 1
                return self._send(200, json.dumps(completion("ok")).encode())
            if kind == "smart":
                return self._send(200, json.dumps(server.smart(body)).encode())
            return self._send(200, json.dumps(completion(arg)).encode())

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextmanager
def serve(behaviours: list[str]) -> Iterator[tuple[str, FaultServer]]:
    state = FaultServer(behaviours)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", state
    finally:
        httpd.shutdown()
        httpd.server_close()
