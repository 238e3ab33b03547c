"""The report's tables, each a function ``(RunSet) -> DataFrame`` (empty when the run records
hold nothing for it). Rows are jobs, labelled by strategy and the swept settings."""

from __future__ import annotations

import re

import pandas as pd

from soba_bench.reports.frames import RunSet, session_metrics
from soba_bench.reports.labels import job_labels
from soba_bench.reports.skips import ALL_CATEGORIES, LABELS, barrier_decisions, fallback_kind
from soba_bench.reports.verdict import comparable_groups, feasible_jobs
from soba_bench.scoring.stats import bootstrap_ci

ISSUE_OUTCOMES = ("failed", "stale", "cancelled")

# Summarizer names of jobs that call no model ("none": a rival strategy without capsules).
NO_MODEL_SUMMARIZERS = ("deterministic", "none")


def interval(values: pd.Series) -> str | None:
    """The 95 % percentile-bootstrap interval of a mean over sessions (seeded), as text;
    None for no values."""
    _, low, high = bootstrap_ci(values.dropna().tolist(), seed=0)
    return None if low is None else f"[{low:.3f}, {high:.3f}]"


def _with_labels(rs: RunSet, frame: pd.DataFrame) -> pd.DataFrame:
    """Put the job label (and the strategy, when jobs mix strategies) first."""
    if frame.empty:
        return frame
    order = {j: i for i, j in enumerate(rs.jobs["job_id"])}
    out = frame.copy()
    # Rows in the jobs' order (sweep folder, job number), not job ids sorted as text.
    out = out.iloc[out["job_id"].map(order).argsort(kind="stable")].reset_index(drop=True)
    out.insert(0, "job", out["job_id"].map(job_labels(rs)))
    if rs.jobs["strategy"].nunique() > 1 and "strategy" not in out.columns:
        out.insert(1, "strategy", out["job_id"].map(rs.jobs.set_index("job_id")["strategy"]))
    return out.drop(columns=["job_id"])


def outcomes_by_trigger(rs: RunSet) -> pd.DataFrame:
    """Attempts per job x trigger, one column per outcome, plus the total."""
    a = rs.attempts
    if a.empty or not {"trigger", "outcome"}.issubset(a.columns):
        return pd.DataFrame()
    table = pd.crosstab([a["job_id"], a["trigger"]], a["outcome"])
    table["total"] = table.sum(axis=1)
    return _with_labels(rs, table.reset_index())


def attempts_per_session(rs: RunSet) -> pd.DataFrame:
    """Per job: sessions, attempts per session (mean, median, max), sessions with none."""
    s = rs.sessions
    if s.empty or "attempts" not in s.columns:
        return pd.DataFrame()
    g = s.groupby("job_id")["attempts"]
    table = pd.DataFrame(
        {
            "sessions": g.size(),
            "attempts": g.sum(),
            "mean per session": g.mean().round(2),
            "95% interval": g.apply(interval),
            "median": g.median(),
            "max": g.max(),
            "sessions without attempts": g.apply(lambda x: int((x == 0).sum())),
        }
    )
    return _with_labels(rs, table.reset_index())


def reclaimed_summary(rs: RunSet) -> pd.DataFrame:
    """Per job: reclaimed tokens (total, per compaction), savings ratio, tokens after each
    compaction against the soft and hard limits, and the peak effective tokens."""
    a = rs.attempts
    if a.empty or "outcome" not in a.columns:
        return pd.DataFrame()
    done = a[a["outcome"] == "completed"]
    if done.empty:
        return pd.DataFrame({"job_id": rs.jobs["job_id"], "compactions": 0}).pipe(
            lambda f: _with_labels(rs, f)
        )
    g = done.groupby("job_id")
    after = done["tokensAfter"] / done["hardLimit"]
    table = pd.DataFrame(
        {
            "compactions": g.size(),
            "reclaimed total": g["reclaimed"].sum().astype(int),
            "reclaimed median": g["reclaimed"].median().round(0),
            "reclaimed p90": g["reclaimed"].quantile(0.9).round(0),
            "savings ratio mean": g["savingsRatio"].mean().round(3),
            "savings ratio pooled": (g["reclaimed"].sum() / g["tokensBefore"].sum()).round(3),
            "after / hard limit (mean)": after.groupby(done["job_id"]).mean().round(3),
            "after / hard limit (max)": after.groupby(done["job_id"]).max().round(3),
            "after > soft limit": (done["tokensAfter"] > done["softLimit"])
            .groupby(done["job_id"])
            .sum(),
        }
    )
    # Compactions cluster by session, so the interval resamples sessions (each session's
    # pooled ratio), not compactions.
    per_session = done.groupby(["job_id", "session"])[["reclaimed", "tokensBefore"]].sum()
    ratio = (per_session["reclaimed"] / per_session["tokensBefore"]).groupby(level="job_id")
    table.insert(0, "sessions", ratio.size())
    table.insert(
        table.columns.get_loc("savings ratio pooled") + 1,
        "savings ratio 95% interval (sessions)",
        ratio.apply(interval),
    )
    if "maxEffectiveTokens" in rs.sessions.columns:
        table["peak effective tokens"] = rs.sessions.groupby("job_id")["maxEffectiveTokens"].max()
    return _with_labels(rs, table.reset_index())


