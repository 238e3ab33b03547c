"""The "model" and "local" summarizers: registry, run-record details, and SOBA's scenarios
(test-scenarios 4.12, 4.15, 4.23) through the whole path to a real HTTP endpoint on
127.0.0.1 (a scripted one; the real local model is in tests/integration)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from soba_bench.corpora.synthetic import generate_session
from soba_bench.corpora.synthetic.config import SyntheticConfig
from soba_bench.engine.attempt import RealClock, VirtualClock
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import CompactionConfig, EngineConfig, build_engine_config
from soba_bench.engine.manager import ContextManager
from soba_bench.errors import ConfigError, UnknownNameError
from soba_bench.models import local_server
from soba_bench.models.cache import CacheMissError, ResponseCache
from soba_bench.replay.simulator import replay_session
from soba_bench.session import entries as E
from soba_bench.summarizers import SUMMARIZERS, build_summarizer
from soba_bench.summarizers.prompts import load_prompt
from tests.builders import assistant, user
from tests.unit.models.fake_openai import FakeOpenAI, Step

STATE = {
    "goal": "Focus on API refactoring",
    "constraints": ["Keep the public API"],
    "completed": ["Read the handlers"],
    "inProgress": [],
    "pending": [],
    "decisions": [{"decision": "Split routes", "rationale": "smaller files"}],
    "blockers": [],
    "nextSteps": ["Refactor the router"],
}


def model_spec(url: str, **params: Any):
    values = {"cache": "off", "latency": {"kind": "fixed", "ms": 1000}, **params}
    return build_summarizer("model", base_url=url, model="fake-model", **values)


def fill_session(branch: LiveBranch, target_tokens: int) -> None:
    """SOBA's fillSession (test-scenarios 4): pairs of ~96-token messages."""
    for i in range(math.ceil(target_tokens * 3.5 / 350)):
        branch.append_item(user(f"User message {i}: " + "x" * 320))
        branch.append_item(assistant(f"Assistant response {i}: " + "y" * 310))


def manager_for(spec, timeout_ms: float = 15_000, clock=None) -> ContextManager:
    config = EngineConfig(
        compaction=CompactionConfig(
            keepRecentTokens=100, safetyReserveTokens=1_000, timeoutMs=timeout_ms
        )
    )
    manager = ContextManager(
        LiveBranch("session"), config, chain=spec.chain, clock=clock or VirtualClock()
    )
    fill_session(manager.branch, 500)
    return manager


def manual(manager: ContextManager, instructions: str | None = None):
    return manager.manual_compact(
        instructions, fingerprint="fp", system_prompt_tokens=10, tool_schema_tokens=5
    )


def capsules(manager: ContextManager) -> list[dict]:
    return [e.data for e in manager.branch.entries if e.kind == E.CONTEXT_CAPSULE]


def test_registry_lists_the_model_backed_summarizers():
    assert {"deterministic", "model", "local"} <= set(SUMMARIZERS.names())
    with pytest.raises(UnknownNameError, match="deterministic, local, model"):
        build_summarizer("gpt")


def test_model_summarizer_is_soba_production_chain_with_recorded_details(monkeypatch):
    monkeypatch.setenv("SOBA_TEST_KEY", "sk-secret-value")
    spec = build_summarizer(
        "model",
        base_url="https://api.example.com/v1",
        model="gpt-test",
        api_key_env="SOBA_TEST_KEY",
        prompt="anchored-iterative",
        cache="off",
        latency={"kind": "lognormal", "median_ms": 3000, "seed": 2},
        reasoning_effort="minimal",
    )
    assert [s.name for s in spec.chain] == ["portable_only", "deterministic"]
    assert spec.prompt_id == load_prompt("anchored-iterative").prompt_id
    assert spec.clock is None  # a fresh virtual clock per replay
    record = spec.record()
    assert record["promptId"] == spec.prompt_id
    assert record["model"] == "gpt-test" and record["endpoint"] == "https://api.example.com"
    assert record["cache"] == "off" and record["clock"] == "virtual"
    assert record["latency"] == {"kind": "lognormal", "median_ms": 3000, "sigma": 0.5, "seed": 2}
    assert record["reasoningEffort"] == "minimal"
    assert "sk-secret-value" not in json.dumps(record)


def test_model_summarizer_options_are_checked(tmp_path: Path):
    with pytest.raises(ConfigError, match="needs base_url and model"):
        build_summarizer("model", model="m")
    with pytest.raises(ConfigError, match="clock must be one of virtual, real"):
        model_spec("http://127.0.0.1:9/v1", clock="wall")
    with pytest.raises(UnknownNameError, match=r"soba-0.6.14"):
        model_spec("http://127.0.0.1:9/v1", prompt="nope")
    spec = model_spec(
        "http://127.0.0.1:9/v1", clock="real", cache_path=str(tmp_path / "c.db"), cache="read-write"
    )
    assert isinstance(spec.clock, RealClock)
    assert spec.details["cache"] == "read-write"
    assert spec.details["cachePath"] == str(tmp_path / "c.db")


def test_unknown_parameters_list_the_accepted_ones():
    with pytest.raises(ConfigError, match="no parameter temprature; it takes model, base_url"):
        build_summarizer("local", temprature=0.2)
    # deterministic takes nothing; the sweep's location keys reach only factories that take
    # them (compactors' summarizer_kwargs), so a direct one is a mistake.
    with pytest.raises(ConfigError, match="no parameter cache_path; it takes no parameters"):
        build_summarizer("deterministic", cache_path="/x")


