"""Bootstrap intervals and metric declarations."""

from __future__ import annotations

import numpy as np
import pytest

from soba_bench.errors import UnknownNameError
from soba_bench.scoring.stats import METRICS, MetricSpec, bootstrap_ci, paired_bootstrap_delta

VALUES = [0.9, 0.7, 0.8, None, 0.95, 0.6, 0.85, 0.75, None, 0.5, 1.0]


def test_fixed_seed_is_deterministic():
    first = bootstrap_ci(VALUES, seed=7)
    assert bootstrap_ci(VALUES, seed=7) == first
    assert bootstrap_ci(VALUES, seed=8) != first
    assert paired_bootstrap_delta(VALUES, VALUES[::-1], seed=3) == paired_bootstrap_delta(
        VALUES, VALUES[::-1], seed=3
    )


def test_estimate_is_the_statistic_of_the_non_missing_values():
    present = [v for v in VALUES if v is not None]
    estimate, low, high = bootstrap_ci(VALUES)
    assert estimate == pytest.approx(sum(present) / len(present))
    assert low <= estimate <= high
    assert high - low > 0
    median, m_low, m_high = bootstrap_ci(VALUES, statistic="median")
    assert median == pytest.approx(0.8)
    assert m_low <= median <= m_high
    custom = bootstrap_ci(VALUES, statistic=lambda a: np.max(a, axis=-1))
    assert custom[0] == 1.0 and custom[2] == 1.0


def test_wider_confidence_gives_a_wider_interval():
    _, low90, high90 = bootstrap_ci(VALUES, confidence=0.9)
    _, low99, high99 = bootstrap_ci(VALUES, confidence=0.99)
    assert low99 <= low90 and high90 <= high99


def test_edge_cases():
    assert bootstrap_ci([]) == (None, None, None)
    assert bootstrap_ci([None, None]) == (None, None, None)
    assert bootstrap_ci([None, 3]) == (3.0, 3.0, 3.0)
    assert bootstrap_ci([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    with pytest.raises(ValueError, match="valid: mean, median, sum"):
        bootstrap_ci(VALUES, statistic="mode")
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci(VALUES, confidence=1.0)
    with pytest.raises(ValueError, match="n_resamples"):
        bootstrap_ci(VALUES, n_resamples=0)


def test_large_inputs_are_resampled_in_chunks():
    values = np.random.default_rng(1).normal(10, 2, size=5000).tolist()
    estimate, low, high = bootstrap_ci(values, n_resamples=1000)
    # Standard error 2/sqrt(5000) ≈ 0.028: the 95 % interval spans about ±0.055.
    assert low < estimate < high
    assert 0.07 < high - low < 0.15


def test_coverage_on_a_known_distribution():
    # 95 % intervals from 200 samples of N(5, 1), n=40 each: about 95 % should cover 5.
    # (Fixed seeds make this exact; the tolerance only absorbs the bootstrap's own bias.)
    rng = np.random.default_rng(2024)
    hits = 0
    trials = 200
    for trial in range(trials):
        sample = rng.normal(5.0, 1.0, size=40).tolist()
        _, low, high = bootstrap_ci(sample, n_resamples=500, seed=trial)
        hits += low <= 5.0 <= high
    assert 0.88 <= hits / trials <= 0.99


def test_paired_delta():
    base = [0.5, 0.6, 0.7, 0.8, None, 0.4]
    cand = [0.6, 0.7, 0.8, 0.9, 0.9, None]  # +0.1 on every complete pair
    estimate, low, high = paired_bootstrap_delta(base, cand)
    assert estimate == pytest.approx(0.1)
    assert low == pytest.approx(0.1) and high == pytest.approx(0.1)
    # Pairing removes the between-session spread: a small consistent gain is significant.
    rng = np.random.default_rng(0)
    sessions = rng.uniform(0.2, 0.9, size=30)
    noisy = sessions + 0.02 + rng.normal(0, 0.005, size=30)
    _, p_low, _ = paired_bootstrap_delta(sessions.tolist(), noisy.tolist())
    assert p_low > 0
    assert paired_bootstrap_delta([None], [1.0]) == (None, None, None)
    with pytest.raises(ValueError, match="differ in length"):
        paired_bootstrap_delta([1.0], [1.0, 2.0])


def test_metric_declarations():
    required = {
        "recall": True,
        "precision": True,
        "staleness": False,
        "leaks": False,
        "reclaimed_tokens": True,
        "savings_ratio": True,
        "skip_rate": False,
        "degraded_rate": False,
        "soba_quality_score": True,
        "soba_quality_pass_rate": True,
        "blocked_requests": False,
    }
    for name, higher in required.items():
        spec = METRICS.get(name)
        assert isinstance(spec, MetricSpec) and spec.name == name
        assert spec.higher_is_better is higher, name
        assert spec.description and spec.unit
    assert METRICS.get("reclaimed_tokens").unit == "tokens"
    assert METRICS.get("staleness").improvement(-0.1) == 0.1
    assert METRICS.get("recall").improvement(-0.1) == -0.1
    with pytest.raises(UnknownNameError):
        METRICS.get("accuracy")


def test_wilson_interval_matches_the_figures_the_benchmarks_state():
    from soba_bench.scoring.stats import wilson_interval

    low, high = wilson_interval(0, 20)  # A/A: 0 of 20 pairs flagged
    assert low == 0.0 and round(high, 3) == 0.161
    low, high = wilson_interval(7, 7)  # planted power: 7 of 7 seeds
    assert round(low, 3) == 0.646 and high == 1.0
    low, high = wilson_interval(1, 7)
    assert round(low, 3) == 0.026 and round(high, 3) == 0.513
    assert wilson_interval(0, 0) == (0.0, 1.0)  # nothing measured: nothing known