def skip_rates(rs: RunSet) -> pd.DataFrame:
    """Per job: barriers, compactions, and per skip category the count and the share of
    barriers (%), SOBA's six categories first."""
    b = rs.barriers
    if b.empty or "kind" not in b.columns:
        return pd.DataFrame()
    decided = barrier_decisions(b, rs.jobs)
    counts = pd.crosstab(decided["job_id"], decided["decision"])
    total = counts.sum(axis=1)
    table = pd.DataFrame({"barriers": total})
    table["compacted"] = counts.get("compacted", 0)
    for category in ALL_CATEGORIES:
        n = counts[category] if category in counts.columns else 0
        table[LABELS[category]] = n
        table[f"{LABELS[category]} %"] = (100 * n / total).round(2)
    return _with_labels(rs, table.reset_index())


def normalise_reason(reason: object) -> str:
    """A reason text with its numbers replaced by N, so equal causes group together."""
    return re.sub(r"\d+(\.\d+)?", "N", str(reason))


def issue_reasons(rs: RunSet) -> pd.DataFrame:
    """Failed, stale and cancelled attempts per job, outcome and reason (numbers as N)."""
    a = rs.attempts
    if a.empty or "outcome" not in a.columns:
        return pd.DataFrame()
    bad = a[a["outcome"].isin(ISSUE_OUTCOMES)]
    if bad.empty:
        return pd.DataFrame(columns=["job", "outcome", "reason", "attempts"])
    bad = bad.assign(reason=bad["reason"].map(normalise_reason))
    table = bad.groupby(["job_id", "outcome", "reason"]).size().rename("attempts")
    return _with_labels(rs, table.reset_index())


def fallbacks(rs: RunSet) -> pd.DataFrame:
    """Per job: the summarizer, timeoutMs, attempts, timeout and model-error fallbacks, the
    degraded rate with its interval over sessions, and the generation latency of model
    summarizers (n, median, p90, max) with timed-out attempts counted at their timeoutMs."""
    a = rs.attempts
    if a.empty or "outcome" not in a.columns:
        return pd.DataFrame()
    kinds = fallback_kind(a)
    frame = a.assign(fallback=kinds, degraded=kinds.notna().astype(float))
    g = frame.groupby("job_id")
    jobs = rs.jobs.set_index("job_id")
    table = pd.DataFrame(
        {
            "summarizer": jobs["summarizer"],
            "timeoutMs": jobs.get("timeoutMs"),
            "attempts": g.size(),
            "timeout fallbacks": g["fallback"].apply(lambda s: int((s == "timeout").sum())),
            "model error fallbacks": g["fallback"].apply(lambda s: int((s == "model_error").sum())),
        }
    ).dropna(subset=["attempts"])
    degraded = table["timeout fallbacks"] + table["model error fallbacks"]
    table["degraded rate"] = (degraded / table["attempts"]).round(3)
    if "session" in frame.columns:
        by_session = frame.groupby(["job_id", "session"])["degraded"].mean()
        table["sessions"] = by_session.groupby(level="job_id").size()
        table["degraded rate 95% interval (sessions)"] = by_session.groupby(level="job_id").apply(
            interval
        )
    latency = generation_latency(rs)
    if not latency.empty:
        lg = latency.groupby("job_id")["ms"]
        table["latency n"] = lg.size()
        table["latency ms median"] = lg.median()
        table["latency ms p90"] = lg.quantile(0.9)
        table["latency ms max"] = lg.max()
    return _with_labels(rs, table.reset_index(names="job_id"))


def generation_latency(rs: RunSet) -> pd.DataFrame:
    """job_id, ms and timed_out per attempt of a model summarizer. A timed-out attempt's own
    duration is that of the deterministic fallback (near 0): the model's time is unknown but
    at least timeoutMs, so it is counted there (censored) instead of at 0 ms. Jobs without a
    model (deterministic, none) have no generation latency and are left out."""
    a = rs.attempts
    if a.empty or "generationDurationMs" not in a.columns or "summarizer" not in a.columns:
        return pd.DataFrame(columns=["job_id", "ms", "timed_out"])
    model = a[a["summarizer"].notna() & ~a["summarizer"].isin(NO_MODEL_SUMMARIZERS)]
    timed_out = fallback_kind(model) == "timeout"
    timeout = model["job_id"].map(rs.jobs.set_index("job_id")["timeoutMs"])
    ms = model["generationDurationMs"].where(~timed_out, timeout)
    out = pd.DataFrame({"job_id": model["job_id"], "ms": ms, "timed_out": timed_out})
    return out.dropna(subset=["ms"])


