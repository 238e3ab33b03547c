"""The numbers a tuning objective can name, read back from a job folder (a real run record
written by :func:`soba_bench.sweep.job.run_job`), per session first, then over the corpus.

Per session (``session_tune_metrics``; every number reports and ``compare`` also show is read
from their one per-session frame, :func:`soba_bench.reports.frames.session_metrics`):

- ``savings``: the share of input tokens the requests did not have to send, ``1 - sent /
  uncompacted``, summed over every request a barrier let through. A request's uncompacted
  size is its effective size plus every token reclaimed before it (a completed compaction
  lowers all later requests by exactly its net reclaim, capsule included). The shared
  frame's column, which the report's Pareto front plots too.
- ``input_tokens``: the effective tokens of those requests, summed.
- ``availability``: the headline (``soba_bench.scoring.scorers.availability``): over the
  session's fixed evaluation points, the share of live facts the model can see, macro over
  fact kinds, a refused request counting as nothing seen. Every config is asked the same
  questions at the same points, so configs compare on it.
- ``retention``: a capsule-moment diagnostic, not for choosing configs: recall of
  ground-truth facts in the job's model input (capsule plus retained tail; the job's own
  compactor, ``soba`` for SOBA's engine) at the capsule moments; a session that never
  compacted uses its final input. Each config is scored at its own moments and a refused
  request is never scored, so configs are compared on different questions (issue 17).
- ``capsule_retention``: the same for the capsule text alone (sessions with capsules only).
- ``soba_quality`` / ``soba_quality_pass_rate``: SOBA's lexical evaluator, per capsule.
- ``refused``: barriers that refused the request; ``overflows``: simulated provider
  overflows; ``blocked_forever``: 1 when the blocked-forever detector fired.
- ``degraded_rate`` / ``failed_rate`` / ``skip_rate``: shares of the session's attempts.

Means are over the sessions where a metric applies (None elsewhere); counts are sums.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.jsonio import read_jsonl
from soba_bench.registry import Registry
from soba_bench.runs import RunLayout
from soba_bench.scoring.stats import bootstrap_ci

COMPLETED = "completed"


@dataclass(frozen=True)
class TuneMetric:
    """How a tuning metric reads: description, direction, unit and corpus aggregation."""

    name: str
    description: str
    higher_is_better: bool
    unit: str
    aggregate: str  # mean (over sessions where it applies) | sum


TUNE_METRICS: Registry[TuneMetric] = Registry("tune metric")


def _declare(name: str, description: str, higher: bool, unit: str, aggregate: str) -> None:
    TUNE_METRICS.add(name, TuneMetric(name, description, higher, unit, aggregate))


_declare("savings", "share of request input tokens saved by compaction", True, "ratio", "mean")
_declare("input_tokens", "effective input tokens of all requests sent", False, "tokens", "sum")
_declare(
    "availability",
    "share of live facts the model can see at the fixed evaluation points",
    True,
    "ratio",
    "mean",
)
_declare("retention", "recall of live facts in SOBA's model input", True, "ratio", "mean")
_declare("capsule_retention", "recall of live facts in the capsule text", True, "ratio", "mean")
_declare("soba_quality", "SOBA's lexical capsule quality score", True, "score", "mean")
_declare("soba_quality_pass_rate", "share of capsules passing SOBA's 0.9", True, "ratio", "mean")
_declare("refused", "requests refused by the barrier", False, "count", "sum")
_declare("overflows", "simulated provider context overflows", False, "count", "sum")
_declare("blocked_forever", "sessions where blocker saturation fired", False, "count", "sum")
_declare("degraded_rate", "completed attempts with a fallback capsule", False, "ratio", "mean")
_declare("failed_rate", "share of attempts that failed", False, "ratio", "mean")
_declare("skip_rate", "share of attempts skipped by the ROI checks", False, "ratio", "mean")
_declare("attempts", "compaction attempts", False, "count", "sum")

SessionMetrics = dict[str, dict[str, float | None]]


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    """A score table or barrier log of a job folder ([] when the job did not write it)."""
    return read_jsonl(path) if path.exists() else []


def _overflows(lines: list[dict[str, Any]]) -> int:
    """The simulated overflows a session's barrier log sums up in its summary line."""
    summary = [line for line in lines if line.get("kind") == "summary"]
    return int(summary[-1].get("overflowErrors") or 0) if summary else 0


def _number(row: Any, column: str) -> float | None:
    """A column of the shared per-session frame as a float (None when absent or NaN)."""
    value = row.get(column) if column in row.index else None
    return None if value is None or value != value else float(value)


