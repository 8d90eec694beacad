"""A Polygon HTTP agent in the Python standard library only: `python agent_server.py 8765`.

Point a configuration at it:  agent: http://127.0.0.1:8765/step

It shows every part of the protocol: it asks for a tool call when the caller names a code
such as PX-100 (the first argument the tool requires gets the code), answers from the tool's
result on the next step of the same turn, and ends the call when the caller says goodbye.
"""

import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CODE = re.compile(r"\b[A-Z]{1,3}-?\d{2,}\b")


def step(body: dict) -> dict:
    """One agent step: the request body in, the reply out."""
    heard = body["heard"]
    if body["tool_results"]:  # the same turn, stepped again with what the tools answered
        said = []
        for result in body["tool_results"]:
            if result["error"]:
                said.append(f"I could not check that ({result['error']}).")
            elif isinstance(result["result"], dict):
                found = ", ".join(f"{key} is {value}" for key, value in result["result"].items())
                said.append(f"Done, I checked: {found}. Anything else?")
            else:
                said.append(f"Done, I checked: {json.dumps(result['result'])}. Anything else?")
        return {"reply": " ".join(said)}
    if re.search(r"\b(bye|goodbye|that's all)\b", heard, re.IGNORECASE):
        return {"reply": "Goodbye!", "end": "hangup"}
    code = CODE.search(heard.upper())
    if code and body["tools"]:
        tool = body["tools"][0]["function"]
        required = tool["parameters"].get("required") or list(tool["parameters"].get("properties", {}))
        if required:
            call = {"id": f"t{body['turn']}", "name": tool["name"], "arguments": {required[0]: code.group(0)}}
            return {"tool_calls": [call]}
    return {"reply": "Hello! What is the code, please?"}


class Handler(BaseHTTPRequestHandler):
    """POST /step: a JSON step in, a JSON reply out."""

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        length = int(self.headers.get("content-length", 0))
        try:
            reply = step(json.loads(self.rfile.read(length)))
            status, payload = 200, json.dumps(reply).encode()
        except Exception as exc:  # a bad request: Polygon records a non-200 as the agent's error
            status, payload = 500, json.dumps({"error": str(exc)}).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass


def serve(port: int) -> ThreadingHTTPServer:
    """A server on 127.0.0.1:port (0: any free port); call serve_forever() on it."""
    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


if __name__ == "__main__":
    server = serve(int(sys.argv[1]) if len(sys.argv) > 1 else 8765)
    print(f"agent on http://127.0.0.1:{server.server_port}/step", flush=True)
    server.serve_forever()
