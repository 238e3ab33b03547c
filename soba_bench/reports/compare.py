"""``compare``: the CI gate for prompt and engine changes.

Two result folders (a run or a sweep each) are paired by config and session
(:mod:`soba_bench.reports.compare_pairing` states the rule), every selected metric gets the
paired difference CAND - BASE over the sessions both sides scored, with a seeded percentile
bootstrap interval (:func:`soba_bench.scoring.stats.paired_bootstrap_delta`), and a metric is
a *regression* when, for some config pair, it got worse by more than its ``max_drop`` (in the
metric's own unit) and the interval excludes zero on the worse side. Improvements never fail
the gate; direction comes from each metric's ``higher_is_better``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.reports.compare_metrics import (
    COMPARE_METRICS,
    DEFAULT_MAX_DROP,
    DEFAULT_METRICS,
    SideMetrics,
    resolve_metrics,
)
from soba_bench.reports.compare_pairing import Pairing, find_jobs, pair_jobs, show
from soba_bench.scoring.stats import paired_bootstrap_delta

SCHEMA_VERSION = 1
# Fewer paired sessions than this give no usable interval: reported, never flagged.
MIN_PAIRS = 2


@dataclass(frozen=True)
class MetricDelta:
    """One metric on one config pair: means over the paired sessions and CAND - BASE."""

    metric: str
    config: str  # the pair's label ("" when the folders hold one config each)
    unit: str
    higher_is_better: bool
    sessions: int  # sessions with a value on both sides
    base: float | None
    cand: float | None
    delta: float | None
    low: float | None
    high: float | None
    max_drop: float
    regression: bool

    @property
    def changed(self) -> bool:
        return self.delta is not None and (self.delta != 0 or self.low != self.high)


@dataclass(frozen=True)
class PairInfo:
    config: str
    base_job: str
    cand_job: str
    sessions: int
    unpaired_base_sessions: tuple[str, ...]
    unpaired_cand_sessions: tuple[str, ...]


@dataclass(frozen=True)
class Comparison:
    """Everything ``compare`` found; :meth:`to_markdown` and :meth:`to_json` render it."""

    base: str
    cand: str
    tested: tuple[tuple[str, str, str], ...]  # (config key, base value, cand value)
    pairs: tuple[PairInfo, ...]
    deltas: tuple[MetricDelta, ...]
    unpaired_base_configs: tuple[str, ...]
    unpaired_cand_configs: tuple[str, ...]
    failed_jobs: tuple[str, ...]
    confidence: float
    seed: int
    n_resamples: int

    @property
    def regressions(self) -> tuple[MetricDelta, ...]:
        return tuple(d for d in self.deltas if d.regression)

    @property
    def flagged_metrics(self) -> tuple[str, ...]:
        """Names of the metrics that regressed on at least one config pair."""
        return tuple(dict.fromkeys(d.metric for d in self.regressions))

    @property
    def exit_code(self) -> int:
        """0 when nothing regressed, 1 otherwise (the CLI's status)."""
        return 1 if self.regressions else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": "soba-bench-compare",
            "verdict": "regression" if self.regressions else "ok",
            "flagged_metrics": list(self.flagged_metrics),
            **{k: v for k, v in asdict(self).items() if k not in ("deltas", "tested")},
            "tested": [{"key": k, "base": show(b), "cand": show(c)} for k, b, c in self.tested],
            "deltas": [{**asdict(d), "changed": d.changed} for d in self.deltas],
        }

    def to_json(self) -> str:
        """The comparison as JSON (``schema_version`` 1)."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def to_markdown(self) -> str:
        """A compact report for a pull-request comment."""
        from soba_bench.reports.compare_render import render_markdown

        return render_markdown(self)

    def figure(self, only_changed: bool = True):
        """A matplotlib Figure of the deltas and their intervals (None when nothing moved)."""
        from soba_bench.reports.compare_render import comparison_figure

        return comparison_figure(self, only_changed)


def _max_drops(max_drop: float | Mapping[str, float], names: Iterable[str]) -> dict[str, float]:
    if isinstance(max_drop, Mapping):
        default = float(max_drop.get("*", DEFAULT_MAX_DROP))
        for name in max_drop:
            if name != "*":
                COMPARE_METRICS.get(name)
        return {n: float(max_drop.get(n, default)) for n in names}
    return dict.fromkeys(names, float(max_drop))


def _check_drops(drops: Mapping[str, float]) -> None:
    for name, value in drops.items():
        if not value >= 0:
            raise InputError(
                "max drop must be a number >= 0",
                field=f"max_drop[{name}]",
                value=value,
                has_value=True,
            )


def _regressed(delta: float, low: float, high: float, higher_is_better: bool, drop: float) -> bool:
    if higher_is_better:
        return delta < -drop and high < 0
    return delta > drop and low > 0


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def compare_runs(
    base: str | Path,
    cand: str | Path,
    metrics: Iterable[str] | None = None,
    max_drop: float | Mapping[str, float] = DEFAULT_MAX_DROP,
    seed: int = 0,
    confidence: float = 0.95,
    n_resamples: int = 2000,
) -> Comparison:
    """Compare the CAND folder with the BASE folder (each a run or a sweep folder).

    ``metrics``: names from :data:`COMPARE_METRICS` (default :data:`DEFAULT_METRICS`).
    ``max_drop``: one threshold for all metrics, or ``{name: threshold, "*": default}``, in
    each metric's unit. Raises :class:`~soba_bench.errors.InputError` when a folder holds no
    complete run or when no config or no session pairs."""
    chosen = resolve_metrics(metrics)
    drops = _max_drops(max_drop, [m.name for m in chosen])
    _check_drops(drops)
    base_jobs, base_failed = find_jobs(base, "BASE")
    cand_jobs, cand_failed = find_jobs(cand, "CAND")
    pairing = pair_jobs(base_jobs, cand_jobs, (*base_failed, *cand_failed))
    if not pairing.pairs:
        _no_pairs(pairing, base, cand)
    infos, deltas = [], []
    base_side, cand_side = SideMetrics(base), SideMetrics(cand)
    for pair in pairing.pairs:
        b_folder, c_folder = pair.base.folder, pair.cand.folder
        b_sessions, c_sessions = base_side.sessions(b_folder), cand_side.sessions(c_folder)
        in_cand = set(c_sessions)
        common = [s for s in b_sessions if s in in_cand]
        shared = set(common)
        infos.append(
            PairInfo(
                pair.label,
                pair.base.job_id,
                pair.cand.job_id,
                len(common),
                tuple(s for s in b_sessions if s not in shared),
                tuple(s for s in c_sessions if s not in shared),
            )
        )
        for metric in chosen:
            b_vals = base_side.values(b_folder, metric)
            c_vals = cand_side.values(c_folder, metric)
            both = [(b_vals[s], c_vals[s]) for s in common]
            both = [(b, c) for b, c in both if b is not None and c is not None]
            spec = metric.spec
            delta = low = high = None
            regression = False
            if both:
                delta, low, high = paired_bootstrap_delta(
                    [b for b, _ in both],
                    [c for _, c in both],
                    n_resamples=n_resamples,
                    confidence=confidence,
                    seed=seed,
                )
                regression = len(both) >= MIN_PAIRS and _regressed(
                    delta, low, high, spec.higher_is_better, drops[metric.name]
                )
            deltas.append(
                MetricDelta(
                    metric.name,
                    pair.label,
                    spec.unit,
                    spec.higher_is_better,
                    len(both),
                    _mean([b for b, _ in both]),
                    _mean([c for _, c in both]),
                    delta,
                    low,
                    high,
                    drops[metric.name],
                    regression,
                )
            )
    if not any(info.sessions for info in infos):
        raise InputError(
            "no session pairs: the paired jobs replayed different sessions",
            path=f"{base} vs {cand}",
            expected="runs over the same corpus",
        )
    return Comparison(
        str(base),
        str(cand),
        pairing.tested,
        tuple(infos),
        tuple(deltas),
        pairing.unpaired_base,
        pairing.unpaired_cand,
        pairing.failed,
        confidence,
        seed,
        n_resamples,
    )


def _no_pairs(pairing: Pairing, base: str | Path, cand: str | Path) -> None:
    tested = ", ".join(k for k, _, _ in pairing.tested) or "none"
    raise InputError(
        "no config pairs: no BASE job has the config of a CAND job "
        f"(keys under test: {tested}; BASE jobs {', '.join(pairing.unpaired_base)}; "
        f"CAND jobs {', '.join(pairing.unpaired_cand)})",
        path=f"{base} vs {cand}",
        expected="the same grid on both sides, differing in the setting under test",
    )


__all__ = [
    "COMPARE_METRICS",
    "DEFAULT_MAX_DROP",
    "DEFAULT_METRICS",
    "Comparison",
    "MetricDelta",
    "PairInfo",
    "compare_runs",
]
