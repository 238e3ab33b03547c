"""The whole model-backed path on the REAL local model (Qwen2.5-Coder-0.5B on llama.cpp's
server, 127.0.0.1, from the local-llm packages): a replay that compacts through it, the
response cache replayed without the server, recorded latencies reproducing a timeout, and a
real-clock timeout that abandons the live call.

One live summary is the cost (prompt processing runs at ~50-110 tokens/s on two cores and
~20 on one shared core), so the module records it once, on the first 39 lines of a short
session, whose one compaction (at their last barrier) sends a ~0.9k-token prompt (3.1k
characters, SOBA's instructions included) with at most 96 output tokens, and every other test
reuses that recording.
The recording uses SOBA's prompt with the json_schema response format, so llama.cpp's
constrained decoding is exercised too. The 0.5B model tends to repeat list items until its
output budget runs out (benchmarks/local_model.py), so the capsule is usually degraded;
a portable one is just as valid here.
"""

from __future__ import annotations

import json
import math
import urllib.request
from pathlib import Path

import pytest

from soba_bench.corpora.synthetic import generate_session
from soba_bench.corpora.synthetic.config import SyntheticConfig
from soba_bench.engine import outcome as O
from soba_bench.engine.config import build_engine_config
from soba_bench.models import local_server
from soba_bench.models.cache import ResponseCache
from soba_bench.models.local_server import LocalServer, ServerOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.session.model import Session
from soba_bench.summarizers import build_summarizer
from soba_bench.summarizers.prompts import load_prompt

pytestmark = pytest.mark.slow

SEED = 1
# A short session (50 entries, no 12k-token log dumps, smaller file reads), cut after its
# first 39 lines, and a window they outgrow exactly once, at the last barrier: one compaction
# whose prompt is 3.1k characters (the whole session under a 4.7k window sent 6.1k, and
# prompt processing is most of the live call). 96 output tokens bound a reply that runs on
# (SOBA's budget is min(4096, output reserve)): enough for the goal, which comes first.
SESSION = SyntheticConfig(entries=50, large_outputs_per_1k=0, file_read_tokens=300)
PREFIX = 39
CONFIG = {
    "contextWindow": 2000,
    "maxOutputTokens": 96,
    "systemPromptTokens": 200,
    "toolSchemaTokens": 200,
    "compaction": {
        "keepRecentTokens": 1000,
        "safetyReserveTokens": 512,
        "minTokensForAutoCompact": 1000,
        "minReclaimableTokens": 500,
    },
}
FIXED = {"kind": "fixed", "ms": 2000}  # a fast API's latency, well inside timeoutMs
PROMPT = "soba-0.6.14-json-schema"
LIVE = {"prompt": PROMPT}
# What SOBA can say about a compaction that went through the portable_only slot: the model's
# state (portable), its unparseable reply replaced inside the slot (degraded), or a parsed
# state the validator rejected, so the chain's deterministic slot wrote it (degraded).
MODEL_RESULTS = {
    ("portable_only", "portable"),
    ("portable_only", "degraded"),
    ("deterministic", "degraded"),
}
VOLATILE = ("id", "parentId", "timestamp")  # entry ids and wall-clock stamps
OUTCOMES = (O.COMPLETED, O.SKIPPED, O.CANCELLED, O.STALE, O.FAILED)  # SOBA's five


def config(**compaction) -> object:
    data = json.loads(json.dumps(CONFIG))
    data["compaction"].update(compaction)
    return build_engine_config(data)


def stable(capsules: list[dict]) -> list[dict]:
    return [{k: v for k, v in c.items() if k not in VOLATILE} for c in capsules]


@pytest.fixture(scope="module")
def session():
    whole = generate_session(SESSION, SEED, 0)[0]
    return Session(lines=whole.lines[:PREFIX])


@pytest.fixture(scope="module")
def recorded(session, tmp_path_factory):
    """One live replay through the local model; its answers land in a fresh cache."""
    cache = tmp_path_factory.mktemp("llm") / "responses.sqlite"
    spec = build_summarizer("local", cache_path=str(cache), latency=FIXED, **LIVE)
    trace = replay_session(session, config(), chain=spec.chain, clock=spec.clock)
    yield spec, trace, cache
    local_server.stop_local_servers()