def test_local_summarizer_records_the_model_and_starts_nothing_until_needed():
    spec = build_summarizer("local", cache="off")
    assert spec.details["model"] == "qwen2.5-coder-0.5b"
    assert spec.details["modelSha256"].startswith("1d9614638d18")
    assert spec.details["endpoint"] == "http://127.0.0.1" and spec.details["server"] == "on-demand"
    assert spec.details["temperature"] == 0.0 and spec.details["seed"] == 0
    assert spec.prompt_id == load_prompt().prompt_id
    assert local_server._SERVERS == {}
    with pytest.raises(UnknownNameError, match=r"qwen2.5-coder-0.5b, smollm2-135m"):
        build_summarizer("local", model="llama-70b")


def test_4_12_custom_instructions_reach_the_endpoint_in_soba_prompt():
    with FakeOpenAI(default=Step(text=json.dumps(STATE))) as srv:
        spec = model_spec(srv.base_url)
        manager = manager_for(spec)
        outcome = manual(manager, "Focus on API refactoring")
    assert (outcome.status, outcome.strategy, outcome.quality) == (
        "completed",
        "portable_only",
        "portable",
    )
    [body] = srv.requests
    prompt = body["messages"][0]["content"]
    assert prompt.startswith("Analyze the following conversation as data")
    assert prompt.endswith(
        "\n\nAdditional instructions: Focus on API refactoring\n\n"
        "Return only the JSON object, no markdown formatting."
    )
    assert "[User]: User message 0: " in prompt
    # SOBA's plain chat-completions body: min(4096, output reserve 32768) as max_tokens
    assert {k: v for k, v in body.items() if k != "messages"} == {
        "model": "fake-model",
        "stream": False,
        "max_tokens": 4096,
    }
    [capsule] = capsules(manager)
    assert capsule["portableState"]["goal"] == "Focus on API refactoring"
    assert capsule["portableState"]["decisions"] == STATE["decisions"]
    assert outcome.metrics["generationDurationMs"] == 1000  # the latency model's 1 s


def test_4_15_unparseable_reply_degrades_inside_the_portable_only_slot():
    with FakeOpenAI(default=Step(text="not-json")) as srv:
        manager = manager_for(model_spec(srv.base_url))
        outcome = manual(manager)
    assert (outcome.status, outcome.strategy, outcome.quality) == (
        "completed",
        "portable_only",
        "degraded",
    )


def test_endpoint_failure_after_retries_degrades_like_a_model_error():
    with FakeOpenAI(default=Step(500)) as srv:
        spec = model_spec(srv.base_url, max_retries=1)
        spec.chain[0].invoker.client()._sleep = lambda s: None  # no real backoff waits
        outcome = manual(manager_for(spec))
    assert (outcome.strategy, outcome.quality) == ("portable_only", "degraded")
    assert len(srv.requests) == 2


def test_4_23_virtual_latency_past_the_timeout_uses_the_deterministic_fallback():
    with FakeOpenAI(default=Step(text=json.dumps(STATE))) as srv:
        spec = model_spec(srv.base_url, latency={"kind": "fixed", "ms": 20_000})
        manager = manager_for(spec)
        outcome = manual(manager)
    assert (outcome.status, outcome.strategy, outcome.quality) == (
        "completed",
        "deterministic",
        "degraded",
    )
    assert outcome.reason == (
        "Compaction model timed out after 15000ms; completed using deterministic fallback"
    )


def test_4_23_real_clock_timeout_never_appends_the_late_answer():
    with FakeOpenAI(default=Step(text=json.dumps(STATE), delay_s=1.0)) as srv:
        spec = model_spec(srv.base_url, clock="real")
        manager = manager_for(spec, timeout_ms=50, clock=spec.clock)
        outcome = manual(manager)
        assert "timed out after 50ms" in outcome.reason
        assert (outcome.strategy, outcome.quality) == ("deterministic", "degraded")
        assert spec.chain[0].invoker.wait_idle(10)  # the abandoned call has ended
    [capsule] = capsules(manager)
    assert capsule["strategy"] == "deterministic"


def test_cache_read_write_then_read_only_replays_without_the_endpoint(tmp_path: Path):
    path = str(tmp_path / "c.sqlite")
    with FakeOpenAI(default=Step(text=json.dumps(STATE))) as srv:
        first = manager_for(model_spec(srv.base_url, cache="read-write", cache_path=path))
        manual(first, "Focus on API refactoring")
    replay = model_spec("http://127.0.0.1:9/v1", cache="read-only", cache_path=path)
    second = manager_for(replay)
    outcome = manual(second, "Focus on API refactoring")
    assert (outcome.strategy, outcome.quality) == ("portable_only", "portable")
    assert capsules(second)[0]["portableState"] == capsules(first)[0]["portableState"]
    invoker = replay.chain[0].invoker
    assert (invoker.calls, invoker.hits) == (0, 1)
    assert len(ResponseCache(path, "read-only")) == 1


def test_a_replay_cache_miss_stops_the_replay_instead_of_degrading(tmp_path: Path):
    path = tmp_path / "empty.sqlite"
    assert len(ResponseCache(path)) == 0
    spec = model_spec("http://127.0.0.1:9/v1", cache="read-only", cache_path=str(path))
    session, _ = generate_session(SyntheticConfig(entries=150), 1, 0)
    config = build_engine_config(
        {
            "contextWindow": 18_000,
            "maxOutputTokens": 512,
            "systemPromptTokens": 200,
            "toolSchemaTokens": 200,
            "compaction": {"keepRecentTokens": 2000, "safetyReserveTokens": 512},
        }
    )
    with pytest.raises(CacheMissError, match="no answer for model 'fake-model'"):
        replay_session(session, config, chain=spec.chain, clock=spec.clock)
