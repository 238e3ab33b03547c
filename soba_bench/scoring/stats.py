"""Uncertainty for report numbers: percentile-bootstrap intervals for one metric and for the
paired difference between two runs on the same sessions, plus the declarations of the metrics
reports show (which way is better, in what unit), so ``compare`` never has to guess.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from soba_bench.registry import Registry

# A name from _STATISTICS, or a callable that reduces the last axis of an array.
Statistic = str | Callable[[np.ndarray], np.ndarray]
Interval = tuple[float | None, float | None, float | None]

# Reductions along the last axis, so one call scores every resample at once.
_STATISTICS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "mean": lambda a: np.mean(a, axis=-1),
    "median": lambda a: np.median(a, axis=-1),
    "sum": lambda a: np.sum(a, axis=-1),
}
# Resampled index matrices are built in chunks of about this many cells to bound memory.
_CHUNK_CELLS = 2_000_000


def _statistic(statistic: Statistic) -> Callable[[np.ndarray], np.ndarray]:
    if callable(statistic):
        return statistic
    try:
        return _STATISTICS[statistic]
    except KeyError:
        valid = ", ".join(sorted(_STATISTICS))
        raise ValueError(f"unknown statistic {statistic!r}; valid: {valid} or a callable") from None


def _check(n_resamples: int, confidence: float) -> None:
    if not isinstance(n_resamples, int) or n_resamples < 1:
        raise ValueError(f"n_resamples must be an integer >= 1, got {n_resamples!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1 (exclusive), got {confidence!r}")


def _bootstrap(
    data: np.ndarray,
    statistic: Statistic,
    n_resamples: int,
    confidence: float,
    seed: int,
) -> Interval:
    fn = _statistic(statistic)
    n = len(data)
    estimate = float(fn(data))
    if n == 1:
        return estimate, estimate, estimate
    rng = np.random.default_rng(seed)
    chunk = max(1, _CHUNK_CELLS // n)
    stats: list[np.ndarray] = []
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        stats.append(np.asarray(fn(data[rng.integers(0, n, size=(size, n))]), dtype=float))
    resampled = np.concatenate(stats)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(resampled, [alpha, 1 - alpha])
    return estimate, float(low), float(high)


def bootstrap_ci(
    values: Iterable[float | None],
    statistic: Statistic = "mean",
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Interval:
    """(estimate, low, high): the statistic of the values and its percentile-bootstrap
    interval. None values (a metric that does not apply to a session) are dropped; no values
    give (None, None, None) and a single value gives (v, v, v). The same seed always gives
    the same interval."""
    _check(n_resamples, confidence)
    data = np.asarray([v for v in values if v is not None], dtype=float)
    if data.size == 0:
        return None, None, None
    return _bootstrap(data, statistic, n_resamples, confidence, seed)


def paired_bootstrap_delta(
    base: Sequence[float | None],
    cand: Sequence[float | None],
    statistic: Statistic = "mean",
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Interval:
    """(estimate, low, high) of the statistic of ``cand - base`` over paired observations (the
    same sessions under two configs). Resampling pairs keeps the per-session correlation,
    which makes the interval far tighter than comparing two independent intervals. Pairs
    with a None on either side are dropped."""
    if len(base) != len(cand):
        raise ValueError(f"paired samples differ in length: base {len(base)}, cand {len(cand)}")
    _check(n_resamples, confidence)
    diffs = [c - b for b, c in zip(base, cand, strict=True) if b is not None and c is not None]
    if not diffs:
        return None, None, None
    return _bootstrap(np.asarray(diffs, dtype=float), statistic, n_resamples, confidence, seed)


@dataclass(frozen=True)
class MetricSpec:
    """How to read a metric: its meaning, which direction is better, and its unit."""

    name: str
    description: str
    higher_is_better: bool
    unit: str

    def improvement(self, delta: float) -> float:
        """``delta`` (candidate - base) signed so that positive always means better."""
        return delta if self.higher_is_better else -delta


METRICS: Registry[MetricSpec] = Registry("metric")


def _declare(name: str, description: str, higher_is_better: bool, unit: str) -> None:
    METRICS.add(name, MetricSpec(name, description, higher_is_better, unit))


_declare("recall", "share of live ground-truth facts still present", True, "ratio")
_declare("precision", "share of listed files and commands that are real", True, "ratio")
_declare("staleness", "share of superseded or resolved facts shown as current", False, "ratio")
_declare("leaks", "secrets, injections or distractors carried along", False, "count")
_declare("hallucinated_paths", "listed file paths that the session never touched", False, "count")
_declare("reclaimed_tokens", "tokens reclaimed by completed compactions", True, "tokens")
_declare("savings_ratio", "reclaimed tokens / effective tokens before compaction", True, "ratio")
_declare("skip_rate", "share of compaction attempts skipped by the ROI checks", False, "ratio")
_declare("degraded_rate", "share of capsules produced by a degraded fallback", False, "ratio")
_declare("soba_quality_score", "SOBA's lexical portable-capsule quality score", True, "score")
_declare("soba_quality_pass_rate", "share of capsules passing SOBA's threshold", True, "ratio")
_declare("blocked_requests", "barriers that refused the model request", False, "count")
_declare("failure_findings", "failure-mode detector findings", False, "count")
_declare("availability", "share of live facts the model can see at each request", True, "ratio")
_declare("contradiction", "share of live facts the capsule sent states wrongly", False, "ratio")
_declare(
    "invented_paths", "share of the capsule's file paths the session never named", False, "ratio"
)
_declare("refused_requests", "model requests refused (nothing sent)", False, "count")
_declare("blocked_turns", "turns with at least one refused request", False, "count")
_declare("overflows", "requests whose input would not fit the context window", False, "count")
_declare("input_tokens_billed", "input tokens of every request sent", False, "tokens")
_declare("peak_context_tokens", "largest input sent", False, "tokens")

# Up to this many pairs the sign-flip test enumerates every sign vector (2^n of them).
_EXACT_SIGN_FLIPS = 16


def sign_flip_pvalues(
    diffs: Sequence[float], n_resamples: int = 20000, seed: int = 0
) -> tuple[float, float]:
    """One-sided p-values (mean < 0, mean > 0) of a paired sign-flip randomization test on
    the per-session differences. Under "no difference" each session's two sides are
    exchangeable, so every sign of its difference is equally likely: the test is exact at any
    n (every sign vector enumerated up to 16 pairs; a seeded Monte-Carlo sample above), which
    a percentile bootstrap is not at small n. No differences give (1, 1)."""
    data = np.asarray(diffs, dtype=float)
    n = data.size
    if n == 0:
        return 1.0, 1.0
    observed = data.mean()
    if n <= _EXACT_SIGN_FLIPS:
        codes = np.arange(2**n, dtype=np.int64)[:, None] >> np.arange(n) & 1
        signs = 1 - 2 * codes
        means = (signs * data).mean(axis=1)
        tol = 1e-12 * max(1.0, float(np.abs(data).max()))
        return (
            float(np.mean(means <= observed + tol)),
            float(np.mean(means >= observed - tol)),
        )
    rng = np.random.default_rng(seed)
    signs = rng.choice(np.array([-1.0, 1.0]), size=(n_resamples, n))
    means = (signs * data).mean(axis=1)
    tol = 1e-12 * max(1.0, float(np.abs(data).max()))
    less = (1 + np.sum(means <= observed + tol)) / (n_resamples + 1)
    greater = (1 + np.sum(means >= observed - tol)) / (n_resamples + 1)
    return float(less), float(greater)


def min_sign_flip_p(n: int) -> float:
    """The smallest one-sided p-value a sign-flip test over ``n`` pairs can give."""
    return 2.0**-n if n > 0 else 1.0


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (None stays None and does not count as a test):
    rejecting where the adjusted value is <= alpha keeps the chance of any false rejection
    among the tests at most alpha."""
    tested = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(tested)
    out: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def minimum_detectable_effect(
    diffs: Sequence[float], alpha: float = 0.05, power: float = 0.8
) -> float | None:
    """The smallest true mean difference a one-sided test at level ``alpha`` detects with the
    given power, for this many pairs and their observed spread (normal approximation):
    ``(z(1 - alpha) + z(power)) * sd / sqrt(n)``. None below two pairs."""
    from statistics import NormalDist

    data = np.asarray(diffs, dtype=float)
    if data.size < 2:
        return None
    sd = float(data.std(ddof=1))
    z = NormalDist().inv_cdf
    return (z(1 - alpha) + z(power)) * sd / float(np.sqrt(data.size))


def wilson_interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95 % at the default z): the interval the
    benchmarks state for detection power and false-alarm rates, which stays inside [0, 1] and
    is honest at 0/n and n/n, where the normal approximation collapses to a point."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
