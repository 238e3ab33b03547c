"""Model calls for probe answers and judge verdicts: the summarizers' OpenAI-compatible client
behind their response cache (``CachedModelInvoker.fetch``), so every call is recorded once and
replays offline in ``read-only`` mode, where a miss is an error. The ``local`` backend uses
the real local llama.cpp server, started on the first cache miss only and shared with a local
summarizer in the same process."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from soba_bench.errors import ConfigError
from soba_bench.models.cache import open_cache, request_key
from soba_bench.models.client import ChatClient, EndpointConfig, build_request
from soba_bench.models.invoker import CachedModelInvoker
from soba_bench.models.local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS
from soba_bench.models.local_server import LOCAL_ORIGIN, ServerOptions, shared_local_server

from .config import ProbeConfig

BACKENDS = ("model", "local")


@dataclass(frozen=True)
class Reply:
    text: str
    source: str  # "cache" | "model"
    key: str  # the response-cache key


class ModelBackend:
    def __init__(self, kind: str, config: ProbeConfig) -> None:
        if kind == "model":
            if not config.base_url or not config.model:
                raise ConfigError("probe answerer/judge 'model' needs base_url and model")
            endpoint = EndpointConfig(
                config.base_url,
                config.model,
                config.api_key_env,
                config.timeout_s,
                3,
                temperature=0.0,
                seed=config.seed,
            )
            factory: Callable[[], ChatClient] = functools.partial(ChatClient, endpoint)
        elif kind == "local":
            name = config.model or DEFAULT_LOCAL_MODEL
            LOCAL_MODELS.get(name)
            given = config.base_url
            endpoint = EndpointConfig(
                given or LOCAL_ORIGIN + "/v1",
                name,
                config.api_key_env if given else None,
                config.timeout_s,
                1,
                temperature=0.0,
                seed=config.seed,
            )

            def factory() -> ChatClient:
                if given:
                    return ChatClient(endpoint)
                server = shared_local_server(ServerOptions(name))
                return ChatClient(replace(endpoint, base_url=server.base_url))
        else:
            raise ConfigError(f"unknown probe backend {kind!r}; valid: {', '.join(BACKENDS)}")
        self.kind = kind
        self.endpoint = endpoint
        self.cache = open_cache(config.cache_path, config.cache)
        self.invoker = CachedModelInvoker(endpoint, factory, self.cache)

    def ask(self, prompt: str, max_tokens: int, *, json_output: bool = False) -> Reply:
        """The model's reply to one user message: from the cache, else from the endpoint."""
        fmt = {"type": "json_object"} if json_output else None
        request = build_request(self.endpoint, prompt, max_tokens, fmt)
        key = request_key(self.endpoint.model, request)
        hits = self.invoker.hits
        reply = self.invoker.fetch(key, request)
        return Reply(reply.text, "cache" if self.invoker.hits > hits else "model", key)

    def describe(self) -> dict[str, Any]:
        return {
            "backend": self.kind,
            "model": self.endpoint.model,
            "endpoint": self.endpoint.origin,
            "cache": self.cache.describe() if self.cache is not None else {"mode": "off"},
            "calls": self.invoker.calls,
            "hits": self.invoker.hits,
        }


_BACKENDS: dict[tuple[str, ProbeConfig], ModelBackend] = {}


def backend_for(kind: str, config: ProbeConfig) -> ModelBackend:
    """One backend per (kind, config) in a process: an answerer and a judge on the same model
    share the cache connection and the counters."""
    key = (kind, config)
    if key not in _BACKENDS:
        _BACKENDS[key] = ModelBackend(kind, config)
    return _BACKENDS[key]
