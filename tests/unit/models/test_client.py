"""The OpenAI-compatible client against a scripted HTTP server on 127.0.0.1: request body,
retries with backoff, error sorting, keys from the environment, deadline and cancellation."""

from __future__ import annotations

import pytest

from soba_bench.errors import ConfigError, HarnessFault
from soba_bench.models.client import (
    ChatClient,
    EndpointConfig,
    ModelCallError,
    build_request,
    visible_text,
)
from soba_bench.summarizers.prompts import RenderedPrompt
from tests.unit.models.fake_openai import FakeOpenAI, Step


def client(url: str, sleeps: list[float] | None = None, **kw) -> ChatClient:
    config = EndpointConfig(url, "test-model", **kw)
    return ChatClient(config, sleep=(sleeps.append if sleeps is not None else None))


def request(config: EndpointConfig, text: str = "hi", **kw) -> dict:
    return build_request(config, text, **kw)


def test_plain_body_is_soba_chat_completions_shape():
    config = EndpointConfig("http://127.0.0.1:1/v1", "m")
    prompt = RenderedPrompt("Summarize", "p@1", max_output_tokens=512)
    body = build_request(config, prompt, prompt.max_output_tokens)
    assert body == {
        "model": "m",
        "messages": [{"role": "user", "content": "Summarize"}],
        "stream": False,
        "max_tokens": 512,
    }
    assert list(body) == ["model", "messages", "stream", "max_tokens"]  # SOBA's key order
    assert type(body["messages"][0]["content"]) is str  # plain JSON, not the str subclass
    assert build_request(config, "x")["max_tokens"] == 4096


def test_harness_options_are_sent_only_when_set_and_after_soba_keys():
    config = EndpointConfig(
        "http://127.0.0.1:1/v1",
        "m",
        temperature=0.0,
        seed=3,
        frequency_penalty=0.4,
        presence_penalty=0.2,
    )
    schema = {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}
    body = build_request(config, "p", 64, schema)
    assert list(body) == [
        "model",
        "messages",
        "stream",
        "temperature",
        "presence_penalty",
        "frequency_penalty",
        "max_tokens",
        "seed",
        "response_format",
    ]
    assert body["response_format"] == schema and body["seed"] == 3


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        # openai_chat: active effort renames the limit and drops sampling options
        ({"reasoning_effort": "low"}, {"max_completion_tokens": 64, "reasoning_effort": "low"}),
        # effort "none" is sent but is not active reasoning: max_tokens and sampling stay
        (
            {"reasoning_effort": "none"},
            {"temperature": 0.5, "max_tokens": 64, "reasoning_effort": "none"},
        ),
        # a budget has no openai_chat wire key: nothing applied, nothing changed
        ({"reasoning_max_tokens": 32}, {"temperature": 0.5, "max_tokens": 64}),
        (
            {"reasoning_effort": "high", "reasoning_transport": "openrouter"},
            {"temperature": 0.5, "max_tokens": 64, "reasoning": {"effort": "high"}},
        ),
        (
            {"reasoning_enabled": False, "reasoning_transport": "deepseek"},
            {"temperature": 0.5, "max_tokens": 64, "thinking": {"type": "disabled"}},
        ),
        (
            {"reasoning_max_tokens": 32, "reasoning_transport": "qwen"},
            {"max_tokens": 64, "enable_thinking": True, "thinking_budget": 32},
        ),
        (
            {"reasoning_effort": "low", "reasoning_transport": "ollama"},
            {"max_tokens": 64, "think": "low"},
        ),
        (
            {"reasoning_enabled": True, "reasoning_transport": "minimax"},
            {"temperature": 0.5, "max_tokens": 64, "thinking": {"type": "enabled"}},
        ),
        (
            {"reasoning_effort": "low", "reasoning_transport": "none"},
            {"temperature": 0.5, "max_tokens": 64},
        ),
        (
            {"compatibility": ("prefer_max_completion_tokens",)},
            {"temperature": 0.5, "max_completion_tokens": 64},
        ),
        (
            {"compatibility": ("adaptive_thinking", "reasoning_split")},
            {
                "temperature": 0.5,
                "max_tokens": 64,
                "thinking": {"type": "adaptive"},
                "reasoning_split": True,
            },
        ),
    ],
)
def test_reasoning_controls_and_compatibility_flags_follow_soba_adapter(settings, expected):
    config = EndpointConfig("http://127.0.0.1:1/v1", "m", temperature=0.5, **settings)
    body = build_request(config, "p", 64)
    assert {k: v for k, v in body.items() if k not in ("model", "messages", "stream")} == expected


def test_a_reasoning_budget_at_the_completion_limit_is_refused_as_soba_refuses_it():
    config = EndpointConfig(
        "http://127.0.0.1:1/v1", "m", reasoning_max_tokens=64, reasoning_transport="qwen"
    )
    with pytest.raises(ConfigError, match=r"Reasoning budget \(64\) must be lower"):
        build_request(config, "p", 64)


