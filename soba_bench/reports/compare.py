"""``compare``: the CI gate for prompt and engine changes.

Two result folders (a run or a sweep each) are paired by config and session
(:mod:`soba_bench.reports.compare_pairing` states the rule). Every job of a session is scored
at the same evaluation points (the model requests of the walk), so a paired session compares
the same questions; ``points`` says for how many paired sessions the two sides' evaluation
points are identical (a digest of the request keys).

For every gated metric and config pair, over the sessions both sides scored:

* CAND - BASE of the per-session values, with a seeded paired-bootstrap interval over
  sessions (:func:`soba_bench.scoring.stats.paired_bootstrap_delta`);
* one-sided p-values from a paired sign-flip test (exact at small n, where a percentile
  bootstrap is not), Holm-adjusted over all (metric, pair) tests, so the chance that an
  A/A comparison flags anything stays at most ``1 - confidence``;
* the minimum detectable effect (80 % power at the strictest Holm level) for that n.

A metric *regresses* when it got worse by more than its ``max_drop`` (in its own unit) with
its Holm-adjusted p-value at most ``1 - confidence``; it *improves* likewise the other way.
Outcomes and availability are judged together: on a config pair where refused requests (or
blocked turns) improved and the headline availability did not regress, the other worsened
metrics are listed as traded, not failed (a fix that stops refusing requests is an
improvement), except the degraded-fallback rate, which always fails when it rises.

The gate *cannot test* when the headline availability has no testable pair (no ground truth,
or too few paired sessions for the sign-flip test to reach the Holm level): it says so and
exits 3, never "no regression". Exit codes: 0 no regression (or an improvement), 1
regression, 2 bad input, 3 cannot test.
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
    HEADLINE,
    OUTCOME_RELIEF,
    REPORTED_METRICS,
    UNEXCUSED,
    SideMetrics,
    resolve_metrics,
)
from soba_bench.reports.compare_pairing import Pairing, find_jobs, pair_jobs, show
from soba_bench.reports.scores import scored_by
from soba_bench.runs.layout import RunLayout
from soba_bench.scoring.scorer import SCORES_REVISION
from soba_bench.scoring.stats import (
    holm,
    min_sign_flip_p,
    minimum_detectable_effect,
    paired_bootstrap_delta,
    sign_flip_pvalues,
)

SCHEMA_VERSION = 2
# Fewer paired sessions than this give no usable interval: reported, never tested.
MIN_PAIRS = 2
EXIT_OK, EXIT_REGRESSION, EXIT_BAD_INPUT, EXIT_CANNOT_TEST = 0, 1, 2, 3


@dataclass(frozen=True)
class MetricDelta:
    """One metric on one config pair: means over the paired sessions, CAND - BASE, its
    interval, its test and what the gate made of it."""

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
    regression: bool  # fails the gate
    gated: bool = True  # False: shown for information (costs), never tested
    testable: bool = False  # enough pairs for the sign-flip test to reach the Holm level
    p_worse: float | None = None  # Holm-adjusted one-sided p-value of "CAND is worse"
    p_better: float | None = None  # ... of "CAND is better"
    mde: float | None = None  # minimum detectable effect, in the metric's unit
    improved: bool = False
    worse: bool = False  # significantly worse by more than max drop (failing or traded)
    traded: bool = False  # worse, but excused by fewer refused requests (see the module)

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
    same_points: int = 0  # paired sessions whose evaluation points are identical


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
    cannot_test: str | None = None  # why the gate could not test (None: it could)

    @property
    def regressions(self) -> tuple[MetricDelta, ...]:
        return tuple(d for d in self.deltas if d.regression)

    @property
    def improvements(self) -> tuple[MetricDelta, ...]:
        return tuple(d for d in self.deltas if d.improved)

    @property
    def flagged_metrics(self) -> tuple[str, ...]:
        """Names of the metrics that regressed on at least one config pair."""
        return tuple(dict.fromkeys(d.metric for d in self.regressions))

    @property
    def verdict(self) -> str:
        """regression | cannot test | improvement | no regression."""
        if self.regressions:
            return "regression"
        if self.cannot_test is not None:
            return "cannot test"
        return "improvement" if self.improvements else "no regression"

    @property
    def exit_code(self) -> int:
        """0 no regression or an improvement, 1 regression, 3 cannot test (the CLI's status;
        2 is bad input, raised before a comparison exists)."""
        return {
            "regression": EXIT_REGRESSION,
            "cannot test": EXIT_CANNOT_TEST,
        }.get(self.verdict, EXIT_OK)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": "soba-bench-compare",
            "verdict": self.verdict,
            "exit_code": self.exit_code,
            "flagged_metrics": list(self.flagged_metrics),
            "improved_metrics": list(dict.fromkeys(d.metric for d in self.improvements)),
            **{k: v for k, v in asdict(self).items() if k not in ("deltas", "tested")},
            "tested": [{"key": k, "base": show(b), "cand": show(c)} for k, b, c in self.tested],
            "deltas": [{**asdict(d), "changed": d.changed} for d in self.deltas],
        }

    def to_json(self) -> str:
        """The comparison as JSON (``schema_version`` 2)."""
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


def _beyond(delta: float, higher_is_better: bool, drop: float, worse: bool) -> bool:
    """Is ``delta`` worse (or better) by more than ``drop``?"""
    signed = delta if higher_is_better else -delta
    return signed < -drop if worse else signed > drop


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass
class _Cell:
    """One (metric, config pair) before the verdict."""

    metric: Any
    pair: int
    label: str
    gated: bool
    both: list[tuple[float, float]]
    delta: float | None = None
    low: float | None = None
    high: float | None = None
    raw_worse: float | None = None
    raw_better: float | None = None


def _same_instrument(base: Path, cand: Path) -> None:
    """Scores judged by two matchers, by one matcher with two models, or written by two
    revisions of the scorers differ by the instrument, not the configs: refuse them."""
    b_scored, c_scored = scored_by(base), scored_by(cand)
    if b_scored is None or c_scored is None:
        return  # a side without scores: the metrics it lacks are missing, said where read
    b_matcher, b_models = b_scored.matcher, b_scored.matcher_models
    c_matcher, c_models = c_scored.matcher, c_scored.matcher_models
    rescore = f"'soba-bench score RUN_DIR --prose-matcher {b_matcher}'"
    if b_scored.revision != c_scored.revision:
        older = min((b_scored, c_scored), key=lambda s: s.revision or 0)
        raise InputError(
            "the two sides were scored by different revisions of the scorers (one was scored "
            "before a fix that changes score records); score the older side again with this "
            f"soba-bench ({rescore})",
            path=str(older.path),
            field="scoresRevision",
            value=older.revision,
            has_value=True,
            expected=f"{SCORES_REVISION}, this soba-bench's revision",
        )
    checks = (
        ("matcher", b_matcher, c_matcher, "different matchers; score both with one", "matcher"),
        # models only compare under one matcher (another matcher was refused above)
        (
            "matcherModels",
            b_models if b_matcher == c_matcher else None,
            c_models,
            "different models of one matcher (another soba-bench version); score both with "
            "this one",
            "models",
        ),
    )
    for field, b_value, c_value, problem, what in checks:
        if b_value and c_value and b_value != c_value:
            raise InputError(
                f"the two sides were scored by {problem} ({rescore})",
                path=str(RunLayout(cand).scored()),
                field=field,
                value=c_value,
                has_value=True,
                expected=f"{b_value}, the {what} of BASE's {RunLayout(base).scored()}",
            )


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

    ``metrics``: the gated metrics, names from :data:`COMPARE_METRICS` (default
    :data:`DEFAULT_METRICS`); the costs in :data:`REPORTED_METRICS` are shown beside them,
    never gated. ``max_drop``: one threshold for all metrics, or
    ``{name: threshold, "*": default}``, in each metric's unit. Raises
    :class:`~soba_bench.errors.InputError` when a folder holds no complete run or when no
    config or no session pairs."""
    chosen = resolve_metrics(metrics)
    shown = tuple(
        COMPARE_METRICS.get(n) for n in REPORTED_METRICS if n not in {m.name for m in chosen}
    )
    drops = _max_drops(max_drop, [m.name for m in (*chosen, *shown)])
    _check_drops(drops)
    alpha = 1 - confidence
    base_jobs, base_failed = find_jobs(base, "BASE")
    cand_jobs, cand_failed = find_jobs(cand, "CAND")
    pairing = pair_jobs(base_jobs, cand_jobs, (*base_failed, *cand_failed))
    if not pairing.pairs:
        _no_pairs(pairing, base, cand)
    infos: list[PairInfo] = []
    cells: list[_Cell] = []
    base_side, cand_side = SideMetrics(base), SideMetrics(cand)
    for number, pair in enumerate(pairing.pairs):
        b_folder, c_folder = pair.base.folder, pair.cand.folder
        _same_instrument(b_folder, c_folder)
        b_sessions, c_sessions = base_side.sessions(b_folder), cand_side.sessions(c_folder)
        in_cand = set(c_sessions)
        common = [s for s in b_sessions if s in in_cand]
        shared = set(common)
        b_points, c_points = base_side.points(b_folder), cand_side.points(c_folder)
        same = sum(1 for s in common if b_points.get(s) and b_points.get(s) == c_points.get(s))
        infos.append(
            PairInfo(
                pair.label,
                pair.base.job_id,
                pair.cand.job_id,
                len(common),
                tuple(s for s in b_sessions if s not in shared),
                tuple(s for s in c_sessions if s not in shared),
                same,
            )
        )
        for metric, gated in [*((m, True) for m in chosen), *((m, False) for m in shown)]:
            b_vals = base_side.values(b_folder, metric)
            c_vals = cand_side.values(c_folder, metric)
            both = [
                (b, c)
                for s in common
                if (b := b_vals[s]) is not None and (c := c_vals[s]) is not None
            ]
            cells.append(_Cell(metric, number, pair.label, gated, both))
    if not any(info.sessions for info in infos):
        raise InputError(
            "no session pairs: the paired jobs replayed different sessions",
            path=f"{base} vs {cand}",
            expected="runs over the same corpus",
        )
    gated_cells = [c for c in cells if c.gated]
    for cell in cells:
        if not cell.both:
            continue
        base_values, cand_values = [b for b, _ in cell.both], [c for _, c in cell.both]
        cell.delta, cell.low, cell.high = paired_bootstrap_delta(
            base_values, cand_values, n_resamples=n_resamples, confidence=confidence, seed=seed
        )
        if cell.gated and len(cell.both) >= MIN_PAIRS:
            less, greater = sign_flip_pvalues([c - b for b, c in cell.both], seed=seed)
            up = cell.metric.spec.higher_is_better
            cell.raw_worse, cell.raw_better = (less, greater) if up else (greater, less)
    # A test is a gated (metric, pair) with a p-value: metrics without paired values are
    # not tests and do not dilute the others' level.
    tests = sum(1 for c in gated_cells if c.raw_worse is not None)
    p_worse = holm([c.raw_worse for c in gated_cells])
    p_better = holm([c.raw_better for c in gated_cells])
    adjusted = {id(c): (w, b) for c, w, b in zip(gated_cells, p_worse, p_better, strict=True)}
    strict = alpha / max(1, tests)  # Holm's first (strictest) level
    judged: list[dict[str, Any]] = []
    for cell in cells:
        spec, n = cell.metric.spec, len(cell.both)
        worse_p, better_p = adjusted.get(id(cell), (None, None))
        testable = cell.gated and n >= MIN_PAIRS and min_sign_flip_p(n) <= strict
        drop = drops[cell.metric.name]
        diffs = [c - b for b, c in cell.both]
        worse = (
            worse_p is not None
            and worse_p <= alpha
            and cell.delta is not None  # a p-value comes with a delta
            and _beyond(cell.delta, spec.higher_is_better, drop, worse=True)
        )
        improved = (
            better_p is not None
            and better_p <= alpha
            and cell.delta is not None
            and _beyond(cell.delta, spec.higher_is_better, drop, worse=False)
        )
        judged.append(
            {
                "cell": cell,
                "testable": testable,
                "worse": worse,
                "improved": improved,
                "p_worse": worse_p,
                "p_better": better_p,
                "mde": minimum_detectable_effect(diffs, alpha=strict) if cell.gated else None,
            }
        )
    # Outcomes and availability together: fewer refused requests with the headline not
    # lower is an improvement, on that config pair.
    relieved = set()
    for pair_index in range(len(pairing.pairs)):
        mine = [j for j in judged if j["cell"].pair == pair_index]
        relief = any(j["improved"] for j in mine if j["cell"].metric.name in OUTCOME_RELIEF)
        headline_worse = any(j["worse"] for j in mine if j["cell"].metric.name == HEADLINE)
        if relief and not headline_worse:
            relieved.add(pair_index)
    deltas = []
    for j in judged:
        cell = j["cell"]
        traded = j["worse"] and cell.pair in relieved and cell.metric.name not in UNEXCUSED
        deltas.append(
            MetricDelta(
                cell.metric.name,
                cell.label,
                cell.metric.spec.unit,
                cell.metric.spec.higher_is_better,
                len(cell.both),
                _mean([b for b, _ in cell.both]),
                _mean([c for _, c in cell.both]),
                cell.delta,
                cell.low,
                cell.high,
                drops[cell.metric.name],
                regression=j["worse"] and not traded,
                gated=cell.gated,
                testable=j["testable"],
                p_worse=j["p_worse"],
                p_better=j["p_better"],
                mde=j["mde"],
                improved=j["improved"],
                worse=j["worse"],
                traded=traded,
            )
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
        _cannot_test(deltas, chosen, tests, alpha),
    )


def _cannot_test(
    deltas: list[MetricDelta], chosen: tuple[Any, ...], tests: int, alpha: float
) -> str | None:
    """Why the gate cannot test (None when it can): the headline (or, when it is not
    gated, every gated metric) has no testable pair."""
    names = {m.name for m in chosen}
    key = HEADLINE if HEADLINE in names else None
    relevant = [d for d in deltas if d.gated and (key is None or d.metric == key)]
    if any(d.testable for d in relevant):
        return None
    subject = f"`{key}`" if key else "no gated metric"
    if not any(d.sessions for d in relevant):
        return (
            f"{subject} has no paired values: no ground truth (or the scorer did not run) on "
            "the paired sessions"
        )
    n = max(d.sessions for d in relevant)
    need = 1
    while min_sign_flip_p(need) > alpha / max(1, tests):
        need += 1
    return (
        f"{subject}: {n} paired session(s), too few: with {tests} test(s) the sign-flip "
        f"test needs at least {need} pairs to reach the Holm level {alpha / max(1, tests):.4f}"
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
    "EXIT_CANNOT_TEST",
    "Comparison",
    "MetricDelta",
    "PairInfo",
    "compare_runs",
]
