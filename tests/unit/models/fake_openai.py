"""A scripted OpenAI-compatible chat endpoint on 127.0.0.1 for client and summarizer tests:
a real HTTP server (stdlib), whose answers are a script of statuses, bodies and delays."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.local_http import LocalHTTP


@dataclass
class Step:
    status: int = 200
    text: str | None = "{}"  # the assistant message (status 200)
    body: dict[str, Any] | None = None  # a whole JSON body instead
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    finish_reason: str = "stop"


def completion(text: str, finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


class FakeOpenAI(LocalHTTP):
    """``with FakeOpenAI([Step(503), Step(text="...")]) as srv: srv.base_url``. After the
    script, ``default`` answers (a Step, or a function of the request body)."""

    def __init__(
        self,
        script: list[Step] | None = None,
        default: Step | Callable[[dict[str, Any]], Step] | None = None,
    ) -> None:
        self.script = list(script or [])
        self.default = default or Step()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append(body)
                    fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                    step = fake.script.pop(0) if fake.script else fake.default
                if callable(step):
                    step = step(body)
                if step.delay_s:
                    time.sleep(step.delay_s)
                if step.body is not None:
                    payload = step.body
                elif step.status == 200:
                    payload = completion(step.text or "", step.finish_reason)
                else:
                    payload = {"error": {"message": f"scripted {step.status}", "type": "test"}}
                data = json.dumps(payload).encode()
                try:
                    self.send_response(step.status)
                    if "content-type" not in {k.lower() for k in step.headers}:
                        self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for key, value in step.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        self._serve(Handler)