def test_replay_compacts_through_the_local_model(recorded):
    spec, trace, cache = recorded
    invoker = spec.chain[0].invoker
    assert invoker.calls >= 1  # the real model answered
    assert len(ResponseCache(cache, "read-only")) == len(set(invoker.keys))
    attempts = [a for a in trace.attempts if a["strategy"] is not None]
    assert attempts, "the small window must force at least one compaction"
    for attempt in attempts:
        assert attempt["outcome"] in OUTCOMES
        assert (attempt["strategy"], attempt["quality"]) in MODEL_RESULTS
        assert "timed out" not in attempt["reason"]
    completed = [a for a in attempts if a["outcome"] == "completed"]
    assert len(trace.capsules) == len(completed) >= 1
    assert trace.capsules[0]["portableState"]["goal"].strip()


def test_prompt_id_and_model_are_recorded(recorded):
    spec, trace, _ = recorded
    record = spec.record()
    assert record["promptId"] == load_prompt(PROMPT).prompt_id
    assert record["responseFormat"] == "json_schema"
    assert record["model"] == "qwen2.5-coder-0.5b" and record["cache"] == "read-write"
    assert record["latency"] == FIXED and record["endpoint"] == "http://127.0.0.1"
    assert trace.config_line["strategy"] == "portable_only+deterministic"


def test_read_only_cache_replays_the_same_capsules_without_a_server(recorded, session):
    _, trace, cache = recorded
    local_server.stop_local_servers()
    spec = build_summarizer(
        "local", cache="read-only", cache_path=str(cache), latency=FIXED, **LIVE
    )
    replay = replay_session(session, config(), chain=spec.chain, clock=spec.clock)
    assert stable(replay.capsules) == stable(trace.capsules)
    assert [a["reason"] for a in replay.attempts] == [a["reason"] for a in trace.attempts]
    invoker = spec.chain[0].invoker
    assert invoker.calls == 0 and invoker.hits >= 1
    assert local_server._SERVERS == {}  # nothing was started


def test_recorded_latency_reproduces_a_timeout_on_the_virtual_clock(recorded, session):
    _, _, cache = recorded
    latency = max(ResponseCache(cache, "read-only").latencies())  # what the model really took
    spec = build_summarizer("local", cache="read-only", cache_path=str(cache), **LIVE)
    too_short = max(1, math.floor(latency) - 1)
    replay = replay_session(session, config(timeoutMs=too_short), chain=spec.chain)
    [attempt] = [a for a in replay.attempts if a["strategy"] is not None][:1]
    assert attempt["reason"] == (
        f"Compaction model timed out after {too_short}ms; completed using deterministic fallback"
    )
    assert (attempt["strategy"], attempt["quality"]) == ("deterministic", "degraded")


def test_real_clock_timeout_abandons_the_live_call(session, tmp_path: Path):
    # 64-token prompt steps: the server notices the abandoned request within one step (a few
    # seconds) instead of after the default 512 tokens (about 25 s on a shared core).
    with LocalServer(ServerOptions(batch=64)) as server:
        spec = build_summarizer("local", base_url=server.base_url, cache="off", clock="real")
        trace = replay_session(session, config(timeoutMs=50), chain=spec.chain, clock=spec.clock)
        attempts = [a for a in trace.attempts if a["strategy"] is not None]
        assert attempts
        for attempt in attempts:
            assert "timed out after 50ms" in attempt["reason"]
            assert attempt["strategy"] == "deterministic"
        invoker = spec.chain[0].invoker
        assert invoker.wait_idle(120)  # the abandoned request has ended (cut off, cancelled)
        assert invoker.calls == 0  # no answer was ever used, late or not
        assert len(trace.capsules) == sum(a["outcome"] == "completed" for a in attempts)
        with urllib.request.urlopen(server.url + "/health", timeout=5) as reply:
            assert reply.status == 200  # the server is still serving
        process = server.process
    assert process.poll() is not None  # stopped on leaving the context
