"""The OpenAI-compatible client against a scripted HTTP server on 127.0.0.1: request body,
retries with backoff, error sorting, keys from the environment, deadline and cancellation."""

from __future__ import annotations

import pytest

from soba_bench.errors import ConfigError, HarnessFault
from soba_bench.summarizers.client import (
    ChatClient,
    EndpointConfig,
    ModelCallError,
    build_request,
)
from soba_bench.summarizers.prompts import RenderedPrompt
from tests.unit.summarizers.fake_openai import FakeOpenAI, Step


def client(url: str, sleeps: list[float] | None = None, **kw) -> ChatClient:
    config = EndpointConfig(url, "test-model", **kw)
    return ChatClient(config, sleep=(sleeps.append if sleeps is not None else None))


def request(config: EndpointConfig, text: str = "hi", **kw) -> dict:
    return build_request(config, text, **kw)


def test_request_body_is_soba_single_user_message_with_output_budget():
    config = EndpointConfig(
        "http://127.0.0.1:1/v1",
        "m",
        temperature=0.0,
        seed=3,
        frequency_penalty=0.4,
        presence_penalty=0.2,
        reasoning_effort="low",
    )
    prompt = RenderedPrompt("Summarize", "p@1", max_output_tokens=512)
    schema = {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}
    body = build_request(config, prompt, prompt.max_output_tokens, schema)
    assert body == {
        "model": "m",
        "messages": [{"role": "user", "content": "Summarize"}],
        "max_completion_tokens": 512,
        "temperature": 0.0,
        "seed": 3,
        "frequency_penalty": 0.4,
        "presence_penalty": 0.2,
        "reasoning_effort": "low",
        "response_format": schema,
    }
    assert type(body["messages"][0]["content"]) is str  # plain JSON, not the str subclass
    legacy = EndpointConfig("http://127.0.0.1:1/v1", "m", max_tokens_param="max_tokens")
    assert build_request(legacy, "x") == {
        "model": "m",
        "messages": [{"role": "user", "content": "x"}],
        "max_tokens": 4096,
    }


def test_reply_is_the_first_assistant_message_with_usage_and_latency():
    with FakeOpenAI([Step(text='{"goal": "g"}', finish_reason="length")]) as srv:
        c = client(srv.base_url)
        reply = c.complete(request(c.config))
    assert reply.text == '{"goal": "g"}' and reply.finish_reason == "length"
    assert reply.usage == {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    assert reply.latency_ms > 0
    assert srv.requests == [request(c.config)]


def test_null_content_is_an_empty_reply():
    body = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": None}}],
    }
    with FakeOpenAI([Step(body=body)]) as srv:
        c = client(srv.base_url)
        assert c.complete(request(c.config)).text == ""


def test_transient_errors_are_retried_with_growing_jittered_backoff():
    script = [Step(503), Step(502), Step(500), Step(text="ok")]
    sleeps: list[float] = []
    with FakeOpenAI(script) as srv:
        c = client(srv.base_url, sleeps, max_retries=3, backoff_s=1.0, backoff_max_s=3.0)
        assert c.complete(request(c.config)).text == "ok"
    assert len(srv.requests) == 4
    # base 1, 2, 4 capped at 3; jitter keeps each delay within [base/2, base]
    for delay, base in zip(sleeps, [1.0, 2.0, 3.0], strict=True):
        assert base / 2 <= delay <= base


def test_rate_limit_honours_retry_after():
    sleeps: list[float] = []
    with FakeOpenAI([Step(429, headers={"retry-after": "7"}), Step(text="ok")]) as srv:
        c = client(srv.base_url, sleeps, backoff_s=0.1)
        assert c.complete(request(c.config)).text == "ok"
    assert sleeps == [7.0]


def test_retries_give_up_after_max_retries():
    with FakeOpenAI(default=Step(503)) as srv:
        c = client(srv.base_url, [], max_retries=2)
        with pytest.raises(ModelCallError, match="HTTP 503"):
            c.complete(request(c.config))
    assert len(srv.requests) == 3


def test_a_bad_request_is_a_model_failure_without_retry():
    with FakeOpenAI(default=Step(400)) as srv:
        c = client(srv.base_url, [])
        with pytest.raises(ModelCallError, match="HTTP 400"):
            c.complete(request(c.config))
    assert len(srv.requests) == 1


@pytest.mark.parametrize("status", [401, 403, 404])
def test_auth_and_unknown_model_errors_are_harness_faults(status):
    with FakeOpenAI(default=Step(status)) as srv:
        c = client(srv.base_url, [])
        with pytest.raises(HarnessFault, match=f"HTTP {status} for model 'test-model'"):
            c.complete(request(c.config))
    assert len(srv.requests) == 1


def test_api_key_comes_from_the_named_environment_variable(monkeypatch):
    monkeypatch.setenv("SOBA_TEST_KEY", "sk-test-123")
    with FakeOpenAI() as srv:
        c = client(srv.base_url, api_key_env="SOBA_TEST_KEY")
        c.complete(request(c.config))
    assert srv.headers[0]["authorization"] == "Bearer sk-test-123"


def test_an_unset_key_variable_is_a_harness_fault_naming_it(monkeypatch):
    monkeypatch.delenv("SOBA_TEST_KEY", raising=False)
    c = client("http://127.0.0.1:9/v1", api_key_env="SOBA_TEST_KEY")
    with pytest.raises(HarnessFault, match="SOBA_TEST_KEY"):
        c.complete(request(c.config))


def test_a_slow_server_times_out_per_request_and_is_retried():
    with FakeOpenAI([Step(text="late", delay_s=1.0), Step(text="ok")]) as srv:
        c = client(srv.base_url, [], timeout_s=0.2)
        assert c.complete(request(c.config)).text == "ok"
    assert len(srv.requests) == 2


def test_a_deadline_cuts_the_request_and_stops_retries():
    import time

    with FakeOpenAI(default=Step(text="late", delay_s=1.0)) as srv:
        c = client(srv.base_url, [], timeout_s=30.0, max_retries=5)
        with pytest.raises(ModelCallError, match="deadline"):
            c.complete(request(c.config), deadline_s=time.monotonic() + 0.3)
    assert len(srv.requests) == 1


def test_cancellation_stops_before_the_next_try():
    calls = []
    with FakeOpenAI(default=Step(503)) as srv:
        c = client(srv.base_url, [], max_retries=5)
        cancelled = lambda: bool(calls.append(1)) or len(srv.requests) >= 2  # noqa: E731
        with pytest.raises(ModelCallError, match="cancelled"):
            c.complete(request(c.config), cancelled=cancelled)
    assert len(srv.requests) == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"base_url": "ftp://x/v1"}, "http"),
        ({"base_url": "https://u:p@api.example.com/v1"}, "credentials"),
        ({"model": ""}, "model name"),
        ({"reasoning_effort": "max"}, "reasoning_effort"),
        ({"max_tokens_param": "n_predict"}, "max_tokens_param"),
        ({"timeout_s": 0}, "timeout_s"),
    ],
)
def test_endpoint_config_is_validated(kwargs, message):
    values = {"base_url": "http://127.0.0.1:8080/v1", "model": "m", **kwargs}
    with pytest.raises(ConfigError, match=message):
        EndpointConfig(**values)


def test_origin_never_includes_path_or_query():
    config = EndpointConfig("https://api.example.com:8443/openai/v1?key=x", "m")
    assert config.origin == "https://api.example.com:8443"
