"""The numbers a tuning objective can name, read back from a job folder (a real run record
written by :func:`soba_bench.sweep.job.run_job`), per session first, then over the corpus.

Per session (``session_metrics``):

- ``savings``: the share of input tokens the requests did not have to send, ``1 - sent /
  uncompacted``, summed over every request a barrier let through. A request's uncompacted
  size is its effective size plus every token reclaimed before it (a completed compaction
  lowers all later requests by exactly its net reclaim, capsule included).
- ``input_tokens``: the effective tokens of those requests, summed.
- ``retention``: recall of ground-truth facts in SOBA's model input (capsule plus retained
  tail) at the capsule moments; a session that never compacted uses its final input.
- ``capsule_retention``: the same for the capsule text alone (sessions with capsules only).
- ``soba_quality`` / ``soba_quality_pass_rate``: SOBA's lexical evaluator, per capsule.
- ``refused``: barriers that refused the request; ``overflows``: simulated provider
  overflows; ``blocked_forever``: 1 when the blocked-forever detector fired.
- ``degraded_rate`` / ``failed_rate`` / ``skip_rate``: shares of the session's attempts.

Means are over the sessions where a metric applies (None elsewhere); counts are sums.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.registry import Registry
from soba_bench.runs import RunLayout, read_jsonl
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


def _request_tokens(lines: list[dict[str, Any]]) -> tuple[float, float, int]:
    """(sent, uncompacted, overflows) over a session's barrier lines, in replay order."""
    sent = uncompacted = 0.0
    reclaimed = 0.0
    overflows = 0
    for line in lines:
        kind = line.get("kind")
        if kind == "summary":
            overflows = int(line.get("overflowErrors") or 0)
            continue
        if kind == "check":
            size = float(line["effectiveTokens"])
        elif kind == "attempt":
            if line.get("outcome") == COMPLETED:
                reclaimed += float(line.get("reclaimed") or 0)
                size = float(line.get("tokensAfter") or 0)
            else:
                size = float(line.get("tokensBefore") or 0)
        else:
            continue
        if line.get("canProceed"):
            sent += size
            uncompacted += size + reclaimed
    return sent, uncompacted, overflows


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _fallback_rate(completed: list[dict[str, Any]], summarizer: str | None) -> float | None:
    """Share of completed attempts whose capsule is a fallback (timeout or model error), by
    the report's rule (reports.skips.fallback_kind), so tune and the report agree on it."""
    if not completed:
        return None
    import pandas as pd

    from soba_bench.reports.skips import fallback_kind

    frame = pd.DataFrame(completed).assign(summarizer=summarizer)
    return float(fallback_kind(frame).notna().mean())


def session_metrics(folder: Path) -> SessionMetrics:
    """Every tuning metric of every session of a complete job folder."""
    layout = RunLayout(Path(folder))
    record = layout.complete_record()
    if record is None:
        raise InputError("not a complete job folder", path=str(folder), expected="run.json")
    scores = _read_jsonl(layout.scores("sessions"))
    retention: dict[str, dict[tuple[str, str], float | None]] = defaultdict(dict)
    for row in scores:
        if row.get("strategy") == "soba":
            retention[row["session"]][(row["view"], row["moment"])] = row.get("recall")
    quality: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in _read_jsonl(layout.scores("quality")):
        quality[row["session"]].append(row)
    stuck = {
        row["session"]
        for row in _read_jsonl(layout.scores("findings"))
        if row.get("detector") == "blocked_forever"
    }
    scored = bool(scores)
    summarizer = record.summarizer_name
    out: SessionMetrics = {}
    for session_row in layout.read_sessions():
        name = session_row.session
        lines = _read_jsonl(layout.barriers(name))
        attempts = [x for x in lines if x.get("kind") == "attempt"]
        completed = [x for x in attempts if x.get("outcome") == COMPLETED]
        sent, uncompacted, overflows = _request_tokens(lines)
        views = retention.get(name, {})
        recall = views.get(("input", "capsules"))
        if recall is None:
            recall = views.get(("input", "final"))
        caps = quality.get(name, [])
        out[name] = {
            "savings": 1 - sent / uncompacted if uncompacted else 0.0,
            "input_tokens": sent,
            "retention": recall,
            "capsule_retention": views.get(("capsule", "capsules")),
            "soba_quality": _mean([float(c["score"]) for c in caps]),
            "soba_quality_pass_rate": _mean([1.0 if c["passed"] else 0.0 for c in caps]),
            "refused": float(session_row.counts.get("blocked", 0)),
            "overflows": float(overflows),
            "blocked_forever": (1.0 if name in stuck else 0.0) if scored else None,
            "degraded_rate": _fallback_rate(completed, summarizer),
            "failed_rate": _ratio(
                sum(1 for x in attempts if x["outcome"] == "failed"), len(attempts)
            ),
            "skip_rate": _ratio(
                sum(1 for x in attempts if x["outcome"] == "skipped"), len(attempts)
            ),
            "attempts": float(len(attempts)),
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
