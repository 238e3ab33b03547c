"""The report's answer: per comparable group of jobs (same corpora, same model window), a
leaderboard on the headline state availability with its 95 % interval, the outcomes beside it,
and one sentence naming the best feasible choice and what it costs.

A job is **infeasible** when it refuses model requests (the agent would stall) or a failure
detector saw it loop or block for good: such a job is ranked after every feasible one and is
never named best, however much it keeps. Jobs on different corpora or windows answer different
questions, so they are never ranked against each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from soba_bench.reports.frames import RunSet, session_metrics
from soba_bench.reports.labels import job_labels
from soba_bench.scoring.stats import bootstrap_ci

GROUP_KEYS = ("corpus", "contextWindow", "maxOutputTokens")
# Failure detectors whose firing makes a job unusable as a default, not just worse.
FATAL_MODES = ("fm.compaction_loop", "fm.blocked_forever")
BOOTSTRAP_SEED = 0
# Below this many sessions a bootstrap interval is degenerate or nearly so: the sentence says
# the ranking cannot be trusted instead of naming a winner as if it could.
MIN_RANK_SESSIONS = 5


@dataclass(frozen=True)
class Group:
    """One comparable group: its description, its leaderboard and its verdict sentence."""

    title: str
    board: pd.DataFrame
    sentence: str


def _group_title(key: tuple) -> str:
    corpus, window, output = key
    return f"corpus {corpus}, window {_count(window)} (output reserve {_count(output)})"


def _count(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "not recorded"
    return f"{int(value):,}"


def _column(frame: pd.DataFrame, name: str) -> pd.Series:
    return frame[name] if name in frame.columns else pd.Series(float("nan"), index=frame.index)


def _row(label: str, rows: pd.DataFrame) -> dict[str, object]:
    values = _column(rows, "availability").dropna().tolist()
    mean, low, high = bootstrap_ci(values, seed=BOOTSTRAP_SEED)
    refused = _column(rows, "refused_requests").fillna(0).sum()
    fatal = sum(int(_column(rows, m).fillna(0).gt(0).sum()) for m in FATAL_MODES)
    billed = _column(rows, "input_tokens_billed").dropna()
    degraded = _column(rows, "degraded_rate").dropna()
    return {
        "job": label,
        "n": len(values),
        "availability": mean,
        "95% interval": None if mean is None else f"[{low:.3f}, {high:.3f}]",
        "refused requests": int(refused),
        "sessions looping or blocked": fatal,
        "input tokens billed / session": float(billed.mean()) if len(billed) else None,
        "degraded rate": float(degraded.mean()) if len(degraded) else None,
        "feasible": refused == 0 and fatal == 0,
    }


def _sentence(board: pd.DataFrame) -> str:
    feasible = board[board["feasible"] & board["availability"].notna()]
    infeasible = int((~board["feasible"]).sum())
    tail = (
        f" {infeasible} of {len(board)} job(s) are infeasible (they refuse requests or loop) "
        "and are ranked last."
        if infeasible
        else ""
    )
    if board["availability"].isna().all():
        return "No ground truth on these sessions: availability cannot rank the jobs." + tail
    if feasible.empty:
        fewest = board.sort_values("refused requests").iloc[0]
        return (
            "No feasible choice: every job refuses requests or loops; the fewest refusals: "
            f"{fewest['job']} ({fewest['refused requests']:,})." + tail
        )
    best = feasible.iloc[0]
    cost = best["input tokens billed / session"]
    text = (
        f"Best feasible: {best['job']}, state availability {best['availability']:.3f} "
        f"{best['95% interval']} over {best['n']} session(s)"
        + (f", {cost:,.0f} input tokens billed per session" if cost is not None else "")
    )
    degraded = best["degraded rate"]
    if degraded is not None and not math.isnan(degraded) and degraded > 0:
        text += f", {degraded:.0%} of its capsules written by a fallback"
    if best["n"] < MIN_RANK_SESSIONS:
        text += (
            f" (only {best['n']} session(s): too few to rank the jobs; the interval means "
            "nothing at this n)"
        )
    if len(feasible) > 1:
        runner = feasible.iloc[1]
        overlap = _interval(best["95% interval"])[0] <= _interval(runner["95% interval"])[1]
        text += f"; runner-up {runner['job']} at {runner['availability']:.3f}" + (
            " (the intervals overlap: not a clear win)" if overlap else ""
        )
    return text + "." + tail


def _interval(text: str) -> tuple[float, float]:
    low, high = text.strip("[]").split(", ")
    return float(low), float(high)


def feasible_jobs(rs: RunSet) -> pd.Series:
    """job_id -> feasible (no refused request, no session looping or blocked for good)."""
    metrics = session_metrics(rs)
    bad = _column(metrics, "refused_requests").fillna(0).gt(0)
    for mode in FATAL_MODES:
        bad |= _column(metrics, mode).fillna(0).gt(0)
    infeasible = set(metrics.loc[bad, "job_id"])
    return pd.Series({j: j not in infeasible for j in rs.jobs["job_id"]}, dtype=bool)


def comparable_groups(rs: RunSet) -> pd.Series:
    """job_id -> the title of its comparable group (same corpus and window)."""
    jobs = rs.jobs
    keys = [jobs[k] if k in jobs.columns else pd.Series(None, index=jobs.index) for k in GROUP_KEYS]
    titles = [_group_title(key) for key in zip(*keys, strict=True)]
    return pd.Series(titles, index=jobs["job_id"].to_numpy(), dtype=object)


def leaderboards(rs: RunSet) -> list[Group]:
    """One leaderboard per comparable group, best first: feasible jobs by availability (then
    fewer tokens billed), then the infeasible ones by fewest refused requests."""
    if rs.jobs.empty:
        return []
    metrics = session_metrics(rs)
    labels = job_labels(rs)
    jobs = rs.jobs.copy()
    for key in GROUP_KEYS:
        if key not in jobs.columns:
            jobs[key] = None
    groups = []
    for key, members in jobs.groupby(list(GROUP_KEYS), dropna=False, sort=True):
        rows = [
            _row(str(labels.get(job_id, job_id)), metrics[metrics["job_id"] == job_id])
            for job_id in members["job_id"]
        ]
        board = pd.DataFrame(rows)
        board["_order"] = board["availability"].fillna(-1.0)
        board["_cost"] = board["input tokens billed / session"].fillna(float("inf"))
        board = board.sort_values(
            ["feasible", "_order", "refused requests", "_cost"],
            ascending=[False, False, True, True],
            kind="stable",
        ).drop(columns=["_order", "_cost"])
        board.insert(0, "rank", range(1, len(board) + 1))
        groups.append(Group(_group_title(key), board.reset_index(drop=True), _sentence(board)))
    return groups
