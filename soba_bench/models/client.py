"""A chat client for any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp's server, ...)
that sends what SOBA v0.6.14 sends and retries as SOBA retries.

SOBA's compaction model call goes through its OpenAI chat-completions adapter and its
provider client; this module reproduces both as far as they decide an attempt's outcome:

* **Body** (:func:`build_request`): one user message, ``"stream": false`` and
  ``max_tokens = min(4096, output reserve)``. ``max_completion_tokens`` replaces it only with
  an active reasoning control on the ``openai_chat`` transport or the
  ``prefer_max_completion_tokens`` compatibility flag; reasoning controls and compatibility
  flags map to the wire keys SOBA's adapter writes for each transport.
* **Retries** (:meth:`ChatClient.complete`): HTTP 429 and 5xx and network errors (timeouts
  included) are retried 3 times (4 tries) after ``1000 * 2**attempt`` ms, no jitter; a
  ``Retry-After`` header replaces that delay (``parseInt`` seconds). Each try has a 120 s
  timeout. A jittered schedule exists only as the named option ``backoff="jittered"``.
* **Answer** (:func:`visible_text`): the first choice's string content with ``<think>``
  blocks removed, as SOBA's adapter cleans it before the strategy parses JSON.

The body is sent as built (stdlib HTTP, no SDK in between), so the cache key hashes exactly
what went on the wire. Errors are sorted into model failures (SOBA degrades to the
deterministic capsule) and harness faults (bad key, unknown model: the run stops, see
:class:`soba_bench.errors.HarnessFault`) - the one place this client departs from SOBA, which
would degrade on those too.

An API key is never configured directly: ``api_key_env`` names the environment variable that
holds it. A local server needs none.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import random
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlsplit

from soba_bench.errors import ConfigError, HarnessFault, SobaBenchError
from soba_bench.jscompat import JS_WS_CLASS

log = logging.getLogger("soba_bench.models.client")

# SOBA v0.6.14's vocabularies (kernel/model/reasoning.ts, application/providers/types.ts).
REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
REASONING_TRANSPORTS = (
    "openai_chat",
    "openrouter",
    "deepseek",
    "kimi",
    "minimax",
    "qwen",
    "ollama",
    "none",
)
COMPATIBILITY_FLAGS = (
    "adaptive_thinking",
    "reasoning_split",
    "reasoning_details_input",
    "prefer_max_completion_tokens",
    "single_system_message",
)
BACKOFFS = ("soba", "jittered")
# The wire keys SOBA strips when a provider rejects its reasoning control.
REASONING_WIRE_KEYS = (
    "reasoning_effort",
    "reasoning",
    "thinking",
    "enable_thinking",
    "thinking_budget",
    "think",
)
SAMPLING_KEYS = ("temperature", "top_p", "presence_penalty", "frequency_penalty")
FAULT_STATUS = frozenset({401, 403, 404})  # bad key, no access, unknown model: fix the config
_SURROGATE = re.compile("[\ud800-\udfff]")  # in a Python str, always a lone surrogate
# ``/<think>\s*([\s\S]*?)(?:<\/think>|$)/gi`` with JavaScript's \s and its ASCII-only case
# folding (Python's IGNORECASE would also fold U+212A KELVIN SIGN into "k").
_THINK_OPEN = "<[tT][hH][iI][nN][kK]>"
_THINK_BLOCK = re.compile(
    _THINK_OPEN + JS_WS_CLASS + "*(?:.*?)(?:</[tT][hH][iI][nN][kK]>|\\Z)", re.DOTALL
)
_THINK_TAG = re.compile(_THINK_OPEN)
_LEADING_WS = re.compile(f"^{JS_WS_CLASS}+")
NO_KEY = "unused"  # SOBA always sends a bearer header; local servers ignore it


class ModelCallError(SobaBenchError):
    """The model call failed (after retries): a model failure in SOBA's sense.
    ``spent_ms`` is the time the tries and backoffs took (simulated backoff included), so a
    virtual clock can place the failure on its timeline."""

    def __init__(self, message: str, spent_ms: float = 0.0) -> None:
        super().__init__(message)
        self.spent_ms = spent_ms


@dataclass(frozen=True)
class EndpointConfig:
    base_url: str
    model: str
    api_key_env: str | None = None
    timeout_s: float = 120.0  # SOBA's per-try timeout
    max_retries: int = 3
    backoff_s: float = 1.0  # SOBA's base delay: 1 s, 2 s, 4 s
    backoff: str = "soba"  # "jittered": capped, jittered delays (not SOBA)
    backoff_max_s: float = 8.0  # the cap of the jittered schedule only
    temperature: float | None = None
    seed: int | None = None
    # Standard OpenAI sampling options; a small local model loops on repeated list items
    # without some penalty. None: not sent (SOBA sends neither).
    frequency_penalty: float | None = None
    presence_penalty: float | None = None
    # SOBA's reasoning control, as its ReasoningParam: effort, else budget, else toggle.
    reasoning_effort: str | None = None
    reasoning_max_tokens: int | None = None
    reasoning_enabled: bool | None = None
    # SOBA's explicit adapter mapping for that control ("none": the control is not sent).
    reasoning_transport: str = "openai_chat"
    compatibility: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"base_url must be an http(s) URL, got {self.base_url!r}")
        if parts.username or parts.password:
            raise ConfigError("base_url must not carry credentials; use api_key_env")
        if not self.model:
            raise ConfigError("an endpoint needs a model name")
        _one_of("reasoning_effort", self.reasoning_effort, (None, *REASONING_EFFORTS))
        _one_of("reasoning_transport", self.reasoning_transport, REASONING_TRANSPORTS)
        _one_of("backoff", self.backoff, BACKOFFS)
        object.__setattr__(self, "compatibility", tuple(self.compatibility or ()))
        for flag in self.compatibility:
            _one_of("compatibility", flag, COMPATIBILITY_FLAGS)
        if self.reasoning_max_tokens is not None and self.reasoning_max_tokens < 1:
            raise ConfigError("reasoning_max_tokens must be >= 1")
        if self.timeout_s <= 0 or self.max_retries < 0 or self.backoff_s < 0:
            raise ConfigError("timeout_s must be > 0, max_retries and backoff_s >= 0")

    @property
    def origin(self) -> str:
        """scheme://host[:port] - what a run record may say about the endpoint."""
        parts = urlsplit(self.base_url)
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{parts.hostname}{port}"

    @property
    def reasoning_requested(self) -> bool:
        return (
            self.reasoning_effort is not None
            or self.reasoning_max_tokens is not None
            or self.reasoning_enabled is not None
        )


