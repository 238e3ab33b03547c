"""The report's figures about what the engine did: each a function ``(RunSet) -> Figure``,
or None when the run records hold nothing to plot. Figures are built on
``matplotlib.figure.Figure`` directly (no pyplot state, Agg rendering when saved), so report
generation is safe in worker processes and headless machines. The score figures (retention,
Pareto, soba_quality, failure modes) are in :mod:`soba_bench.reports.figures_scores`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from soba_bench.reports.frames import RunSet
from soba_bench.reports.labels import axis_labels
from soba_bench.reports.skips import LABELS, SKIP_CATEGORIES, barrier_decisions, fallback_kind
from soba_bench.reports.tables import NO_MODEL_SUMMARIZERS
from soba_bench.reports.tables import generation_latency as latency_table

# Fewer points than this on a line cannot show a trend; the figure's title says so.
MIN_TREND_POINTS = 5

OUTCOME_COLORS = {
    "completed": "#2e7d32",
    "skipped": "#9e9e9e",
    "failed": "#c62828",
    "stale": "#ef6c00",
    "cancelled": "#6a1b9a",
}


def new_figure(width: float = 8.0, height: float = 4.5) -> Figure:
    """An Agg-backed figure of the report's default size (inches)."""
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def in_job_order(rs: RunSet, frame: pd.DataFrame) -> pd.DataFrame:
    """A frame indexed by job_id, rows in the order of ``rs.jobs``."""
    return frame.reindex([j for j in rs.jobs["job_id"] if j in frame.index])


def _height(rows: float, base: float = 2.0, per_row: float = 0.35) -> float:
    return min(14.0, base + per_row * rows)


def outcomes_by_trigger(rs: RunSet) -> Figure | None:
    """Horizontal stacked bars: attempts per job x trigger, split by outcome."""
    a = rs.attempts
    if a.empty or not {"trigger", "outcome"}.issubset(a.columns):
        return None
    labels = axis_labels(rs)
    table = pd.crosstab([a["job_id"], a["trigger"]], a["outcome"])
    order = {j: i for i, j in enumerate(rs.jobs["job_id"])}
    table = table.iloc[sorted(range(len(table)), key=lambda i: order[table.index[i][0]])]
    fig = new_figure(8, _height(len(table)))
    ax = fig.add_subplot()
    left = np.zeros(len(table))
    rows = [f"{labels[job]}  {trigger}" for job, trigger in table.index]
    for outcome in table.columns:
        values = table[outcome].to_numpy()
        ax.barh(rows, values, left=left, label=outcome, color=OUTCOME_COLORS.get(outcome))
        left += values
    ax.invert_yaxis()
    ax.set_xlabel("compaction attempts (count)")
    ax.set_title("Attempt outcomes by trigger")
    ax.legend(title="outcome", loc="lower right", fontsize="small")
    return fig


def attempts_per_session(rs: RunSet) -> Figure | None:
    """Box plot of compaction attempts per session, per job."""
    s = rs.sessions
    if s.empty or "attempts" not in s.columns:
        return None
    labels = axis_labels(rs)
    groups = [(labels[j], g["attempts"].to_numpy()) for j, g in s.groupby("job_id", sort=False)]
    fig = new_figure(8, _height(len(groups), 2.2, 0.4))
    ax = fig.add_subplot()
    ax.boxplot([g for _, g in groups], orientation="horizontal", tick_labels=[n for n, _ in groups])
    ax.invert_yaxis()
    ax.set_xlabel("compaction attempts per session (count)")
    ax.set_title("Attempts per session")
    return fig


def reclaimed_distribution(rs: RunSet) -> Figure | None:
    """Histogram of tokens reclaimed per completed compaction, one series per job."""
    a = rs.attempts
    if a.empty or "outcome" not in a.columns:
        return None
    done = a[a["outcome"] == "completed"]
    if done.empty:
        return None
    labels = axis_labels(rs)
    fig = new_figure()
    ax = fig.add_subplot()
    bins = np.histogram_bin_edges(done["reclaimed"].astype(float), bins=20)
    for job_id, group in done.groupby("job_id", sort=False):
        ax.hist(group["reclaimed"] / 1000, bins=list(bins / 1000), alpha=0.5, label=labels[job_id])
    ax.set_xlabel("tokens reclaimed per compaction (thousands)")
    ax.set_ylabel("compactions (count)")
    ax.set_title("Reclaimed tokens per completed compaction")
    if done["job_id"].nunique() <= 12:
        ax.legend(fontsize="small")
    return fig


def tokens_vs_limits(rs: RunSet) -> Figure | None:
    """Per job, effective tokens before and after each completed compaction as a share of
    the hard limit, with the soft limit's share marked."""
    a = rs.attempts
    if a.empty or not {"outcome", "tokensBefore", "tokensAfter", "hardLimit"}.issubset(a):
        return None
    done = a[(a["outcome"] == "completed") & (a["hardLimit"] > 0)]
    if done.empty:
        return None
    labels = axis_labels(rs)
    jobs = list(dict.fromkeys(done["job_id"]))
    fig = new_figure(8, _height(len(jobs), 2.4, 0.5))
    ax = fig.add_subplot()
    for i, job_id in enumerate(jobs):
        g = done[done["job_id"] == job_id]
        ax.scatter(
            g["tokensBefore"] / g["hardLimit"],
            np.full(len(g), i - 0.12),
            s=14,
            color="#c62828",
            label="before" if i == 0 else None,
        )
        ax.scatter(
            g["tokensAfter"] / g["hardLimit"],
            np.full(len(g), i + 0.12),
            s=14,
            color="#2e7d32",
            label="after" if i == 0 else None,
        )
        soft = (g["softLimit"] / g["hardLimit"]).median()
        ax.plot([soft, soft], [i - 0.4, i + 0.4], color="#555555", linestyle=":")
    ax.axvline(1.0, color="black", linewidth=1, label="hard limit")
    ax.set_yticks(range(len(jobs)), [labels[j] for j in jobs])
    ax.invert_yaxis()
    ax.set_xlabel("effective tokens / hard limit (dotted: soft limit)")
    ax.set_title("Tokens before and after compaction against the limits")
    ax.legend(fontsize="small", loc="lower right")
    return fig


