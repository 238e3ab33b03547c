"""Per-session and corpus-level tables from session scores, with bootstrap intervals.

Sessions are the unit of resampling: each session contributes one value per metric (its mean
over capsule moments), so a long session with many capsules does not outweigh the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from statistics import fmean
from typing import Any

from soba_bench.scoring.session import FINAL, SessionScores
from soba_bench.scoring.stats import bootstrap_ci

RETENTION_METRICS = ("recall", "staleness", "leaks", "hallucinatedPaths")


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return fmean(kept) if kept else None


def session_table(scores: SessionScores) -> list[dict[str, Any]]:
    """One row per (strategy, view, moment kind): capsule moments averaged, final apart."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in scores.summaries:
        moment = "final" if row["generation"] == FINAL else "capsules"
        groups[(row["strategy"], row["view"], moment)].append(row)
    table = []
    for (strategy, view, moment), rows in sorted(groups.items()):
        table.append(
            {
                "session": scores.session,
                "strategy": strategy,
                "view": view,
                "moment": moment,
                "points": len(rows),  # the moments read
                "moments": scores.moments if moment == "capsules" else 1,  # the job's
                **{m: _mean(r[m] for r in rows) for m in RETENTION_METRICS},
                "inputTokens": _mean(r["inputTokens"] for r in rows),
            }
        )
    if scores.quality:
        table.append(
            {
                "session": scores.session,
                "strategy": scores.quality[0].get("strategy", "soba"),
                "view": "soba_quality",
                "moment": "capsules",
                "points": len(scores.quality),
                "moments": scores.capsules,
                "score": _mean(q["score"] for q in scores.quality),
                "passRate": _mean(float(q["passed"]) for q in scores.quality),
            }
        )
    return table


def corpus_table(rows: list[dict[str, Any]], *, seed: int = 0) -> list[dict[str, Any]]:
    """Mean and 95% bootstrap interval across sessions, per (strategy, view, moment)."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["strategy"], row["view"], row["moment"])].append(row)
    out = []
    for (strategy, view, moment), group in sorted(groups.items()):
        entry: dict[str, Any] = {
            "strategy": strategy,
            "view": view,
            "moment": moment,
            "sessions": len(group),
        }
        metrics = ("score", "passRate") if view == "soba_quality" else RETENTION_METRICS
        for metric in metrics:
            estimate, low, high = bootstrap_ci([r.get(metric) for r in group], seed=seed)
            entry[metric] = estimate
            entry[f"{metric}CI"] = [low, high]
        out.append(entry)
    return out


def findings_table(all_scores: Iterable[SessionScores]) -> dict[str, dict[str, int]]:
    """Detector -> {"sessions": how many sessions it fired on, "findings": total}."""
    table: dict[str, dict[str, int]] = defaultdict(lambda: {"sessions": 0, "findings": 0})
    for scores in all_scores:
        fired: dict[str, int] = defaultdict(int)
        for finding in scores.findings:
            fired[finding["detector"]] += 1
        for name, ran in scores.checked.items():
            if ran:  # a detector that ran and stayed silent shows as 0, not as missing
                table.setdefault(name, {"sessions": 0, "findings": 0})
        for name, count in fired.items():
            table[name]["sessions"] += 1
            table[name]["findings"] += count
    return dict(sorted(table.items()))


def availability_summary(rows: list[dict[str, Any]], *, seed: int = 0) -> dict[str, Any] | None:
    """The headline over sessions: mean state availability with its 95% bootstrap interval,
    and the same per fact kind (None when no session had ground truth)."""
    if not rows:
        return None
    from soba_bench.scoring.scorers.availability import AVAILABILITY_KINDS

    estimate, low, high = bootstrap_ci([r.get("availability") for r in rows], seed=seed)
    kinds = {}
    for kind in AVAILABILITY_KINDS:
        value, k_low, k_high = bootstrap_ci(
            [r.get(f"availability.{kind}") for r in rows], seed=seed
        )
        if value is not None:
            kinds[kind] = {"mean": value, "ci": [k_low, k_high]}
    return {
        "sessions": len(rows),
        "mean": estimate,
        "ci": [low, high],
        "kinds": kinds,
        "points": sum(r.get("points") or 0 for r in rows),
        "refusedPoints": sum(r.get("refusedPoints") or 0 for r in rows),
    }


OUTCOME_SUMS = (
    "requests",
    "refusedRequests",
    "blockedTurns",
    "overflows",
    "attempts",
    "completed",
    "degradedCapsules",
    "inputTokensBilled",
)


def outcome_totals(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Outcome counts summed over sessions, the degraded rate over all completed capsules,
    and the largest input sent (None when the outcomes scorer did not run)."""
    if not rows:
        return None
    out: dict[str, Any] = {"sessions": len(rows)}
    for name in OUTCOME_SUMS:
        out[name] = sum(r.get(name) or 0 for r in rows)
    out["degradedRate"] = out["degradedCapsules"] / out["completed"] if out["completed"] else None
    out["peakContextTokens"] = max((r.get("peakContextTokens") or 0) for r in rows)
    return out