@pytest.mark.parametrize(
    ("content", "visible"),
    [
        ('{"goal": "g"}', '{"goal": "g"}'),
        ('  {"goal": "g"}  ', '  {"goal": "g"}  '),  # no think tag: untouched
        ('<think>{"goal": "decoy"}</think>\n\n{"goal": "real"}', '{"goal": "real"}'),
        ("<THINK> a </Think>b<think>c</think> d ", "b d "),
        ("<think>only reasoning, never closed {", ""),
        ('</think>{"goal": "g"}', '</think>{"goal": "g"}'),  # no opening tag
        ("\u00a0<think>x</think>\u00a0y", "y"),  # JavaScript's \s includes NBSP
        ("<thin\u212a>x</thin\u212a>y", "<thin\u212a>x</thin\u212a>y"),  # ASCII-only case folding
        (None, ""),
        ([{"type": "text", "text": "x"}], ""),  # SOBA reads string content only
    ],
)
def test_visible_text_strips_think_blocks_as_soba_adapter(content, visible):
    assert visible_text(content) == visible


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


def test_transient_errors_are_retried_on_soba_schedule_without_jitter():
    script = [Step(503), Step(502), Step(500), Step(text="ok")]
    sleeps: list[float] = []
    with FakeOpenAI(script) as srv:
        c = client(srv.base_url, sleeps)
        reply = c.complete(request(c.config))
    assert reply.text == "ok" and len(srv.requests) == 4
    assert sleeps == [1.0, 2.0, 4.0]  # 1000 * 2**attempt ms, 3 retries
    assert reply.waited_ms >= 7000  # the backoffs count as waiting before the answer


def test_jittered_backoff_is_a_named_option():
    sleeps: list[float] = []
    with FakeOpenAI([Step(503), Step(502), Step(500), Step(text="ok")]) as srv:
        c = client(srv.base_url, sleeps, backoff="jittered", backoff_max_s=3.0)
        assert c.complete(request(c.config)).text == "ok"
    for delay, base in zip(sleeps, [1.0, 2.0, 3.0], strict=True):
        assert base / 2 <= delay <= base
    assert sleeps != [1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    ("header", "wait"),
    [("7", 7.0), ("1.9", 1.0), (" 2s", 2.0), ("0", 0.0), ("-3", 0.0), ("soon", 0.0)],
)
def test_rate_limit_waits_retry_after_parsed_as_soba_parses_it(header, wait):
    sleeps: list[float] = []
    with FakeOpenAI([Step(429, headers={"retry-after": header}), Step(text="ok")]) as srv:
        c = client(srv.base_url, sleeps)
        assert c.complete(request(c.config)).text == "ok"
    assert sleeps == [wait]  # replaces SOBA's 1 s delay; unparseable means no wait


@pytest.mark.parametrize("status", [408, 409, 425, 422])
def test_only_429_and_5xx_are_retried(status):
    with FakeOpenAI(default=Step(status)) as srv:
        c = client(srv.base_url, [])
        with pytest.raises(ModelCallError, match=f"HTTP {status}"):
            c.complete(request(c.config))
    assert len(srv.requests) == 1


def test_virtual_backoff_is_simulated_and_stops_at_the_budget():
    import time

    with FakeOpenAI(default=Step(500)) as srv:
        c = client(srv.base_url)  # no sleep hook: a real wait would take 3 s here
        started = time.monotonic()
        with pytest.raises(ModelCallError) as err:
            c.complete(request(c.config), budget_ms=2000)
        assert time.monotonic() - started < 1.0
    # tries at 0 and ~1000 ms; the 2 s backoff after the second passes the budget
    assert len(srv.requests) == 2
    assert 3000 <= err.value.spent_ms < 3500
    with FakeOpenAI(default=Step(500)) as srv, pytest.raises(ModelCallError, match="500") as err:
        c = client(srv.base_url)
        c.complete(request(c.config), budget_ms=60_000)
    assert len(srv.requests) == 4 and 7000 <= err.value.spent_ms < 7500


def test_a_non_json_content_type_is_a_failed_reply_as_in_soba():
    body = {"id": "x", "choices": [{"message": {"role": "assistant", "content": "{}"}}]}
    with FakeOpenAI([Step(body=body, headers={"content-type": "text/plain"})]) as srv:
        c = client(srv.base_url, [])
        with pytest.raises(ModelCallError, match="non-JSON"):
            c.complete(request(c.config))


def test_a_rejected_reasoning_control_is_resent_without_it_and_then_left_off():
    rejection = Step(400, body={"error": {"message": "Unsupported parameter: reasoning_effort"}})
    with FakeOpenAI([rejection, Step(text="ok"), Step(text="again")]) as srv:
        c = client(srv.base_url, [], reasoning_effort="low")
        body = request(c.config)
        assert c.complete(body).text == "ok"
        assert c.complete(body).text == "again"
    assert "reasoning_effort" in srv.requests[0]
    assert all("reasoning_effort" not in r for r in srv.requests[1:]) and len(srv.requests) == 3


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
        ({"reasoning_effort": "maximal"}, "reasoning_effort"),
        ({"reasoning_transport": "anthropic"}, "reasoning_transport"),
        ({"compatibility": ("stream_usage",)}, "compatibility"),
        ({"backoff": "linear"}, "backoff"),
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
