"""The recommendation: the chosen config and its metrics with intervals, the runner-ups, the
Pareto front of savings vs availability, SOBA's shipped defaults on the same sessions, and both
re-evaluated on the held-out sessions. Written as ``recommendation.json`` (versioned,
atomic); :func:`load_recommendation` reads it back (notebooks)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from soba_bench import __version__
from soba_bench.errors import InputError
from soba_bench.jsonio import read_json
from soba_bench.runs.layout import write_json
from soba_bench.scoring.stats import paired_bootstrap_delta
from soba_bench.tune.metrics import TUNE_METRICS
from soba_bench.tune.objective import Objective

if TYPE_CHECKING:  # the runner pulls in the job runner and Hydra; loading needs neither
    from soba_bench.tune.runner import Trial

SCHEMA_VERSION = 1
KIND = "soba-bench-tune-recommendation"
NAME = "recommendation.json"
# Both higher-is-better; availability, not retention: every config is scored at the same
# evaluation points (a front of capsule-moment retention compares configs on different
# questions).
PARETO_AXES = ("savings", "availability")
COMPARED = (
    "savings",
    "input_tokens",
    "availability",
    "retention",
    "soba_quality",
    "refused",
    "degraded_rate",
)


def distinct(trials: list[Trial]) -> list[Trial]:
    """Each evaluated config once (TPE may ask for a config twice)."""
    return [t for t in trials if t.repeat_of is None]


def ranked(trials: list[Trial], objective: Objective) -> list[Trial]:
    """Feasible trials, best first (objective, then tie-breakers; earlier trial on a tie)."""
    feasible = [t for t in distinct(trials) if t.evaluation.feasible]
    return sorted(
        feasible, key=lambda t: (tuple(-x for x in objective.sort_key(t.metrics)), t.number)
    )


def closest(trials: list[Trial]) -> Trial:
    """The trial whose sampler guidance is highest: for infeasible ones, the smallest miss."""
    return max(distinct(trials), key=lambda t: (t.evaluation.guidance, -t.number))


def pareto_front(trials: list[Trial]) -> list[Trial]:
    """Complete trials no other complete trial beats on both savings and availability."""
    points = []
    for t in distinct(trials):
        if t.status != "complete":
            continue
        x, y = (t.metrics[a].value for a in PARETO_AXES)
        if x is not None and y is not None:
            points.append(((x, y), t))
    front = []
    for xy, t in points:
        dominated = any(o[0] >= xy[0] and o[1] >= xy[1] and o != xy for o, _ in points)
        if not dominated:
            front.append((xy, t))
    return [t for _, t in sorted(front, key=lambda p: (p[0][0], p[1].number))]


def trial_summary(trial: Trial, root: Path) -> dict[str, Any]:
    return {
        "trial": trial.number,
        "params": trial.params,
        "status": trial.status,
        "feasible": trial.evaluation.feasible,
        "objective": trial.evaluation.value,
        "violations": list(trial.evaluation.violations),
        "metrics": {k: v.to_dict() for k, v in trial.metrics.items()},
        "job": _rel(trial.folder, root),
    }


def _rel(folder: Path | None, root: Path) -> str | None:
    if folder is None:
        return None
    try:
        return str(folder.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(folder)


def paired(a: Trial, b: Trial, seed: int, resamples: int, confidence: float) -> dict[str, Any]:
    """``b - a`` per metric on the sessions both were run on (paired bootstrap)."""
    out = {}
    sessions = sorted(set(a.per_session) & set(b.per_session))
    for metric in COMPARED:
        base = [a.per_session[s].get(metric) for s in sessions]
        cand = [b.per_session[s].get(metric) for s in sessions]
        est, low, high = paired_bootstrap_delta(
            base, cand, "mean", n_resamples=resamples, confidence=confidence, seed=seed
        )
        out[metric] = {
            "delta": est,
            "ci": [low, high],
            "higherIsBetter": TUNE_METRICS.get(metric).higher_is_better,
        }
    return out


def evaluation_pair(search: Trial, held: Trial | None, root: Path) -> dict[str, Any]:
    return {
        "engine": search.engine,
        "params": search.params,
        "search": trial_summary(search, root),
        "heldOut": trial_summary(held, root) if held is not None else None,
    }


def build(
    *,
    settings: dict[str, Any],
    objective: Objective,
    trials: list[Trial],
    split: dict[str, Any],
    baseline: tuple[Trial, Trial | None],
    chosen_held: Trial | None,
    runner_ups: int,
    root: Path,
    stats: dict[str, Any],
    wall_seconds: float,
) -> dict[str, Any]:
    """The recommendation document (see module doc)."""
    order = ranked(trials, objective)
    best = order[0] if order else None
    comparison = None
    if best is not None:
        args = (stats["seed"], stats["resamples"], stats["confidence"])
        comparison = {
            "search": paired(baseline[0], best, *args),
            "heldOut": paired(baseline[1], chosen_held, *args)
            if baseline[1] is not None and chosen_held is not None
            else None,
        }
    counts = {
        s: sum(1 for t in distinct(trials) if t.status == s)
        for s in ("complete", "invalid", "failed")
    }
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": KIND,
        "package": __version__,
        "settings": settings,
        "objective": objective.to_dict(),
        "split": split,
        "search": {
            "trials": len(trials),
            "distinctConfigs": len(distinct(trials)),
            "feasible": len(order),
            **counts,
            "wallSeconds": round(wall_seconds, 3),
        },
        "recommended": evaluation_pair(best, chosen_held, root) if best is not None else None,
        "noFeasibleConfig": best is None,
        # when nothing is feasible, the config that missed the constraints by the least
        "closest": trial_summary(closest(trials), root) if best is None and trials else None,
        "baseline": {"name": "soba-defaults", **evaluation_pair(baseline[0], baseline[1], root)},
        "comparison": comparison,
        "runnerUps": [trial_summary(t, root) for t in order[1 : 1 + runner_ups]],
        "pareto": {
            "axes": list(PARETO_AXES),
            "front": [trial_summary(t, root) for t in pareto_front(trials)],
        },
        "files": {"trials": "trials.csv", "trialsParquet": "trials.parquet", "report": "tune.md"},
    }


def write_recommendation(folder: Path, document: dict[str, Any]) -> Path:
    path = Path(folder) / NAME
    write_json(path, document)
    return path


@dataclass(frozen=True)
class Recommendation:
    """A loaded recommendation: the raw document plus the parts a notebook wants first."""

    path: Path
    data: dict[str, Any]

    @property
    def engine(self) -> dict[str, Any] | None:
        """The recommended flat engine config (SOBA's key names), or None if none was feasible."""
        rec = self.data.get("recommended")
        return dict(rec["engine"]) if rec else None

    @property
    def params(self) -> dict[str, Any] | None:
        rec = self.data.get("recommended")
        return dict(rec["params"]) if rec else None

    def overrides(self) -> list[str]:
        """``engine.KEY=VALUE`` overrides that run the recommendation with ``soba-bench run``."""
        return [f"engine.{k}={v}" for k, v in (self.engine or {}).items() if v is not None]

    def metrics(self, side: str = "search", which: str = "recommended") -> dict[str, Any]:
        """Metric -> {value, ci, sessions} of the recommendation or ``baseline``, on the search
        or ``heldOut`` sessions."""
        part = (self.data.get(which) or {}).get(side)
        return dict(part["metrics"]) if part else {}

    def trials(self):
        """The trials table as a pandas DataFrame."""
        import pandas as pd

        return pd.read_csv(self.path.parent / self.data["files"]["trials"])


def load_recommendation(path: str | Path) -> Recommendation:
    """Read ``recommendation.json`` (or the tune folder holding it)."""
    p = Path(path)
    if p.is_dir():
        p = p / NAME
    if not p.exists():
        raise InputError("recommendation not found", path=str(p), expected=f"a {NAME}")
    data = read_json(p, "recommendation")
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise InputError("not a soba-bench tune recommendation", path=str(p), field="kind")
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise InputError(
            "unsupported recommendation schema version",
            path=str(p),
            field="schema_version",
            value=version,
            has_value=True,
            expected=str(SCHEMA_VERSION),
        )
    return Recommendation(p, data)
