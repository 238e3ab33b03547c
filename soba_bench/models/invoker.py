"""The model invoker the engine's portable_only slot calls: prompt in, reply text out, with
the response cache in front of the endpoint and the attempt's clock deciding how the wait is
spent. The text handed to the engine is SOBA's visible answer (``<think>`` blocks removed,
:func:`~soba_bench.models.client.visible_text`); the cache keeps the raw answer.

* Virtual clock: the reply is fetched now (cache, else a live call that is then cached), and
  handed to the engine as a ``SimulatedReply`` whose latency is the simulated retry schedule
  (failed tries as measured plus SOBA's backoff delays, never slept) plus the answer's latency
  from the latency model (``recorded`` by default: the measured or cached latency). The
  deadline race is simulated, so a deadline that falls in a backoff is SOBA's timeout.
* Real clock: the fetch runs inside ``ctx.call_model``'s worker thread, so the engine's
  deadline and the turn's abort really stop the wait, a backoff sleep included. The HTTP call
  is cut off shortly after the attempt deadline and told to stop once the attempt aborted; a
  late answer may still be cached, but the engine never uses it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from soba_bench.engine.attempt import AttemptContext, SimulatedReply
from soba_bench.errors import HarnessFault
from soba_bench.meter.soba import estimate_text
from soba_bench.models.cache import CachedReply, ResponseCache, request_key
from soba_bench.models.client import (
    ChatClient,
    EndpointConfig,
    ModelCallError,
    build_request,
    visible_text,
)
from soba_bench.models.latency import CallFacts, LatencyModel, Recorded

# Grace after the attempt deadline before an abandoned HTTP call is cut off: the engine has
# moved on by then, and a server with one slot should stop working on it.
ABANDON_GRACE_S = 0.5


class CachedModelInvoker:
    """``invoker(prompt, ctx) -> str`` for PortableOnlyStrategy. ``client_factory`` is called
    on the first cache miss only, so a replay from a read-only cache never needs an endpoint
    (nor starts a local server)."""

    def __init__(
        self,
        endpoint: EndpointConfig,
        client_factory: Callable[[], ChatClient],
        cache: ResponseCache | None = None,
        latency: LatencyModel | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.cache = cache
        self.latency = latency or Recorded()
        self._client_factory = client_factory
        self._client: ChatClient | None = None
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._in_flight = 0
        self.calls = 0  # live model calls made
        self.hits = 0  # answers served from the cache
        self.keys: list[str] = []  # the cache key of every request, in order

    # ── the engine-facing call ──────────────────────────────────────────────────
    def __call__(self, prompt: str, ctx: AttemptContext) -> str:
        request = build_request(
            self.endpoint,
            prompt,
            getattr(prompt, "max_output_tokens", None),
            getattr(prompt, "response_format", None),
        )
        key = request_key(self.endpoint.model, request)
        if ctx.clock.real:
            return self._real(key, request, ctx)
        if ctx.aborted:  # nothing may be spent on an attempt that is already over
            return ctx.call_model(SimulatedReply())
        budget_ms = ctx.deadline_ms - ctx.clock.now_ms()
        try:
            reply, waited_ms = self._fetch(key, request, budget_ms=budget_ms)
        except ModelCallError as exc:
            return ctx.call_model(SimulatedReply(error=str(exc), latency_ms=exc.spent_ms))
        facts = CallFacts(key, estimate_text(prompt), estimate_text(reply.text), reply.latency_ms)
        latency = waited_ms + self._ms(facts)
        return ctx.call_model(SimulatedReply(text=visible_text(reply.text), latency_ms=latency))

    def _ms(self, facts: CallFacts) -> float:
        return self.latency.latency_ms(facts)

    def _real(self, key: str, request: dict[str, Any], ctx: AttemptContext) -> str:
        deadline = time.monotonic() + (ctx.deadline_ms - ctx.clock.now_ms()) / 1000.0
        claimed = [False]  # set by whoever gets there first: the worker, or the caller giving up

        def run() -> str:
            with self._lock:
                if claimed[0]:
                    return ""  # abandoned before it started: never reaches the endpoint
                claimed[0] = True
            try:
                reply = self.fetch(
                    key,
                    request,
                    deadline_s=deadline + ABANDON_GRACE_S,
                    cancelled=lambda: ctx.aborted,
                )
                return visible_text(reply.text)
            finally:
                self._done()

        with self._lock:
            self._in_flight += 1
        try:
            return ctx.call_model(run)
        finally:
            with self._lock:
                never_started = not claimed[0]
                claimed[0] = True
            if never_started:
                self._done()

    def _done(self) -> None:
        with self._idle:
            self._in_flight -= 1
            self._idle.notify_all()

    # ── cache, then endpoint ────────────────────────────────────────────────────
    def fetch(
        self,
        key: str,
        request: dict[str, Any],
        *,
        deadline_s: float | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> CachedReply:
        """The answer to ``request``: from the cache (read-only mode: a miss is a
        :class:`CacheMissError`), else from the endpoint, then stored."""
        return self._fetch(key, request, deadline_s=deadline_s, cancelled=cancelled)[0]

    def _fetch(
        self,
        key: str,
        request: dict[str, Any],
        *,
        deadline_s: float | None = None,
        cancelled: Callable[[], bool] | None = None,
        budget_ms: float | None = None,
    ) -> tuple[CachedReply, float]:
        """``fetch`` plus the milliseconds spent on failed tries and backoffs before the
        answer (0 for a cached one: failures are never stored)."""
        model = self.endpoint.model
        self.keys.append(key)
        if self.cache is not None:
            if self.cache.mode == "read-only":
                reply = self.cache.require(key, model)
                self.hits += 1
                return reply, 0.0
            cached = self.cache.get(key)
            if cached is not None:
                self.hits += 1
                return cached, 0.0
        answer = self.client().complete(
            request, deadline_s=deadline_s, cancelled=cancelled, budget_ms=budget_ms
        )
        self.calls += 1
        reply = CachedReply(answer.text, answer.latency_ms, answer.finish_reason, answer.usage)
        if self.cache is not None:
            self.cache.put(key, model, request, reply, self.endpoint.origin)
        return reply, answer.waited_ms

    def client(self) -> ChatClient:
        with self._lock:
            if self._client is None:
                try:
                    self._client = self._client_factory()
                except HarnessFault:
                    raise
                except Exception as exc:  # a server that cannot start is the harness's fault
                    raise HarnessFault(f"cannot reach the model endpoint: {exc}") from exc
            return self._client

    def wait_idle(self, timeout_s: float | None = None) -> bool:
        """Wait until no abandoned real-clock call is still running (tests, clean shutdown)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._in_flight == 0, timeout=timeout_s)
