"""The per-session metrics ``compare`` gates on, read through the report frames
(:func:`soba_bench.reports.frames.load_runs`, :func:`~soba_bench.reports.frames.session_metrics`).

Each metric gives one value per job x session (NaN where it does not apply: no ground truth,
no capsule, no completed compaction), so sessions are the unit the paired bootstrap
resamples; capsule moments are averaged within a session first.

Names follow ``session_metrics``. The gate's defaults: ``availability`` (the headline: the
share of live facts the model can see at the fixed evaluation points, macro over fact kinds)
and ``availability.<kind>``, the error rates at the same points ``contradiction`` (live facts
the capsule sent states wrongly) and ``invented_paths`` (file paths it names that the session
never did), and the outcomes ``refused_requests``, ``blocked_turns``, ``overflows`` and
``degraded_rate``; ``input_tokens_billed`` and ``peak_context_tokens`` (each
strategy's own costs) are shown beside them, never gated. Capsule-moment diagnostics, on
request (``--metric``): ``recall`` / ``recall.<kind>`` score the whole model input
at capsule moments (capsule plus retained tail, or whatever a rival strategy sends: comparable
across strategies); ``capsule_recall`` / ``capsule_recall.<kind>`` the capsule alone (what a
summarizer prompt controls); ``staleness`` / ``staleness.<kind>`` superseded or resolved facts
the capsule shows as current. Direction and unit come from
:data:`soba_bench.scoring.stats.METRICS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from soba_bench.errors import InputError
from soba_bench.registry import Registry
from soba_bench.scoring.retention import RETENTION_KINDS, STALE_KINDS
from soba_bench.scoring.scorers.availability import AVAILABILITY_KINDS
from soba_bench.scoring.stats import METRICS, MetricSpec

if TYPE_CHECKING:  # pandas and the frames are imported on use: the CLI's parser loads this
    import pandas as pd

    from soba_bench.reports.frames import RunSet

KEYS = ["job_id", "session"]
DEFAULT_MAX_DROP = 0.02  # in each metric's own unit
SessionValues = dict[str, float | None]  # session -> value


@dataclass(frozen=True)
class CompareMetric:
    """A metric ``compare`` can gate on, with its direction and unit."""

    name: str
    spec: MetricSpec
    description: str


COMPARE_METRICS: Registry[CompareMetric] = Registry("compare metric")


def _add(name: str, base: str, description: str) -> None:
    COMPARE_METRICS.add(name, CompareMetric(name, METRICS.get(base), description))


_add("availability", "availability", "state availability at the requests, macro over kinds")
for _kind in AVAILABILITY_KINDS:
    _add(f"availability.{_kind}", "availability", f"availability of {_kind} facts")
_add("contradiction", "contradiction", "live facts the capsule sent states wrongly")
_add("invented_paths", "invented_paths", "file paths in the capsule the session never named")
_add("refused_requests", "refused_requests", "requests refused, nothing sent")
_add("blocked_turns", "blocked_turns", "turns with a refused request")
_add("overflows", "overflows", "requests whose input would not fit the window")
_add("input_tokens_billed", "input_tokens_billed", "input tokens of every request sent")
_add("peak_context_tokens", "peak_context_tokens", "largest input sent")
_add("recall", "recall", "model-input recall, all fact kinds")
_add("capsule_recall", "recall", "capsule recall, all fact kinds")
_add("staleness", "staleness", "stale facts shown as current in the capsule")
for _kind in RETENTION_KINDS:
    _add(f"recall.{_kind}", "recall", f"model-input recall of {_kind} facts")
    _add(f"capsule_recall.{_kind}", "recall", f"capsule recall of {_kind} facts")
for _kind in STALE_KINDS:
    _add(f"staleness.{_kind}", "staleness", f"stale {_kind} facts in the capsule")
_add("soba_quality_score", "soba_quality_score", "SOBA's lexical capsule score, mean")
_add("soba_quality_pass_rate", "soba_quality_pass_rate", "capsules passing SOBA's 0.9")
_add("savings_ratio", "savings_ratio", "mean savings ratio of completed compactions")
_add("degraded_rate", "degraded_rate", "completed capsules written by a fallback")
_add("reclaimed_tokens", "reclaimed_tokens", "tokens reclaimed per session")
_add("blocked_requests", "blocked_requests", "requests refused per session")
_add("skip_rate", "skip_rate", "attempts skipped by the ROI checks")

# The gate's default: the headline with its kinds, the two error rates and the outcomes. The
# degraded-fallback rate is gated because a prompt whose drafts SOBA's validator rejects shows
# only there; the error rates because availability counts a fact the tail still shows even
# when the capsule states it wrongly, and never sees what a capsule makes up (measured on
# planted defects: benchmarks/planted_power.py).
HEADLINE = "availability"
DEFAULT_METRICS: tuple[str, ...] = (
    HEADLINE,
    *(f"availability.{k}" for k in AVAILABILITY_KINDS),
    "contradiction",
    "invented_paths",
    "refused_requests",
    "blocked_turns",
    "overflows",
    "degraded_rate",
)
# Costs shown beside the gated metrics, never tested (more requests sent cost more tokens).
REPORTED_METRICS: tuple[str, ...] = ("input_tokens_billed", "peak_context_tokens")
# Fewer of these, with the headline not lower, is an improvement (compare's joint rule)...
OUTCOME_RELIEF = frozenset({"refused_requests", "blocked_turns"})
# ...which never excuses a higher degraded-fallback rate.
UNEXCUSED = frozenset({HEADLINE, "degraded_rate"})

# session_metrics column -> compare name, where they differ.
_RENAMED = {
    "soba_quality_pass": "soba_quality_pass_rate",
    "reclaimed": "reclaimed_tokens",
    "blocked": "blocked_requests",
}


_RETENTION_FAMILIES = ("recall", "capsule_recall", "staleness")


def resolve_metrics(names: Iterable[str] | None) -> tuple[CompareMetric, ...]:
    """The metrics by name (default: :data:`DEFAULT_METRICS`); an unknown name fails with the
    list of valid ones."""
    chosen = DEFAULT_METRICS if names is None else tuple(dict.fromkeys(names))
    if not chosen:
        raise InputError("no metric selected", field="metric", expected="at least one name")
    return tuple(COMPARE_METRICS.get(n) for n in chosen)


def _own_retention(rs: RunSet) -> pd.DataFrame:
    """Retention of each job's own replay, one column per compare name: recall of the model
    input (all, per kind), recall of the capsule (all, per kind) and capsule staleness.

    Scoring labels a job's own replay with the job's strategy name (``soba`` for SOBA's
    engine, ``truncation`` for the rival strategy...); the other names in the same table are
    the comparison views scored at the same moments, never the job's own values."""
    import pandas as pd

    sc = rs.scores
    if sc.empty or rs.jobs.empty:
        return pd.DataFrame(columns=KEYS)
    own = rs.jobs[["job_id", "strategy"]].rename(columns={"strategy": "own"})
    sc = sc.merge(own, on="job_id")
    sc = sc[
        (sc["scorer"] == "retention")
        & (sc["strategy"] == sc["own"])
        & (sc["moment"] == "capsules")
        & (
            ((sc["view"] == "input") & (sc["metric"] == "recall"))
            | ((sc["view"] == "capsule") & sc["metric"].isin(["recall", "staleness"]))
        )
    ]
    if sc.empty:
        return pd.DataFrame(columns=KEYS)
    wide = sc.pivot_table(index=KEYS, columns=["view", "metric", "kind"], values="value")
    families = {
        ("input", "recall"): "recall",
        ("capsule", "recall"): "capsule_recall",
        ("capsule", "staleness"): "staleness",
    }
    names = []
    for view, metric, kind in wide.columns:
        family = families[(view, metric)]
        names.append(family if kind == "all" else f"{family}.{kind}")
    wide.columns = names
    return wide.reset_index()


