"""The report's score figures: availability per fact kind against the swept parameters, the
Pareto front of savings vs availability, retention per fact kind and job (a capsule-moment
diagnostic), soba_quality pass rates and failure modes. Each is a function
``(RunSet, ...) -> Figure`` or None when the records hold no such scores.

Settings are compared on availability, never on retention: every job of a session is asked
the same questions at the same evaluation points, while retention scores each job at its own
capsule moments, so a dose-response curve of retention mixes the setting's effect with when
the job happened to compact (issue 17)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.figure import Figure

from soba_bench.reports import tables
from soba_bench.reports.figures import MIN_TREND_POINTS, _height, in_job_order, new_figure
from soba_bench.reports.frames import RunSet, session_metrics, swept_parameters
from soba_bench.reports.labels import axis_labels
from soba_bench.reports.verdict import comparable_groups

PALETTE = colormaps["tab20"]
MARKERS = ("o", "s", "^", "D", "v", "P", "X")


def _by_kind(rs: RunSet, metric: str) -> pd.DataFrame:
    """Per job (rows) and fact kind (columns): ``<metric>.<kind>`` averaged over sessions."""
    m = session_metrics(rs)
    prefix = metric + "."
    cols = [c for c in m.columns if c.startswith(prefix)]
    if not cols or m[cols].isna().all().all():
        return pd.DataFrame()
    out = m.groupby("job_id")[cols].mean()
    out.columns = [c.removeprefix(prefix) for c in cols]
    return in_job_order(rs, out.dropna(how="all"))


def _panels(rs: RunSet, parameter: str) -> pd.DataFrame:
    """job_id, parameter, strategy and panel (comparable group + strategy) for the panels
    in which ``parameter`` takes more than one value: a setting is plotted only where it
    varies, and a panel never mixes corpora or windows."""
    jobs = rs.jobs[["job_id", parameter, "strategy"]].copy()
    group = comparable_groups(rs).reindex(jobs["job_id"]).to_numpy()
    jobs["panel"] = [f"{s} | {g}" for s, g in zip(jobs["strategy"].astype(str), group, strict=True)]
    varies = jobs.groupby("panel")[parameter].transform(lambda v: v.nunique() > 1)
    return jobs[varies]


def numeric_parameters(rs: RunSet) -> list[str]:
    """Swept numeric parameters that vary within at least one panel (plotted as x axes)."""
    return [
        p
        for p in swept_parameters(rs)
        if pd.api.types.is_numeric_dtype(rs.jobs[p])
        and not pd.api.types.is_bool_dtype(rs.jobs[p])
        and not _panels(rs, p).empty
    ]


def availability_vs_parameter(rs: RunSet, parameter: str) -> Figure | None:
    """Line plot: mean availability per fact kind against one swept parameter, one panel per
    strategy and comparable group in which it varies (other swept settings averaged)."""
    shares = _by_kind(rs, "availability")
    if shares.empty or parameter not in rs.jobs.columns:
        return None
    frame = shares.join(_panels(rs, parameter).set_index("job_id"), how="inner")
    if frame.empty:
        return None
    panels = sorted(frame["panel"].unique())
    fig = new_figure(4.5 * len(panels) + 2.5, 4.5)
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    kinds = list(shares.columns)
    fewest = min(frame.groupby("panel")[parameter].nunique())
    for ax, panel in zip(axes, panels, strict=True):
        sub = frame[frame["panel"] == panel]
        means = sub.groupby(parameter)[kinds].mean().sort_index()
        for i, kind in enumerate(kinds):
            ax.plot(
                means.index,
                means[kind],
                marker=MARKERS[i % len(MARKERS)],
                color=PALETTE(i % PALETTE.N),
                label=kind,
            )
        ax.set_xlabel(parameter + (" (tokens)" if "Tokens" in parameter else ""))
        ax.set_title(panel.replace(" | ", "\n"), fontsize="small")
        ax.set_ylim(-0.05, 1.05)
    axes[0].set_ylabel("availability (share of live facts visible)")
    axes[-1].legend(
        title="fact kind", fontsize="x-small", loc="center left", bbox_to_anchor=(1.02, 0.5)
    )
    title = f"Availability per fact kind against {parameter}"
    if fewest < MIN_TREND_POINTS:
        title += f" (only {fewest} values: too few to read a trend)"
    fig.suptitle(title)
    return fig


def retention_heatmap(rs: RunSet) -> Figure | None:
    """Heat map: mean recall per job (rows) and fact kind (columns), at each job's own
    capsule moments (a diagnostic)."""
    recall = _by_kind(rs, "recall")
    if recall.empty:
        return None
    labels = axis_labels(rs)
    fig = new_figure(10, _height(len(recall), 2.8, 0.45))
    ax = fig.add_subplot()
    values = recall.to_numpy(dtype=float)
    image = ax.imshow(values, aspect="auto", cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(recall.columns)), list(recall.columns), rotation=35, ha="right")
    ax.set_yticks(range(len(recall)), [labels[j] for j in recall.index])
    for (i, j), value in np.ndenumerate(values):
        if not np.isnan(value):
            ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize="x-small")
    fig.colorbar(image, ax=ax, label="recall")
    ax.set_title("Retention (recall) per fact kind and job")
    return fig


def pareto_front(rs: RunSet) -> Figure | None:
    """Scatter of savings (request input tokens saved) vs availability per job, means over
    sessions, the Pareto front joined."""
    table = tables.pareto(rs, ids=True)
    if table.empty:
        return None
    numbers = axis_labels(rs)
    ids = list(table["job_id"])
    fig = new_figure(7, 5)
    ax = fig.add_subplot()
    strategies = rs.jobs.set_index("job_id")["strategy"]
    feasible = table["feasible"].to_numpy()
    for strategy in sorted(strategies.loc[ids].astype(str).unique()):
        mask = (strategies.loc[ids].astype(str) == strategy).to_numpy()
        ax.scatter(
            table["savings"][mask & feasible],
            table["availability"][mask & feasible],
            s=36,
            label=strategy,
        )
    if not feasible.all():  # refuses requests or loops: drawn, never on the front
        ax.scatter(
            table["savings"][~feasible],
            table["availability"][~feasible],
            s=44,
            marker="x",
            color="#b71c1c",
            label="infeasible (refuses or loops)",
        )
    for n, (_, front) in enumerate(table[table["pareto"]].groupby("group")):
        front = front.sort_values("savings")
        ax.plot(
            front["savings"],
            front["availability"],
            color="black",
            linewidth=1,
            label="Pareto front (per corpus and window)" if n == 0 else None,
        )
    for job_id, x, y in zip(ids, table["savings"], table["availability"], strict=True):
        ax.annotate(
            numbers[job_id], (x, y), textcoords="offset points", xytext=(4, 4), fontsize="x-small"
        )
    ax.set_xlabel("savings (share of request input tokens saved, mean over sessions)")
    ax.set_ylabel("availability (mean over sessions)")
    ax.set_title("Savings vs availability across the sweep")
    ax.legend(fontsize="small")
    return fig


def quality_pass_rate(rs: RunSet) -> Figure | None:
    """Bars: soba_quality pass rate per job (mean score printed on each bar)."""
    table = tables.quality(rs, ids=True)
    if table.empty:
        return None
    ids = list(table["job_id"])
    labels = axis_labels(rs)
    fig = new_figure(8, _height(len(table), 2.0, 0.4))
    ax = fig.add_subplot()
    names = [labels[j] for j in ids]
    # With every pass rate at 0 the bars would be invisible: show the mean scores instead and
    # say so, so an empty-looking chart is never mistaken for missing data.
    none_pass = bool((table["pass rate"] == 0).all())
    values = table["mean score"] if none_pass else table["pass rate"]
    bars = ax.barh(names, 100 * values, color="#9e9e9e" if none_pass else "#1565c0")
    for bar, score in zip(bars, table["mean score"], strict=True):
        ax.text(
            bar.get_width() + 1,
            bar.get_y() + bar.get_height() / 2,
            f"mean score {score:.2f}",
            va="center",
            fontsize="x-small",
        )
    ax.invert_yaxis()
    ax.set_xlim(0, 115)
    if none_pass:
        ax.set_xlabel("mean soba_quality score (%), sessions averaged")
        ax.set_title("soba_quality: no capsule passed the 0.9 threshold (mean scores shown)")
    else:
        ax.set_xlabel("capsules passing soba_quality (threshold 0.9), sessions averaged (%)")
        ax.set_title("soba_quality pass rate")
    return fig


def failure_mode_counts(rs: RunSet) -> Figure | None:
    """Grouped bars: sessions flagged per failure-mode detector, per job."""
    sc = rs.scores
    flags = sc[(sc["scorer"] == "failure_modes") & (sc["metric"] == "flag")] if not sc.empty else sc
    if flags.empty:
        return None
    table = flags.pivot_table(index="job_id", columns="kind", values="value", aggfunc="sum")
    table = in_job_order(rs, table)
    labels = axis_labels(rs)
    fig = new_figure(8, _height(len(table) * 0.6, 2.6, 0.5))
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(table.columns))
    y = np.arange(len(table))
    for i, detector in enumerate(table.columns):
        ax.barh(y + i * width, table[detector], height=width, label=detector)
    ax.set_yticks(y + 0.4 - width / 2, [labels[j] for j in table.index])
    ax.invert_yaxis()
    ax.set_xlabel("sessions flagged (count)")
    ax.set_title("Failure modes")
    ax.legend(fontsize="x-small")
    return fig
