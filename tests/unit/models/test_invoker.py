"""The cached model invoker on both clocks, with a scripted client (no HTTP here)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from soba_bench.engine.attempt import AttemptContext, Interrupted, RealClock, VirtualClock
from soba_bench.errors import HarnessFault
from soba_bench.models.cache import CacheMissError, ResponseCache
from soba_bench.models.client import ChatReply, EndpointConfig, ModelCallError
from soba_bench.models.invoker import CachedModelInvoker
from soba_bench.models.latency import Fixed
from soba_bench.summarizers.prompts import RenderedPrompt

ENDPOINT = EndpointConfig("http://127.0.0.1:9/v1", "scripted")
WAIT = 10.0


class ScriptedClient:
    """Answers ``text`` after a simulated ``latency_ms``; ``block`` holds the answer until
    released or the call is cancelled."""

    def __init__(self, text="{}", latency_ms=1500.0, error=None, block=False, spent_ms=0.0):
        self.text, self.latency_ms, self.error = text, latency_ms, error
        self.spent_ms = spent_ms  # failed tries and backoffs before the answer or error
        self.requests: list[dict] = []
        self.started = threading.Event()
        self.release = threading.Event()
        self.block = block
        self.saw_cancel = False
        self.deadline = None

    def complete(self, request, *, deadline_s=None, cancelled=None, budget_ms=None) -> ChatReply:
        self.requests.append(request)
        self.deadline = deadline_s
        self.budget_ms = budget_ms
        self.started.set()
        if self.block:
            while not self.release.wait(0.01):
                if cancelled is not None and cancelled():
                    self.saw_cancel = True
                    raise ModelCallError("model call cancelled")
        if self.error:
            raise ModelCallError(self.error, self.spent_ms)
        usage = {"completion_tokens": 3}
        return ChatReply(self.text, self.latency_ms, "stop", usage, self.spent_ms)


def invoker(client, cache=None, latency=None) -> CachedModelInvoker:
    return CachedModelInvoker(ENDPOINT, lambda: client, cache, latency)


def virtual(timeout_ms: float = 15_000) -> AttemptContext:
    return AttemptContext(VirtualClock(), timeout_ms)


def test_virtual_clock_spends_the_recorded_latency_and_caches_the_answer(tmp_path: Path):
    client = ScriptedClient('{"goal":"g"}', latency_ms=1500)
    cache = ResponseCache(tmp_path / "c.sqlite")
    inv = invoker(client, cache)
    ctx = virtual()
    assert inv(RenderedPrompt("p", "id", 512), ctx) == '{"goal":"g"}'
    assert ctx.clock.now_ms() == 1500
    assert client.requests[0]["max_tokens"] == 512 and client.requests[0]["stream"] is False
    assert client.budget_ms == 15_000  # the virtual time left before the deadline
    again = virtual()
    assert inv(RenderedPrompt("p", "id", 512), again) == '{"goal":"g"}'
    assert again.clock.now_ms() == 1500  # the cached answer keeps its latency
    assert (inv.calls, inv.hits, len(client.requests)) == (1, 1, 1)
    assert inv.keys[0] == inv.keys[1]


def test_a_latency_model_overrides_the_measured_latency():
    ctx = virtual()
    invoker(ScriptedClient(latency_ms=1500), latency=Fixed(250))("p", ctx)
    assert ctx.clock.now_ms() == 250


def test_a_recorded_latency_beyond_the_deadline_times_the_attempt_out():
    ctx = virtual(timeout_ms=1000)
    with pytest.raises(Interrupted, match="timed out after 1000ms"):
        invoker(ScriptedClient(latency_ms=1500))("p", ctx)
    assert ctx.timed_out and ctx.clock.now_ms() == 1000


def test_an_attempt_already_over_sends_nothing():
    client = ScriptedClient()
    ctx = virtual()
    ctx._time_out()
    with pytest.raises(Interrupted):
        invoker(client)("p", ctx)
    assert client.requests == []


def test_a_model_failure_reaches_the_engine_as_a_model_error_after_its_retries():
    ctx = virtual()
    failing = ScriptedClient(error="HTTP 503: overloaded", spent_ms=7040)
    with pytest.raises(RuntimeError, match="HTTP 503"):
        invoker(failing, latency=Fixed(40))("p", ctx)
    # the tries and SOBA's backoffs, not the answer latency model, place the failure
    assert ctx.clock.now_ms() == 7040 and not ctx.aborted


def test_retries_before_an_answer_add_to_its_simulated_latency():
    ctx = virtual(timeout_ms=2000)
    inv = invoker(ScriptedClient('{"goal":"g"}', latency_ms=500, spent_ms=1010))
    assert inv("p", ctx) == '{"goal":"g"}'
    assert ctx.clock.now_ms() == 1510
    late = virtual(timeout_ms=2000)
    with pytest.raises(Interrupted, match="timed out after 2000ms"):
        invoker(ScriptedClient(latency_ms=500, spent_ms=3010))("p", late)
    assert late.timed_out and late.clock.now_ms() == 2000


def test_think_blocks_are_removed_from_the_text_but_cached_raw(tmp_path: Path):
    raw = '<think>{"goal": "decoy"}</think>\n {"goal": "real"}'
    cache = ResponseCache(tmp_path / "c.sqlite")
    inv = invoker(ScriptedClient(raw, latency_ms=10), cache)
    assert inv("p", virtual()) == '{"goal": "real"}'
    assert cache.get(inv.keys[0]).text == raw
    real = AttemptContext(RealClock(), 10_000)
    assert invoker(ScriptedClient(raw, latency_ms=10))("p", real) == '{"goal": "real"}'


def test_read_only_cache_miss_is_a_harness_fault_and_never_calls_the_model(tmp_path: Path):
    path = tmp_path / "c.sqlite"
    assert len(ResponseCache(path)) == 0  # an empty recording
    client = ScriptedClient()
    inv = invoker(client, ResponseCache(path, "read-only"))
    with pytest.raises(CacheMissError):
        inv("p", virtual())
    assert client.requests == []


def test_client_that_cannot_be_built_is_a_harness_fault():
    def broken():
        raise OSError("no such model file")

    inv = CachedModelInvoker(ENDPOINT, broken)
    with pytest.raises(HarnessFault, match="no such model file"):
        inv("p", virtual())


def test_real_clock_returns_a_timely_answer():
    ctx = AttemptContext(RealClock(), 10_000)
    client = ScriptedClient('{"goal":"g"}')
    assert invoker(client)("p", ctx) == '{"goal":"g"}'
    assert client.deadline is not None


def test_real_clock_deadline_abandons_the_call_and_cancels_it():
    client = ScriptedClient(block=True)
    inv = invoker(client)
    ctx = AttemptContext(RealClock(), 50)
    with pytest.raises(Interrupted, match="timed out after 50ms"):
        inv("p", ctx)
    assert ctx.timed_out
    assert inv.wait_idle(WAIT)
    assert client.saw_cancel  # the worker noticed the abort and stopped waiting
    assert inv.calls == 0


def test_real_clock_external_abort_stops_the_wait():
    from soba_bench.engine.attempt import AbortSignal

    client = ScriptedClient(block=True)
    inv = invoker(client)
    signal = AbortSignal()
    ctx = AttemptContext(RealClock(), 60_000, signal)
    threading.Thread(target=lambda: client.started.wait(WAIT) and signal.abort("stop")).start()
    with pytest.raises(Interrupted):
        inv("p", ctx)
    assert inv.wait_idle(WAIT) and client.saw_cancel


def test_real_clock_call_on_an_aborted_attempt_never_reaches_the_endpoint():
    client = ScriptedClient()
    inv = invoker(client)
    ctx = AttemptContext(RealClock(), 60_000)
    ctx._time_out()
    with pytest.raises(Interrupted):
        inv("p", ctx)
    assert inv.wait_idle(WAIT) and client.requests == []