def _degraded_rate(rs: RunSet) -> pd.DataFrame:
    import pandas as pd

    from soba_bench.reports.skips import fallback_kind

    attempts = rs.attempts
    if attempts.empty or "outcome" not in attempts.columns:
        return pd.DataFrame(columns=KEYS)
    done = attempts[attempts["outcome"] == "completed"]
    fell = fallback_kind(done).notna().astype(float)
    rate = fell.groupby([done["job_id"], done["session"]]).mean().rename("degraded_rate")
    return rate.reset_index()


def metric_frame(rs: RunSet) -> pd.DataFrame:
    """One row per job x session, one column per compare metric the runs recorded."""
    import pandas as pd

    from soba_bench.reports.frames import session_metrics

    m = session_metrics(rs).rename(columns=_RENAMED)
    if m.empty:
        return pd.DataFrame(columns=KEYS)
    # The headline retention columns give way to compare's own, which add capsule staleness
    # and name the capsule view per kind (see _own_retention).
    m = m.drop(columns=[c for c in m.columns if c.split(".")[0] in _RETENTION_FAMILIES])
    if {"skipped", "attempts"} <= set(m.columns):
        attempts = m["attempts"].where(m["attempts"] > 0)
        m["skip_rate"] = m["skipped"] / attempts
    parts = [_own_retention(rs)]
    if "degraded_rate" not in m.columns:  # runs scored before the outcomes scorer
        parts.append(_degraded_rate(rs))
    for part in parts:
        if not part.empty:
            m = m.merge(part, on=KEYS, how="left")
    return m


class SideMetrics:
    """The metric frame of one side (BASE or CAND), looked up by job folder."""

    def __init__(self, path: str | Path) -> None:
        from soba_bench.reports.frames import load_runs

        rs = load_runs(path)
        self.frame = metric_frame(rs)
        self._ids = {
            Path(p).resolve(): j for p, j in zip(rs.jobs["path"], rs.jobs["job_id"], strict=True)
        }

    def job_id(self, folder: Path) -> str:
        return self._ids[Path(folder).resolve()]

    def sessions(self, folder: Path) -> tuple[str, ...]:
        rows = self.frame[self.frame["job_id"] == self.job_id(folder)]
        return tuple(str(s) for s in rows["session"])

    def points(self, folder: Path) -> dict[str, str]:
        """session -> digest of the evaluation points availability was scored at."""
        path = Path(folder) / "scores" / "availability.jsonl"
        if not path.is_file():
            return {}
        from soba_bench.jsonio import read_jsonl

        return {str(r.get("session")): str(r.get("pointsDigest")) for r in read_jsonl(path)}

    def values(self, folder: Path, metric: CompareMetric) -> SessionValues:
        """session -> value for every session of the job (None where it does not apply)."""
        import pandas as pd

        rows = self.frame[self.frame["job_id"] == self.job_id(folder)]
        if metric.name not in rows.columns:
            return dict.fromkeys((str(s) for s in rows["session"]), None)
        return {
            str(s): (None if pd.isna(v) else float(v))
            for s, v in zip(rows["session"], rows[metric.name], strict=True)
        }
