"""Latency models: how long a model call takes on the virtual clock.

On the virtual clock a summary costs no wall time, yet SOBA's ``timeoutMs`` races it, so its
simulated latency decides between a model capsule and the deterministic timeout fallback.

* ``recorded`` (default): the latency measured when the answer was fetched (kept in the
  cache, so a replay reproduces the recording's timeouts).
* ``fixed``: ``ms`` for every call.
* ``lognormal``: median ``median_ms``, log-space spread ``sigma``.
* ``linear``: ``base_ms + per_input_token_ms * input + per_output_token_ms * output``
  (prompt processing and generation time of a local server).
* ``empirical``: drawn from recorded latencies (``values``, or every latency in a cache file).

Random draws are seeded by the config's ``seed`` *and the request's cache key*, so a call's
latency does not depend on how many calls came before it (nor on worker scheduling in a
sweep): the same prompt gets the same latency in every run with the same seed.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from soba_bench.errors import ConfigError
from soba_bench.registry import Registry


@dataclass(frozen=True)
class CallFacts:
    """What a latency model may look at: the request key and sizes (SOBA estimator tokens,
    so the figure is the same whether or not the server reported usage) and the measured
    latency when there is one."""

    key: str
    input_tokens: int
    output_tokens: int
    recorded_ms: float | None = None


def _check(kind: str, **values: float) -> None:
    bad = {k: v for k, v in values.items() if not (isinstance(v, int | float) and v >= 0)}
    if bad:
        raise ConfigError(f"latency model {kind!r}: {bad} must be numbers >= 0")


def _rng(seed: int, key: str) -> random.Random:
    # A str seed is hashed with SHA-512 by random.Random: stable across processes and
    # independent of PYTHONHASHSEED.
    return random.Random(f"{seed}:{key}")


@dataclass(frozen=True)
class Recorded:
    kind: ClassVar[str] = "recorded"

    def latency_ms(self, call: CallFacts) -> float:
        if call.recorded_ms is None:
            raise ConfigError("latency model 'recorded' needs a measured or cached latency")
        return call.recorded_ms


@dataclass(frozen=True)
class Fixed:
    kind: ClassVar[str] = "fixed"
    ms: float = 1000.0

    def __post_init__(self) -> None:
        _check(self.kind, ms=self.ms)

    def latency_ms(self, call: CallFacts) -> float:
        return self.ms


@dataclass(frozen=True)
class LogNormal:
    kind: ClassVar[str] = "lognormal"
    median_ms: float = 4000.0
    sigma: float = 0.5
    seed: int = 0

    def __post_init__(self) -> None:
        _check(self.kind, sigma=self.sigma)
        if not self.median_ms > 0:
            raise ConfigError("latency model 'lognormal': median_ms must be > 0")

    def latency_ms(self, call: CallFacts) -> float:
        return _rng(self.seed, call.key).lognormvariate(math.log(self.median_ms), self.sigma)


@dataclass(frozen=True)
class Linear:
    kind: ClassVar[str] = "linear"
    base_ms: float = 300.0
    per_input_token_ms: float = 14.0  # about 70 tok/s prompt processing (0.5B model, 2 cores)
    per_output_token_ms: float = 60.0  # about 16 tok/s generation

    def __post_init__(self) -> None:
        _check(
            self.kind,
            base_ms=self.base_ms,
            per_input_token_ms=self.per_input_token_ms,
            per_output_token_ms=self.per_output_token_ms,
        )

    def latency_ms(self, call: CallFacts) -> float:
        return (
            self.base_ms
            + self.per_input_token_ms * call.input_tokens
            + self.per_output_token_ms * call.output_tokens
        )


@dataclass(frozen=True)
class Empirical:
    kind: ClassVar[str] = "empirical"
    values: tuple[float, ...] = field(default_factory=tuple)
    seed: int = 0

    def latency_ms(self, call: CallFacts) -> float:
        return _rng(self.seed, call.key).choice(self.values)


LatencyModel = Recorded | Fixed | LogNormal | Linear | Empirical

LATENCY_MODELS: Registry[Callable[..., LatencyModel]] = Registry("latency model")
LATENCY_MODELS.add("recorded", Recorded)
LATENCY_MODELS.add("fixed", Fixed)
LATENCY_MODELS.add("lognormal", LogNormal)
LATENCY_MODELS.add("linear", Linear)


@LATENCY_MODELS.register("empirical")
def _empirical(
    values: Sequence[float] | None = None,
    cache: str | None = None,
    model: str | None = None,
    seed: int = 0,
) -> Empirical:
    if cache is not None:
        from soba_bench.models.cache import READ_ONLY, ResponseCache

        store = ResponseCache(cache, READ_ONLY)
        try:
            values = store.latencies(model)
        finally:
            store.close()
    if not values:
        raise ConfigError("latency model 'empirical' needs recorded latencies (values or cache)")
    _check("empirical", **{f"values[{i}]": v for i, v in enumerate(values)})
    return Empirical(tuple(float(v) for v in values), seed)


def build_latency_model(spec: str | dict[str, Any] | LatencyModel | None) -> LatencyModel:
    """A latency model from a name (``"recorded"``) or a mapping with ``kind`` and that
    model's parameters (``{"kind": "lognormal", "median_ms": 4000, "sigma": 0.5}``)."""
    if spec is None:
        return Recorded()
    if not isinstance(spec, str | dict):
        return spec
    params = {"kind": spec} if isinstance(spec, str) else dict(spec)
    kind = params.pop("kind", None)
    if not isinstance(kind, str):
        raise ConfigError(f"a latency model needs a 'kind' (one of {LATENCY_MODELS.names()})")
    factory = LATENCY_MODELS.get(kind)
    accepted = [n for n in inspect.signature(factory).parameters if n != "kind"]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ConfigError(
            f"latency model {kind!r} has no parameter {', '.join(unknown)}; "
            f"it takes {', '.join(accepted) or 'no parameters'}"
        )
    try:
        return factory(**params)
    except TypeError as exc:
        raise ConfigError(f"latency model {kind!r}: {exc}") from None


def describe_latency_model(model: LatencyModel) -> dict[str, Any]:
    """For run records (an empirical model lists its sample size, not its values)."""
    data = asdict(model)
    if isinstance(model, Empirical):
        values = data.pop("values")
        data["samples"] = len(values)
        data["median_ms"] = sorted(values)[len(values) // 2]
    return {"kind": model.kind, **data}
