"""An OpenAI-compatible chat endpoint on 127.0.0.1 that misbehaves on purpose (stdlib
``http.server`` in a thread): HTTP 500, hanging past the deadline, garbage text, a non-JSON
body, JSON of the wrong shape, a 10 MB answer, a dropped connection. ``plan`` maps the n-th
request (0-based) to a fault name, so one server can feed a whole replay a mix of faults."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.local_http import LocalHTTP

VALID_STATE = {
    "goal": "Finish the refactoring",
    "constraints": [],
    "completed": [],
    "inProgress": [],
    "pending": [],
    "decisions": [],
    "blockers": [],
    "nextSteps": ["Run the tests"],
}


def completion(content: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fault",
        "object": "chat.completion",
        "created": 0,
        "model": "fault",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
    }


# fault name -> (status, body bytes); "hang" and "late" delay a valid answer, "drop" closes.
BODIES: dict[str, tuple[int, bytes]] = {
    "ok": (200, json.dumps(completion(json.dumps(VALID_STATE))).encode()),
    "http-500": (500, b'{"error": {"message": "injected", "type": "server_error"}}'),
    "garbage-text": (200, json.dumps(completion("}{ not a state \u0000 [[ \ud800")).encode()),
    "non-json-body": (200, b"<html>502 Bad Gateway</html>\x00\xff"),
    "wrong-shape-body": (200, b'{"choices": "none", "usage": 5}'),
    "wrong-types-state": (
        200,
        json.dumps(
            completion(
                json.dumps({"goal": 5, "constraints": "x", "decisions": [1, None], "blockers": {}})
            )
        ).encode(),
    ),
    "null-content": (200, json.dumps(completion(None)).encode()),
    "huge-10mb": (200, json.dumps(completion("x" * 10_000_000)).encode()),
    "huge-10mb-state": (
        200,
        json.dumps(completion(json.dumps({**VALID_STATE, "goal": "g" * 10_000_000}))).encode(),
    ),
}
FAULTS = [f for f in BODIES if f != "ok"] + ["hang", "drop"]


class FaultServer(LocalHTTP):
    """``with FaultServer(lambda n: "http-500") as srv: srv.base_url``."""

    def __init__(
        self,
        plan: Callable[[int], str],
        hang_s: float = 3.0,
        on_request: Callable[[str], None] | None = None,
        echo: Callable[[str], Any] | None = None,
    ) -> None:
        self.plan = plan
        self.on_request = on_request  # e.g. abort the turn while the answer is on its way
        self.echo = echo  # fault "echo": the reply is echo(prompt), e.g. prompt text copied back
        self.authorization: list[str] = []  # Authorization headers received
        self.errors: list[str] = []  # exceptions raised by ``echo``
        self.hang_s = hang_s
        self.served: list[str] = []
        self.finished = threading.Event()  # set whenever a delayed answer has been sent
        self._lock = threading.Lock()
        fault = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                request = self.rfile.read(int(self.headers.get("content-length") or 0))
                with fault._lock:
                    name = fault.plan(len(fault.served))
                    fault.served.append(name)
                    fault.authorization.append(self.headers.get("authorization") or "")
                if fault.on_request is not None:
                    fault.on_request(name)
                if name == "drop":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if name in ("hang", "late"):
                    time.sleep(fault.hang_s)
                status, body = BODIES.get(name, BODIES["ok"])
                if name == "echo" and fault.echo is not None:
                    try:
                        prompt = json.loads(request)["messages"][-1]["content"]
                        body = json.dumps(completion(fault.echo(prompt))).encode()
                    except Exception as exc:  # a broken test double must show, not hang
                        fault.errors.append(repr(exc))
                        status, body = BODIES["http-500"]
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up
                finally:
                    if name in ("hang", "late"):
                        fault.finished.set()

            def log_message(self, *args: Any) -> None:
                pass

        self._serve(Handler)