def _one_of(name: str, value: Any, valid: tuple[Any, ...]) -> None:
    if value not in valid:
        shown = ", ".join(str(v) for v in valid if v is not None)
        raise ConfigError(f"{name} {value!r} is not one of {shown}")


def build_request(
    config: EndpointConfig,
    prompt: str,
    max_output_tokens: int | None = None,
    response_format: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The chat-completions body SOBA's adapter builds for its compaction call, keys in its
    order: ``model``, ``messages``, ``stream``, sampling options, the output limit, the
    reasoning control, compatibility keys; then this harness's own options (``seed``,
    ``response_format``), which SOBA never sends."""
    body: dict[str, Any] = {
        "model": config.model,
        "messages": [{"role": "user", "content": _utf8_safe(str(prompt))}],
        "stream": False,
    }
    sampling = {
        "temperature": config.temperature,
        "presence_penalty": config.presence_penalty,
        "frequency_penalty": config.frequency_penalty,
    }
    body.update({k: v for k, v in sampling.items() if v is not None})
    body["max_tokens"] = int(max_output_tokens or 4096)
    active = _apply_reasoning(body, config)
    if active and config.reasoning_transport not in ("minimax", "openrouter"):
        for key in SAMPLING_KEYS:  # SOBA drops sampling with active thinking
            body.pop(key, None)
        if config.reasoning_transport == "openai_chat":
            _prefer_max_completion_tokens(body)
    flags = set(config.compatibility)
    if "adaptive_thinking" in flags and not config.reasoning_requested:
        body["thinking"] = {"type": "adaptive"}
    if "reasoning_split" in flags:
        body["reasoning_split"] = True
    if "prefer_max_completion_tokens" in flags:
        _prefer_max_completion_tokens(body)
    if config.seed is not None:
        body["seed"] = config.seed
    if response_format is not None:
        body["response_format"] = response_format
    return body


def _prefer_max_completion_tokens(body: dict[str, Any]) -> None:
    if body.get("max_tokens") and not body.get("max_completion_tokens"):
        body["max_completion_tokens"] = body.pop("max_tokens")


def _apply_reasoning(body: dict[str, Any], config: EndpointConfig) -> bool:
    """SOBA's applyReasoningControl for a configured control: writes the transport's wire
    keys and says whether reasoning is actively on (which changes the rest of the body)."""
    transport = config.reasoning_transport
    value: str | int | bool  # effort name, token budget, or on/off
    if config.reasoning_effort is not None:
        mode, value = "effort", config.reasoning_effort
    elif config.reasoning_max_tokens is not None:
        mode, value = "budget", config.reasoning_max_tokens
        if value >= body["max_tokens"]:
            raise ConfigError(
                f"Reasoning budget ({value}) must be lower than the completion limit "
                f"({body['max_tokens']})."
            )
    elif config.reasoning_enabled is not None:
        mode, value = "toggle", bool(config.reasoning_enabled)
    else:
        return False
    if transport == "none":
        return False
    applied = False
    toggle = {"type": "enabled" if value else "disabled"} if mode == "toggle" else None
    if transport == "openai_chat" and mode == "effort":
        body["reasoning_effort"], applied = value, True
    elif transport == "openrouter":
        key = {"effort": "effort", "budget": "max_tokens", "toggle": "enabled"}[mode]
        body["reasoning"], applied = {key: value}, True
    elif transport in ("deepseek", "kimi"):
        if mode == "effort":
            body["reasoning_effort"], applied = value, True
        elif mode == "toggle":
            body["thinking"], applied = toggle, True
    elif transport == "minimax" and mode == "toggle":
        body["thinking"], applied = toggle, True
    elif transport == "qwen":
        if mode == "effort":
            body["reasoning_effort"], applied = value, True
        elif mode == "budget":
            body["enable_thinking"], body["thinking_budget"], applied = True, value, True
        else:
            body["enable_thinking"], applied = value, True
    elif transport == "ollama" and mode in ("effort", "toggle"):
        body["think"], applied = value, True
    return applied and (
        mode == "budget"
        or (mode == "effort" and value != "none")
        or (mode == "toggle" and bool(value))
    )


def visible_text(content: Any) -> str:
    """The answer text SOBA's adapter hands to the strategy: string content only, every
    ``<think>...</think>`` block (or an unclosed one, to the end) removed, then leading
    whitespace. Without a ``<think>`` tag the text is returned untouched."""
    if not isinstance(content, str):
        return ""
    if not _THINK_TAG.search(content):
        return content
    return _LEADING_WS.sub("", _THINK_BLOCK.sub("", content))


@dataclass(frozen=True)
class ChatReply:
    """``text`` is the raw assistant content (``<think>`` blocks kept: the cache stores what
    the model said); ``latency_ms`` is the answering try alone; ``waited_ms`` the failed tries
    and backoffs before it."""

    text: str
    latency_ms: float
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None
    waited_ms: float = 0.0


@dataclass(frozen=True)
class _Response:
    status: int
    headers: Any
    data: bytes


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
        self._lock = threading.Lock()
        self._key: str | None = None
        # SOBA's runtime fallback: once a provider rejected the reasoning control, later
        # requests go without it.
        self.reasoning_rejected = False

    def _api_key(self) -> str:
        with self._lock:
            if self._key is None:
                name = self.config.api_key_env
                value = os.environ.get(name) if name else NO_KEY
                if not value:
                    raise HarnessFault(
                        f"environment variable {name} (api_key_env) is not set; export the "
                        f"API key for {self.config.origin} there"
                    )
                self._key = value
            return self._key

    def complete(
        self,
        request: dict[str, Any],
        *,
        deadline_s: float | None = None,
        cancelled: Callable[[], bool] | None = None,
        budget_ms: float | None = None,
    ) -> ChatReply:
        """Send ``request`` and retry as SOBA does. Real waits: ``cancelled`` is polled before
        every try and during backoff, and each try's timeout is cut to what is left before
        the monotonic ``deadline_s`` (an abandoned call ends soon after the caller stopped
        waiting). With ``budget_ms`` the backoffs are simulated instead (no sleeping): their
        delays are added to the time spent, and the call stops once that passes the budget,
        because the caller's virtual deadline has then already fired."""
        if self.reasoning_rejected:
            request = _strip_reasoning(request)
        reply = self._send(request, deadline_s, cancelled, budget_ms, self.config.max_retries)
        if isinstance(reply, ChatReply):
            return reply
        failure, spent = reply
        if _has_reasoning(request) and _rejects_reasoning(failure):
            log.info("provider rejected the reasoning control; resending without it")
            self.reasoning_rejected = True
            left = None if budget_ms is None else budget_ms - spent
            retry = self._send(_strip_reasoning(request), deadline_s, cancelled, left, 0)
            if isinstance(retry, ChatReply):
                return replace(retry, waited_ms=retry.waited_ms + spent)
            failure, spent = retry[0], spent + retry[1]
        raise ModelCallError(f"HTTP {failure.status}: {_brief(failure.data)}", spent)

    def _send(
        self,
        request: dict[str, Any],
        deadline_s: float | None,
        cancelled: Callable[[], bool] | None,
        budget_ms: float | None,
        retries: int,
    ) -> ChatReply | tuple[_Response, float]:
        """SOBA's sendRequest: a reply, or the final error response with the time spent."""
        spent = 0.0
        data = json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode()
        for attempt in range(retries + 1):
            if cancelled is not None and cancelled():
                raise ModelCallError("model call cancelled", spent)
            timeout = self.config.timeout_s
            if deadline_s is not None:
                timeout = min(timeout, deadline_s - time.monotonic())
                if timeout <= 0:
                    raise ModelCallError("model call deadline passed", spent)
            started = time.monotonic()
            try:
                response = self._post(data, timeout)
            except (OSError, http.client.HTTPException) as exc:  # network errors, timeouts
                spent += (time.monotonic() - started) * 1000.0
                if attempt >= retries:
                    raise ModelCallError(f"{type(exc).__name__}: {exc}", spent) from None
                delay = self._backoff(attempt, None)
            else:
                took = (time.monotonic() - started) * 1000.0
                status = response.status
                if status in FAULT_STATUS:
                    raise HarnessFault(
                        f"{self.config.origin} answered HTTP {status} for model "
                        f"{self.config.model!r}: {_brief(response.data)}"
                    )
                if (status == 429 or status >= 500) and attempt < retries:
                    spent += took
                    delay = self._backoff(attempt, response.headers.get("retry-after"))
                elif 200 <= status < 300:
                    return _reply(response, took, spent)
                else:
                    return response, spent + took
            log.info("model call failed, retry %d in %.2fs", attempt + 1, delay)
            spent += delay * 1000.0
            if budget_ms is not None:
                if spent > budget_ms:
                    raise ModelCallError("model call outlasted the deadline in backoff", spent)
            else:
                self._wait(delay, deadline_s, cancelled, spent)
        raise AssertionError("unreachable: the last try returns or raises")

    def _post(self, data: bytes, timeout: float) -> _Response:
        url = self.config.base_url.rstrip("/") + "/chat/completions"
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {self._api_key()}",
            "User-Agent": "soba-bench",
        }
        req = urllib.request.Request(url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return _Response(resp.status, resp.headers, resp.read())
        except urllib.error.HTTPError as exc:
            with exc:
                return _Response(exc.code, exc.headers, exc.read())

    def _backoff(self, attempt: int, retry_after: str | None) -> float:
        """Seconds before the next try: SOBA's ``1000 * 2**attempt`` ms, or ``Retry-After``."""
        if retry_after:  # an empty header is falsy in JavaScript too
            # parseInt(...) * 1000; NaN or a negative number sleeps no time at all.
            seconds = _js_parse_int(retry_after)
            return float(max(0, seconds)) if seconds is not None else 0.0
        base = self.config.backoff_s * (2**attempt)
        if self.config.backoff == "jittered":
            with self._lock:
                jitter = 0.5 + 0.5 * self._rng.random()
            return min(self.config.backoff_max_s, base) * jitter
        return base

    def _wait(
        self,
        delay: float,
        deadline_s: float | None,
        cancelled: Callable[[], bool] | None,
        spent_ms: float,
    ) -> None:
        if self._sleep is not None:
            self._sleep(delay)
            return
        end = time.monotonic() + delay
        while (left := end - time.monotonic()) > 0:
            if cancelled is not None and cancelled():
                raise ModelCallError("model call cancelled", spent_ms)
            if deadline_s is not None and time.monotonic() >= deadline_s:
                raise ModelCallError("model call deadline passed during backoff", spent_ms)
            time.sleep(min(left, 0.05))


def _reply(response: _Response, took_ms: float, waited_ms: float) -> ChatReply:
    """A 2xx response as SOBA reads it: only a JSON content type is parsed; an ``error``
    member or a body without choices is a reply with no text."""
    if "application/json" not in (response.headers.get("content-type") or ""):
        raise ModelCallError(f"non-JSON response: {_brief(response.data)}", waited_ms + took_ms)
    try:
        body = json.loads(response.data)
    except ValueError as exc:
        raise ModelCallError(f"invalid JSON response: {exc}", waited_ms + took_ms) from None
    text, finish, usage = "", None, None
    if isinstance(body, dict) and not body.get("error"):
        choices = body.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            message = choices[0].get("message")
            content = message.get("content") if isinstance(message, dict) else None
            text = content if isinstance(content, str) else ""
            finish = choices[0].get("finish_reason")
        usage = body.get("usage") if isinstance(body.get("usage"), dict) else None
    return ChatReply(text, took_ms, finish if isinstance(finish, str) else None, usage, waited_ms)


def _js_parse_int(value: str) -> int | None:
    """``Number.parseInt(value, 10)``: optional sign and leading digits after JavaScript
    whitespace; None for NaN."""
    match = re.match(f"{JS_WS_CLASS}*([+-]?[0-9]+)", value)
    return int(match.group(1)) if match else None


def _has_reasoning(request: dict[str, Any]) -> bool:
    return any(key in request for key in REASONING_WIRE_KEYS)


def _strip_reasoning(request: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in request.items() if k not in REASONING_WIRE_KEYS}


def _rejects_reasoning(response: _Response) -> bool:
    """SOBA's isUnsupportedReasoningResponse on the final error response: a 4xx status
    (a JSON error's own ``status``, else 400; a non-JSON body keeps the HTTP status) whose
    text names a reasoning control and rejects it."""
    status: float  # the HTTP status, or a JSON error's own (a number)
    status, text = response.status, response.data.decode("utf-8", "replace")
    if "application/json" in (response.headers.get("content-type") or ""):
        try:
            error = json.loads(response.data).get("error")
        except (ValueError, AttributeError):
            return False
        if not isinstance(error, dict):
            return False
        status = error["status"] if type(error.get("status")) in (int, float) else 400
        text = json.dumps(error, ensure_ascii=False, separators=(",", ":"))
    if status < 400 or status >= 500:
        return False
    text = text.lower()
    names = re.search(r"reasoning|thinking|effort|enable_thinking|think", text)
    rejects = re.search(
        r"unsupported|not supported|unknown|unrecognized|invalid|extra|unexpected|not permitted",
        text,
    )
    return bool(names and rejects)


def _utf8_safe(text: str) -> str:
    """``text`` with lone surrogates (from a transcript) as U+FFFD. SOBA's JSON.stringify
    sends them as ``\\udXXX`` escapes, which a UTF-8 server can only decode as U+FFFD; an
    encoder here would raise UnicodeEncodeError instead, a local failure that SOBA's
    fallback would silently turn into a degraded capsule. Applied where the request is built,
    so the cache key hashes what is sent."""
    return _SURROGATE.sub("\ufffd", text)


def _brief(data: bytes | str) -> str:
    message = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return message if len(message) <= 300 else message[:297] + "..."
