"""A chat client for any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp's server, ...),
built on the official ``openai`` package.

What it adds to the package: the request body is built here, whole, so that it can be the
cache key; retries with capped, jittered exponential backoff are ours (the package's own are
off), so a retry honours the caller's deadline and cancellation; errors are sorted into model
failures (SOBA degrades to the deterministic capsule) and harness faults (bad key, unknown
model: the run stops, see :class:`soba_bench.errors.HarnessFault`).

An API key is never configured directly: ``api_key_env`` names the environment variable that
holds it. A local server needs none.
"""

from __future__ import annotations

import logging
import os
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from soba_bench.errors import ConfigError, HarnessFault, SobaBenchError

log = logging.getLogger("soba_bench.summarizers.client")

REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high")
MAX_TOKENS_PARAMS = ("max_completion_tokens", "max_tokens")
TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
FAULT_STATUS = frozenset({401, 403, 404})  # bad key, no access, unknown model: fix the config
_SURROGATE = re.compile("[\ud800-\udfff]")  # in a Python str, always a lone surrogate
NO_KEY = "unused"  # the openai package insists on some key; local servers ignore it


class ModelCallError(SobaBenchError):
    """The model call failed (after retries): a model failure in SOBA's sense."""


@dataclass(frozen=True)
class EndpointConfig:
    base_url: str
    model: str
    api_key_env: str | None = None
    timeout_s: float = 120.0
    max_retries: int = 3
    backoff_s: float = 0.5
    backoff_max_s: float = 8.0
    temperature: float | None = None
    seed: int | None = None
    # Standard OpenAI sampling options; a small local model loops on repeated list items
    # without some penalty. None: not sent (SOBA sends neither).
    frequency_penalty: float | None = None
    presence_penalty: float | None = None
    reasoning_effort: str | None = None
    max_tokens_param: str = "max_completion_tokens"

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"base_url must be an http(s) URL, got {self.base_url!r}")
        if parts.username or parts.password:
            raise ConfigError("base_url must not carry credentials; use api_key_env")
        if not self.model:
            raise ConfigError("an endpoint needs a model name")
        if self.reasoning_effort not in (None, *REASONING_EFFORTS):
            raise ConfigError(
                f"reasoning_effort {self.reasoning_effort!r} is not one of "
                + ", ".join(REASONING_EFFORTS)
            )
        if self.max_tokens_param not in MAX_TOKENS_PARAMS:
            raise ConfigError(f"max_tokens_param must be one of {', '.join(MAX_TOKENS_PARAMS)}")
        if self.timeout_s <= 0 or self.max_retries < 0 or self.backoff_s < 0:
            raise ConfigError("timeout_s must be > 0, max_retries and backoff_s >= 0")

    @property
    def origin(self) -> str:
        """scheme://host[:port] - what a run record may say about the endpoint."""
        parts = urlsplit(self.base_url)
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{parts.hostname}{port}"


