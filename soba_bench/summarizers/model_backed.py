"""The model-backed summarizers: SOBA's production chain ``[portable_only, deterministic]``
with a prompt file, an OpenAI-compatible endpoint, the response cache and a latency model.

* ``model``: any endpoint (``base_url``, ``model``, ``api_key_env``).
* ``local``: a small GGUF model from the package registry on a local llama.cpp server,
  started on first need (a replay served wholly from the cache never starts it), or an
  already running one (``base_url``, e.g. from ``soba-bench serve-model``).

Both take the same parameters otherwise; ``build_summarizer("local", prompt="anchored-iterative",
cache="read-only", clock="real")``. The spec's details name the model, the endpoint origin
(never a key), the prompt id, the cache mode and the latency model, for run records.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from soba_bench.engine.attempt import RealClock, VirtualClock
from soba_bench.engine.strategies.base import Strategy
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy
from soba_bench.errors import ConfigError
from soba_bench.models.cache import open_cache
from soba_bench.models.client import ChatClient, EndpointConfig
from soba_bench.models.invoker import CachedModelInvoker
from soba_bench.models.latency import build_latency_model, describe_latency_model
from soba_bench.models.local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS
from soba_bench.models.local_server import LOCAL_ORIGIN, ServerOptions, shared_local_server
from soba_bench.summarizers.prompts import DEFAULT_PROMPT, load_prompt
from soba_bench.summarizers.registry import SUMMARIZERS, SummarizerSpec

CLOCKS = ("virtual", "real")


def _clock(name: str) -> VirtualClock | RealClock | None:
    if name not in CLOCKS:
        raise ConfigError(f"clock must be one of {', '.join(CLOCKS)}, got {name!r}")
    return RealClock() if name == "real" else None  # None: a fresh virtual clock per replay


def _spec(
    name: str,
    endpoint: EndpointConfig,
    client_factory: Callable[[], ChatClient],
    *,
    prompt: str,
    cache: str,
    cache_path: str | None,
    clock: str,
    latency: Any,
    extra: dict[str, Any],
) -> SummarizerSpec:
    template = load_prompt(prompt)
    latency_model = build_latency_model(latency)
    store = open_cache(cache_path, cache)
    invoker = CachedModelInvoker(endpoint, client_factory, store, latency_model)
    chain: list[Strategy] = [PortableOnlyStrategy(invoker, template), DeterministicStrategy()]
    details = {
        "model": endpoint.model,
        "endpoint": endpoint.origin,
        "prompt": template.name,
        "responseFormat": template.options.get("response_format", "text"),
        "cache": store.mode if store is not None else "off",
        "cachePath": str(store.path) if store is not None else None,
        "clock": clock,
        "latency": describe_latency_model(latency_model),
        "temperature": endpoint.temperature,
        "seed": endpoint.seed,
        "frequencyPenalty": endpoint.frequency_penalty,
        "presencePenalty": endpoint.presence_penalty,
        "reasoningEffort": endpoint.reasoning_effort,
        "reasoningMaxTokens": endpoint.reasoning_max_tokens,
        "reasoningEnabled": endpoint.reasoning_enabled,
        "reasoningTransport": endpoint.reasoning_transport,
        "compatibility": list(endpoint.compatibility),
        "maxRetries": endpoint.max_retries,
        "backoff": endpoint.backoff,
        **extra,
    }
    return SummarizerSpec(name, chain, _clock(clock), template.prompt_id, details)


@SUMMARIZERS.register("model")
def model_summarizer(
    base_url: str | None = None,
    model: str | None = None,
    api_key_env: str | None = None,
    prompt: str = DEFAULT_PROMPT,
    cache: str = "read-write",
    cache_path: str | None = None,
    clock: str = "virtual",
    latency: Any = None,
    timeout_s: float = 120.0,
    max_retries: int = 3,
    temperature: float | None = None,
    seed: int | None = None,
    frequency_penalty: float | None = None,
    presence_penalty: float | None = None,
    reasoning_effort: str | None = None,
    reasoning_max_tokens: int | None = None,
    reasoning_enabled: bool | None = None,
    reasoning_transport: str = "openai_chat",
    compatibility: list[str] | tuple[str, ...] = (),
    backoff: str = "soba",
) -> SummarizerSpec:
    """SOBA's chain against any OpenAI-compatible endpoint, with SOBA's request body and
    retry schedule. Sampling parameters are left to the endpoint unless set, as SOBA leaves
    them; ``reasoning_*`` and ``compatibility`` are SOBA's model settings of the same names
    (``reasoning_transport`` is its ``reasoningTransport``); ``backoff="jittered"`` is the
    one non-SOBA retry schedule."""
    if not base_url or not model:
        raise ConfigError("summarizer 'model' needs base_url and model")
    endpoint = EndpointConfig(
        base_url,
        model,
        api_key_env,
        timeout_s,
        max_retries,
        temperature=temperature,
        seed=seed,
        frequency_penalty=frequency_penalty,
        presence_penalty=presence_penalty,
        reasoning_effort=reasoning_effort,
        reasoning_max_tokens=reasoning_max_tokens,
        reasoning_enabled=reasoning_enabled,
        reasoning_transport=reasoning_transport,
        compatibility=tuple(compatibility or ()),
        backoff=backoff,
    )
    return _spec(
        "model",
        endpoint,
        lambda: ChatClient(endpoint),
        prompt=prompt,
        cache=cache,
        cache_path=cache_path,
        clock=clock,
        latency=latency,
        extra={},
    )


@SUMMARIZERS.register("local")
def local_summarizer(
    model: str = DEFAULT_LOCAL_MODEL,
    base_url: str | None = None,
    api_key_env: str | None = None,
    prompt: str = DEFAULT_PROMPT,
    cache: str = "read-write",
    cache_path: str | None = None,
    clock: str = "virtual",
    latency: Any = None,
    timeout_s: float = 900.0,
    max_retries: int = 3,
    temperature: float | None = 0.0,
    seed: int | None = 0,
    frequency_penalty: float | None = None,
    presence_penalty: float | None = None,
    n_ctx: int = ServerOptions.n_ctx,
    threads: int | None = None,
) -> SummarizerSpec:
    """SOBA's chain on a small local model (greedy decoding and a fixed seed by default, so
    answers are repeatable). Without ``base_url`` a server is started on first need."""
    local = LOCAL_MODELS.get(model)
    options = ServerOptions(model, 0, n_ctx, threads)
    started = base_url is None
    endpoint = EndpointConfig(
        base_url or LOCAL_ORIGIN + "/v1",
        model,
        api_key_env if base_url else None,  # a server we start has no key
        timeout_s,
        max_retries,
        temperature=temperature,
        seed=seed,
        frequency_penalty=frequency_penalty,
        presence_penalty=presence_penalty,
    )

    def client_factory() -> ChatClient:
        if not started:
            return ChatClient(endpoint)
        server = shared_local_server(options)
        return ChatClient(_replace_url(endpoint, server.base_url))

    extra = {
        "localModel": local.title,
        "modelSha256": local.sha256,
        "server": "on-demand" if started else "given",  # on-demand: started on first cache miss
        "nCtx": n_ctx,
    }
    return _spec(
        "local",
        endpoint,
        client_factory,
        prompt=prompt,
        cache=cache,
        cache_path=cache_path,
        clock=clock,
        latency=latency,
        extra=extra,
    )


def _replace_url(endpoint: EndpointConfig, base_url: str) -> EndpointConfig:
    from dataclasses import replace

    return replace(endpoint, base_url=base_url)
