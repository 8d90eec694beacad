"""Model-client throughput: calls per second at concurrency 32 against a local server that
answers every request after a fixed 200 ms, as a ratio of the ideal 32 / 0.2 s = 160/s."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import multiprocessing.queues
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from polygon.models.openai import OpenAIClient

DELAY_S = 0.2
CONCURRENCY = 32
BODY = json.dumps(
    {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}],
        "usage": {"total_tokens": 3},
    }
).encode()


class _Slow(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as a real server would
    disable_nagle_algorithm = True  # headers and body go out as two writes: no 40 ms Nagle stalls

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers["content-length"]))
        time.sleep(DELAY_S)
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # 32 clients connect at once; the default backlog of 5 drops SYNs
    daemon_threads = True


def _serve(port: multiprocessing.queues.Queue) -> None:  # type: ignore[type-arg]
    server = _Server(("127.0.0.1", 0), _Slow)
    server.daemon_threads = True
    port.put(server.server_address[1])
    server.serve_forever()


def measure(calls: int = 320) -> tuple[float, float]:
    """(calls per second, ratio to the ideal). The server runs in its own process, so it
    does not share the client's interpreter lock."""
    ports: multiprocessing.queues.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    proc = multiprocessing.Process(target=_serve, args=(ports,), daemon=True)
    proc.start()
    url = f"http://127.0.0.1:{ports.get(timeout=30)}/v1"

    async def go() -> float:
        client = OpenAIClient(url, concurrency=CONCURRENCY)
        request = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        await asyncio.gather(*(client.complete(request) for _ in range(CONCURRENCY)))  # warm the pool
        t0 = time.perf_counter()
        answers = await asyncio.gather(*(client.complete(request) for _ in range(calls)))
        elapsed = time.perf_counter() - t0
        await client.aclose()
        assert all(a.text == "ok" for a in answers)
        return calls / elapsed

    try:
        rate = asyncio.run(go())
    finally:
        proc.terminate()
    return rate, rate / (CONCURRENCY / DELAY_S)