def retention_by_kind(rs: RunSet) -> pd.DataFrame:
    """Mean recall per fact kind (sessions averaged first) per job: the job's replay, model
    input view, capsule moments; ``leak: <kind>`` columns for noise carried along."""
    m = session_metrics(rs)
    cols = [c for c in m.columns if c == "recall" or c.startswith(("recall.", "leak."))]
    if not cols:
        return pd.DataFrame()
    g = m.groupby("job_id")
    table = g[cols].mean().round(3)
    table.columns = [
        "all" if c == "recall" else c.removeprefix("recall.").replace("leak.", "leak: ")
        for c in cols
    ]
    if "recall" in cols:  # n and the interval of the headline column (sessions resampled)
        table.insert(1, "95% interval (all)", g["recall"].apply(interval))
        table.insert(0, "n", g["recall"].count())
    return _with_labels(rs, table.reset_index())


def quality(rs: RunSet, ids: bool = False) -> pd.DataFrame:
    """soba_quality per job: sessions scored, mean score, pass rate (sessions averaged).
    ``ids``: keep the job_id column instead of the label."""
    m = session_metrics(rs)
    if "soba_quality_score" not in m.columns:
        return pd.DataFrame()
    scored = m.dropna(subset=["soba_quality_score"])
    g = scored.groupby("job_id")
    table = pd.DataFrame(
        {
            "sessions": g.size(),
            "mean score": g["soba_quality_score"].mean().round(3),
            "score 95% interval": g["soba_quality_score"].apply(interval),
            "pass rate": g["soba_quality_pass"].mean().round(3),
            "pass rate 95% interval": g["soba_quality_pass"].apply(interval),
        }
    ).reset_index()
    return table if ids else _with_labels(rs, table)


def pareto(rs: RunSet, ids: bool = False) -> pd.DataFrame:
    """Per job: savings (the share of request input tokens compaction saved, tune's measure:
    what running the session cost) and availability (the headline: every job scored at the
    same evaluation points), each the mean over sessions with ground truth; whether it is
    feasible (no refused request, no loop: see reports.verdict); and whether it is on the
    Pareto front: a feasible job that no other feasible job of its comparable group (same
    corpus and window) matches on both and beats on one. An infeasible job is never on the
    front. ``ids``: keep job_id."""
    m = session_metrics(rs)
    if "availability" not in m.columns or "savings" not in m.columns:
        return pd.DataFrame()
    # Savings over the sessions availability was scored on (those with ground truth) only.
    g = m.dropna(subset=["availability"]).groupby("job_id")
    table = pd.DataFrame({"savings": g["savings"].mean(), "availability": g["availability"].mean()})
    table = table.dropna()
    if table.empty:
        return pd.DataFrame()
    table["feasible"] = feasible_jobs(rs).reindex(table.index).fillna(False).astype(bool)
    table["group"] = comparable_groups(rs).reindex(table.index)
    front = pd.Series(False, index=table.index)
    for _, members in table[table["feasible"]].groupby("group"):
        s, r = members["savings"].to_numpy(), members["availability"].to_numpy()
        dominated = [
            any((s >= s[i]) & (r >= r[i]) & ((s > s[i]) | (r > r[i]))) for i in range(len(s))
        ]
        front[members.index] = [not d for d in dominated]
    table["pareto"] = front
    table = table.round(4).reset_index()
    return table if ids else _with_labels(rs, table)


def failure_modes(rs: RunSet) -> pd.DataFrame:
    """Per job x detector: sessions flagged, findings, and the flagged sessions."""
    sc = rs.scores
    fm = sc[sc["scorer"] == "failure_modes"] if not sc.empty else sc
    if fm.empty:
        return pd.DataFrame()
    flags = fm[fm["metric"] == "flag"]
    counts = fm[fm["metric"] == "findings"]
    rows = []
    for (job_id, detector), group in flags.groupby(["job_id", "kind"]):
        hit = group[group["value"] > 0]["session"].tolist()
        found = counts[(counts["job_id"] == job_id) & (counts["kind"] == detector)]
        rows.append(
            {
                "job_id": job_id,
                "detector": detector,
                "sessions flagged": len(hit),
                "findings": int(found["value"].sum()),
                "sessions": ", ".join(hit),
            }
        )
    return _with_labels(rs, pd.DataFrame(rows))


def drilldown(rs: RunSet) -> pd.DataFrame:
    """One row per job x session with the headline metrics."""
    m = session_metrics(rs)
    if m.empty:
        return m
    skip_cols = [c for c in m.columns if c.startswith("skip.")]
    m = m.assign(skips=m[skip_cols].sum(axis=1)) if skip_cols else m
    keep = [
        "job_id",
        "session",
        "attempts",
        "completed",
        "skipped",
        "failed",
        "stale",
        "cancelled",
        "blocked",
        "reclaimed",
        "savings_ratio",
        "degraded",
        "skips",
        "recall",
        "capsule_recall",
        "soba_quality_score",
        *[c for c in m.columns if c.startswith("fm.")],
    ]
    out = m[[c for c in keep if c in m.columns]].copy()
    for c in ("savings_ratio", "recall", "capsule_recall", "soba_quality_score"):
        if c in out.columns:
            out[c] = out[c].round(3)
    return _with_labels(rs, out)
