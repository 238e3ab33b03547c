"""A ``timeoutMs`` sweep against a flaky endpoint on the virtual clock: SOBA's retry schedule
(1 s, 2 s, 4 s; ``Retry-After``) is simulated, not slept, so the sweep costs the HTTP round
trips only.

Replays the conformance session ``cc4-failures`` (config C0, one compaction) through the
``model`` summarizer against a local scripted endpoint on 127.0.0.1, for each endpoint
behaviour and each ``timeoutMs``, and prints per cell the decision (strategy/quality, or
``timeout`` when the deadline fell in a wait), the requests the endpoint saw, the simulated
attempt duration and the wall time; then the totals: simulated seconds vs wall seconds.

    python benchmarks/model_backoff_sweep.py [--timeouts 500 1000 2000 4000 8000 16000]
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from soba_bench.engine.config import build_engine_config
from soba_bench.replay.simulator import replay_session
from soba_bench.session import read_session
from soba_bench.summarizers import build_summarizer

ROOT = Path(__file__).resolve().parents[1] / "corpora" / "soba-conformance"
ANSWER = {"goal": "g", "blockers": []}  # parses; the validator's verdict does not matter here

# behaviour -> list of (status, headers) for the first requests; then a 200 answer
BEHAVIOURS = {
    "500-once": [(500, {})],
    "500-twice": [(500, {}), (503, {})],
    "429-retry-after-3": [(429, {"Retry-After": "3"})],
    "500-persistent": [(500, {})] * 100,
}


class Flaky:
    def __init__(self, script: list[tuple[int, dict[str, str]]]) -> None:
        self.script, self.requests = list(script), 0
        flaky = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length") or 0))
                flaky.requests += 1
                status, headers = flaky.script.pop(0) if flaky.script else (200, {})
                content = json.dumps(ANSWER)
                body = {"choices": [{"message": {"role": "assistant", "content": content}}]}
                if status != 200:
                    body = {"error": {"message": "flaky", "type": "server_error"}}
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--timeouts", type=int, nargs="+", default=[500, 1000, 2000, 4000, 8000, 16000]
    )
    args = parser.parse_args()
    session = read_session(ROOT / "sessions" / "cc4-failures.jsonl.gz")
    base = json.loads((ROOT / "configs" / "C0.json").read_text())
    simulated_ms = wall_s = 0.0
    head = ("behaviour", "timeoutMs", "decision", "requests", "simMs", "wallMs")
    print("{:<20} {:>9}  {:<24} {:>8} {:>6} {:>7}".format(*head))
    for name, script in BEHAVIOURS.items():
        for timeout in args.timeouts:
            base["compaction"]["timeoutMs"] = timeout
            server = Flaky(script)
            spec = build_summarizer("model", base_url=server.base_url, model="flaky", cache="off")
            started = time.perf_counter()
            trace = replay_session(
                session, build_engine_config(base), chain=spec.chain, clock=spec.clock
            )
            wall = time.perf_counter() - started
            server.close()
            [attempt] = trace.attempts
            timed_out = "timed out" in attempt["reason"]
            verdict = "timeout" if timed_out else f"{attempt['strategy']}/{attempt['quality']}"
            simulated_ms += attempt["durationMs"]
            wall_s += wall
            print(
                f"{name:<20} {timeout:>9}  {verdict:<24} {server.requests:>8} "
                f"{attempt['durationMs']:>6} {wall * 1000:>7.0f}"
            )
    print(f"total: {simulated_ms / 1000:.1f} s simulated attempt time in {wall_s:.2f} s wall")


if __name__ == "__main__":
    main()