def skip_rates(rs: RunSet) -> Figure | None:
    """Heat map: share of barriers (%) per job and skip category (SOBA's six)."""
    b = rs.barriers
    if b.empty or "kind" not in b.columns:
        return None
    decided = barrier_decisions(b, rs.jobs)
    counts = pd.crosstab(decided["job_id"], decided["decision"])
    share = counts.div(counts.sum(axis=1), axis=0).reindex(columns=SKIP_CATEGORIES, fill_value=0)
    share = in_job_order(rs, share)
    labels = axis_labels(rs)
    fig = new_figure(9, _height(len(share), 2.6, 0.45))
    ax = fig.add_subplot()
    image = ax.imshow(100 * share.to_numpy(dtype=float), aspect="auto", cmap="Blues", vmin=0)
    ax.set_xticks(
        range(len(SKIP_CATEGORIES)), [LABELS[c] for c in SKIP_CATEGORIES], rotation=25, ha="right"
    )
    ax.set_yticks(range(len(share)), [labels[j] for j in share.index])
    for (i, j), value in np.ndenumerate(100 * share.to_numpy(dtype=float)):
        ax.text(j, i, f"{value:.1f}", ha="center", va="center", fontsize="small")
    fig.colorbar(image, ax=ax, label="share of barriers (%)")
    ax.set_title("Skip rate by reason category")
    return fig


def fallback_vs_timeout(rs: RunSet) -> Figure | None:
    """Degraded (fallback) rate of attempts against timeoutMs, one line per summarizer and
    strategy; None when no job ran a model summarizer."""
    a = rs.attempts
    if a.empty or "summarizer" not in a.columns:
        return None
    # Jobs without a model cannot fall back; their flat zero lines would only crowd the legend.
    a = a[~a["summarizer"].isin(NO_MODEL_SUMMARIZERS)]
    if a.empty:
        return None
    frame = a.assign(fallback=fallback_kind(a))
    jobs = rs.jobs.set_index("job_id")
    g = frame.groupby("job_id")
    rates = pd.DataFrame(
        {
            "timeout": g["fallback"].apply(lambda s: (s == "timeout").mean()),
            "model_error": g["fallback"].apply(lambda s: (s == "model_error").mean()),
        }
    ).join(jobs[["timeoutMs", "summarizer", "strategy"]])
    fig = new_figure()
    ax = fig.add_subplot()
    for (summarizer, strategy), group in rates.groupby(["summarizer", "strategy"]):
        group = group.sort_values("timeoutMs")
        x = group["timeoutMs"] / 1000
        ax.plot(x, 100 * group["timeout"], marker="o", label=f"{summarizer}/{strategy}: timeout")
        ax.plot(
            x,
            100 * group["model_error"],
            marker="s",
            linestyle="--",
            label=f"{summarizer}/{strategy}: model error",
        )
    ax.set_xscale("log")
    ax.set_xlabel("timeoutMs (seconds, log scale)")
    ax.set_ylabel("attempts with a fallback capsule (%)")
    title = "Degraded fallback rate against the timeout"
    fewest = int(rates.groupby(["summarizer", "strategy"])["timeoutMs"].nunique().min())
    if fewest < MIN_TREND_POINTS:
        title += f"\n(only {fewest} timeoutMs value{'s' * (fewest != 1)}: too few to read a trend)"
    ax.set_title(title)
    ax.legend(fontsize="small")
    return fig


def generation_latency(rs: RunSet) -> Figure | None:
    """Histogram of model summarizers' capsule generation time, timed-out attempts stacked at
    their timeoutMs (censored: the model took at least that long), each job's timeoutMs
    marked; None when no model summarizer ran."""
    lat = latency_table(rs)
    if lat.empty:
        return None
    fig = new_figure()
    ax = fig.add_subplot()
    seconds = [lat.loc[~lat["timed_out"], "ms"] / 1000, lat.loc[lat["timed_out"], "ms"] / 1000]
    ax.hist(
        seconds,
        bins=30,
        stacked=True,
        color=["#1565c0", "#c62828"],
        label=["answered", "timed out (at least timeoutMs)"],
    )
    for timeout in sorted(rs.jobs["timeoutMs"].dropna().unique()):
        ax.axvline(timeout / 1000, color="#c62828", linestyle="--", linewidth=1)
    ax.set_xlabel("capsule generation time (seconds; dashed: timeoutMs)")
    ax.set_ylabel("attempts (count)")
    n, timed_out = len(lat), int(lat["timed_out"].sum())
    title = f"Generation latency (n = {n} attempts, {timed_out} timed out)"
    if n < MIN_TREND_POINTS:
        title += "\ntoo few attempts to read a distribution"
    ax.set_title(title)
    ax.legend(fontsize="small")
    return fig
