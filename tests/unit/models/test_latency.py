"""Latency models for the virtual clock: values, seeded determinism, construction errors."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from soba_bench.errors import ConfigError, UnknownNameError
from soba_bench.models.cache import CachedReply, ResponseCache, request_key
from soba_bench.models.latency import (
    CallFacts,
    Empirical,
    Fixed,
    Linear,
    LogNormal,
    Recorded,
    build_latency_model,
    describe_latency_model,
)


def facts(key: str = "k", tokens: int = 1000, out: int = 100, recorded=None) -> CallFacts:
    return CallFacts(key, tokens, out, recorded)


def test_recorded_returns_the_measured_latency_and_needs_one():
    assert Recorded().latency_ms(facts(recorded=2345.0)) == 2345.0
    with pytest.raises(ConfigError, match="measured or cached"):
        Recorded().latency_ms(facts())


def test_fixed_and_linear_are_arithmetic():
    assert Fixed(1500).latency_ms(facts()) == 1500
    model = Linear(base_ms=100, per_input_token_ms=2, per_output_token_ms=10)
    assert model.latency_ms(facts(tokens=1000, out=50)) == 100 + 2000 + 500


def test_lognormal_is_seeded_per_request_not_per_call_order():
    model = LogNormal(median_ms=4000, sigma=0.5, seed=7)
    first = [model.latency_ms(facts(f"k{i}")) for i in range(50)]
    backwards = [model.latency_ms(facts(f"k{i}")) for i in reversed(range(50))]
    assert first == list(reversed(backwards))
    assert LogNormal(4000, 0.5, 7).latency_ms(facts("k1")) == first[1]  # a new instance too
    assert LogNormal(4000, 0.5, 8).latency_ms(facts("k1")) != first[1]  # the seed matters
    assert len(set(first)) == 50


def test_lognormal_median_is_the_configured_median():
    model = LogNormal(median_ms=4000, sigma=0.5, seed=0)
    draws = [model.latency_ms(facts(f"key-{i}")) for i in range(4000)]
    assert 3700 < statistics.median(draws) < 4300
    assert all(d > 0 for d in draws)


def test_empirical_samples_recorded_values_deterministically():
    model = build_latency_model({"kind": "empirical", "values": [100, 200, 300], "seed": 1})
    draws = [model.latency_ms(facts(f"k{i}")) for i in range(60)]
    assert set(draws) == {100.0, 200.0, 300.0}
    assert draws == [model.latency_ms(facts(f"k{i}")) for i in range(60)]


def test_empirical_from_a_cache_file_reads_its_recorded_latencies(tmp_path: Path):
    path = tmp_path / "c.sqlite"
    cache = ResponseCache(path)
    for i, ms in enumerate([1000.0, 2000.0, 3000.0]):
        cache.put(request_key("a", {"i": i}), "a", {"i": i}, CachedReply("x", ms))
    cache.put(request_key("b", {}), "b", {}, CachedReply("x", 9999.0))
    cache.close()
    model = build_latency_model({"kind": "empirical", "cache": str(path), "model": "a"})
    assert isinstance(model, Empirical) and sorted(model.values) == [1000.0, 2000.0, 3000.0]
    assert describe_latency_model(model) == {
        "kind": "empirical",
        "seed": 0,
        "samples": 3,
        "median_ms": 2000.0,
    }
    with pytest.raises(ConfigError, match="needs recorded latencies"):
        build_latency_model({"kind": "empirical", "cache": str(path), "model": "none"})


def test_build_from_names_and_mappings():
    assert build_latency_model(None) == Recorded()
    assert build_latency_model("recorded") == Recorded()
    assert build_latency_model({"kind": "fixed", "ms": 10}) == Fixed(10)
    assert describe_latency_model(build_latency_model({"kind": "lognormal", "seed": 3})) == {
        "kind": "lognormal",
        "median_ms": 4000.0,
        "sigma": 0.5,
        "seed": 3,
    }
    with pytest.raises(UnknownNameError, match="empirical, fixed, linear, lognormal, recorded"):
        build_latency_model("gamma")
    with pytest.raises(ConfigError, match=r"'fixed'.*median_ms"):
        build_latency_model({"kind": "fixed", "median_ms": 3})
    with pytest.raises(ConfigError, match="needs a 'kind'"):
        build_latency_model({"ms": 3})


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "fixed", "ms": -1},
        {"kind": "lognormal", "median_ms": 0},
        {"kind": "lognormal", "sigma": -0.1},
        {"kind": "linear", "per_input_token_ms": -2},
        {"kind": "empirical", "values": [10, -5]},
    ],
)
def test_negative_or_zero_parameters_are_refused(spec):
    with pytest.raises(ConfigError, match=spec["kind"]):
        build_latency_model(spec)