def _rate(row: Any, part: str, whole: str) -> float | None:
    count, total = _number(row, part), _number(row, whole)
    return count / total if count is not None and total else None


def _fallback_rate(completed: list[dict[str, Any]], summarizer: str | None) -> float | None:
    """Share of completed attempts whose capsule is a fallback (timeout or model error), by
    the report's rule (reports.skips.fallback_kind), so tune and the report agree on it. Read
    from the barrier lines: tune's jobs write no attempt tables."""
    if not completed:
        return None
    import pandas as pd

    from soba_bench.reports.skips import fallback_kind

    frame = pd.DataFrame(completed).assign(summarizer=summarizer)
    return float(fallback_kind(frame).notna().mean())


def session_tune_metrics(folder: Path) -> SessionMetrics:
    """Every tuning metric of every session of a complete job folder. The numbers reports
    and ``compare`` also show (attempt counts and rates, refusals, availability, capsule
    retention, SOBA's quality, retention, failure-mode flags) are read from the one
    per-session frame, :func:`soba_bench.reports.frames.session_metrics`, and so is
    ``savings`` and ``input_tokens``; only ``overflows`` (the barrier log's summary line),
    ``degraded_rate`` (from the barrier lines, by the report's fallback rule) and
    ``retention``'s final-input fallback for a session that never compacted are tune's own."""
    from soba_bench.reports.frames import load_runs
    from soba_bench.reports.frames import session_metrics as shared_metrics

    layout = RunLayout(Path(folder))
    record = layout.complete_record()
    if record is None:
        raise InputError("not a complete job folder", path=str(folder), expected="run.json")
    runset = load_runs(layout.root)
    shared = shared_metrics(runset).set_index("session")
    # The job's own replay, as the shared frame reads it ("soba" for SOBA's engine).
    own = str(runset.jobs["strategy"].iloc[0])
    scores = _read_jsonl(layout.scores("sessions"))
    final: dict[str, float | None] = {}
    for row in scores:
        if row.get("strategy") == own and (row["view"], row["moment"]) == ("input", "final"):
            final[row["session"]] = row.get("recall")
    scored = bool(scores)
    out: SessionMetrics = {}
    for session_row in layout.read_sessions():
        name = session_row.session
        frame = shared.loc[name]
        lines = _read_jsonl(layout.barriers(name))
        completed = [
            x for x in lines if x.get("kind") == "attempt" and x.get("outcome") == COMPLETED
        ]
        recall = _number(frame, "recall")
        if recall is None:  # never compacted: the final input
            recall = final.get(name)
        stuck = _number(frame, "fm.blocked_forever")
        out[name] = {
            "savings": _number(frame, "savings"),
            "input_tokens": _number(frame, "input_tokens_sent") or 0.0,
            "availability": _number(frame, "availability"),
            "retention": recall,
            "capsule_retention": _number(frame, "capsule_recall"),
            "soba_quality": _number(frame, "soba_quality_score"),
            "soba_quality_pass_rate": _number(frame, "soba_quality_pass"),
            "refused": _number(frame, "blocked") or 0.0,
            "overflows": float(_overflows(lines)),
            "blocked_forever": (1.0 if stuck else 0.0) if scored else None,
            "degraded_rate": _fallback_rate(completed, record.summarizer_name),
            "failed_rate": _rate(frame, "failed", "attempts"),
            "skip_rate": _rate(frame, "skipped", "attempts"),
            "attempts": _number(frame, "attempts") or 0.0,
        }
    return out


@dataclass(frozen=True)
class Estimate:
    """A corpus value with its bootstrap interval and how many sessions it rests on."""

    value: float | None
    low: float | None
    high: float | None
    sessions: int

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "ci": [self.low, self.high], "sessions": self.sessions}


def corpus_metrics(
    per_session: SessionMetrics,
    *,
    sessions: list[str] | None = None,
    resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, Estimate]:
    """Every metric over the corpus (or the named sessions): means over the sessions where it
    applies, sums for counts, each with a seeded percentile-bootstrap interval over sessions."""
    names = sorted(per_session) if sessions is None else sessions
    out: dict[str, Estimate] = {}
    for metric in TUNE_METRICS:
        spec = TUNE_METRICS.get(metric)
        values = [per_session[s].get(metric) for s in names]
        present = [v for v in values if v is not None]
        if spec.aggregate == "sum" and len(present) < len(values):
            # a count some session lacks (not scored) is unknown, not smaller
            out[metric] = Estimate(None, None, None, len(present))
            continue
        value, low, high = bootstrap_ci(
            present, spec.aggregate, n_resamples=resamples, confidence=confidence, seed=seed
        )
        out[metric] = Estimate(value, low, high, len(present))
    return out