def build_request(
    config: EndpointConfig,
    prompt: str,
    max_output_tokens: int | None = None,
    response_format: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The chat-completions body for one summary: SOBA's single user message, an output
    budget of ``min(4096, output reserve)``, the cheapest reasoning when one is configured."""
    body: dict[str, Any] = {
        "model": config.model,
        "messages": [{"role": "user", "content": _utf8_safe(str(prompt))}],
        config.max_tokens_param: int(max_output_tokens or 4096),
    }
    if config.temperature is not None:
        body["temperature"] = config.temperature
    if config.seed is not None:
        body["seed"] = config.seed
    if config.frequency_penalty is not None:
        body["frequency_penalty"] = config.frequency_penalty
    if config.presence_penalty is not None:
        body["presence_penalty"] = config.presence_penalty
    if config.reasoning_effort is not None:
        body["reasoning_effort"] = config.reasoning_effort
    if response_format is not None:
        body["response_format"] = response_format
    return body


@dataclass(frozen=True)
class ChatReply:
    text: str
    latency_ms: float
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None


class ChatClient:
    """One endpoint. ``complete`` is safe to call from several threads."""

    def __init__(
        self,
        config: EndpointConfig,
        *,
        sleep: Callable[[float], None] | None = None,
        jitter_seed: int = 0,
    ) -> None:
        self.config = config
        self._sleep = sleep
        self._rng = random.Random(jitter_seed)
        self._client: Any = None
        self._lock = threading.Lock()

    def _api_key(self) -> str:
        name = self.config.api_key_env
        if name is None:
            return NO_KEY
        value = os.environ.get(name)
        if not value:
            raise HarnessFault(
                f"environment variable {name} (api_key_env) is not set; export the API key "
                f"for {self.config.origin} there"
            )
        return value

    def _openai(self) -> Any:
        with self._lock:
            if self._client is None:
                try:
                    import openai
                except ImportError:
                    raise HarnessFault("the 'openai' package is not installed") from None
                self._client = openai.OpenAI(
                    base_url=self.config.base_url,
                    api_key=self._api_key(),
                    max_retries=0,  # our loop retries, under the caller's deadline
                    timeout=self.config.timeout_s,
                )
            return self._client

    def complete(
        self,
        request: dict[str, Any],
        *,
        deadline_s: float | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> ChatReply:
        """Send ``request``; retry transient errors until ``max_retries`` or the monotonic
        ``deadline_s``. ``cancelled`` is polled before every try and during backoff; each
        try's HTTP timeout is cut to what is left before the deadline, so an abandoned call
        ends soon after the caller stopped waiting."""
        import openai

        client = self._openai()
        started = time.monotonic()
        attempt = 0
        while True:
            if cancelled is not None and cancelled():
                raise ModelCallError("model call cancelled")
            timeout = self.config.timeout_s
            if deadline_s is not None:
                timeout = min(timeout, deadline_s - time.monotonic())
                if timeout <= 0:
                    raise ModelCallError("model call deadline passed")
            try:
                completion = client.chat.completions.create(**request, timeout=timeout)
            except openai.APIStatusError as exc:
                status = exc.status_code
                if status in FAULT_STATUS:
                    raise HarnessFault(
                        f"{self.config.origin} answered HTTP {status} for model "
                        f"{self.config.model!r}: {_brief(exc)}"
                    ) from None
                if status not in TRANSIENT_STATUS or attempt >= self.config.max_retries:
                    raise ModelCallError(f"HTTP {status}: {_brief(exc)}") from None
                retry_after = _retry_after(exc)
            except openai.APIConnectionError as exc:  # includes timeouts
                if attempt >= self.config.max_retries:
                    raise ModelCallError(f"{type(exc).__name__}: {exc}") from None
                retry_after = None
            else:
                return self._reply(completion, started)
            delay = self._backoff(attempt, retry_after)
            attempt += 1
            log.info("model call failed, retry %d in %.2fs", attempt, delay)
            if deadline_s is not None and time.monotonic() + delay >= deadline_s:
                raise ModelCallError("model call deadline passed during backoff")
            self._wait(delay, cancelled)

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        cap = self.config.backoff_max_s
        base = min(cap, self.config.backoff_s * (2**attempt))
        with self._lock:
            delay = base * (0.5 + 0.5 * self._rng.random())  # jitter spreads a sweep's retries
        if retry_after is not None:
            delay = max(delay, min(retry_after, 60.0))
        return delay

    def _wait(self, delay: float, cancelled: Callable[[], bool] | None) -> None:
        if self._sleep is not None:
            self._sleep(delay)
            return
        end = time.monotonic() + delay
        while (left := end - time.monotonic()) > 0:
            if cancelled is not None and cancelled():
                raise ModelCallError("model call cancelled")
            time.sleep(min(left, 0.05))

    @staticmethod
    def _reply(completion: Any, started: float) -> ChatReply:
        latency_ms = (time.monotonic() - started) * 1000.0
        text, finish = "", None
        for choice in completion.choices or []:
            message = choice.message
            if message is not None and getattr(message, "role", "assistant") == "assistant":
                text = message.content or ""
                finish = choice.finish_reason
                break
        usage = completion.usage.model_dump(exclude_none=True) if completion.usage else None
        return ChatReply(text, latency_ms, finish, usage)


def _utf8_safe(text: str) -> str:
    """``text`` with lone surrogates (from a transcript) as U+FFFD. SOBA's JSON.stringify
    sends them as ``\\udXXX`` escapes, which a UTF-8 server can only decode as U+FFFD; the
    openai package would raise UnicodeEncodeError instead, a local failure that SOBA's
    fallback would silently turn into a degraded capsule. Applied where the request is built,
    so the cache key hashes what is sent."""
    return _SURROGATE.sub("\ufffd", text)


def _brief(exc: Any) -> str:
    message = getattr(exc, "message", None) or str(exc)
    return message if len(message) <= 300 else message[:297] + "..."


def _retry_after(exc: Any) -> float | None:
    try:
        value = exc.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, TypeError, ValueError):
        return None
