"""How a report names jobs: by strategy and swept settings, never by folder names."""

from __future__ import annotations

import pandas as pd

from soba_bench.reports.frames import RunSet, swept_parameters

# Longer labels do not fit an axis: figures use "#n" and the report's job table gives the key.
MAX_AXIS_LABEL = 40


def _value(value: object) -> str:
    return "none" if value is None or (isinstance(value, float) and value != value) else str(value)


def _varying(jobs: pd.DataFrame, params: list[str]) -> list[str]:
    return [p for p in params if jobs[p].astype(str).nunique() > 1]


def job_labels(rs: RunSet) -> pd.Series:
    """job_id -> a short label: the strategy and the swept settings (the job id when nothing
    varies), made unique with the job id when two jobs share settings. When the jobs come
    from several sweeps (the main job's strategies and local-model sweeps), a label is the
    sweep's name and what varies inside that sweep: the settings that tell the sweeps apart
    would otherwise repeat in every label."""
    if rs.jobs.empty:
        return pd.Series(dtype=object)
    params = [p for p in swept_parameters(rs) if p != "strategy"]
    jobs = rs.jobs
    by_sweep = "sweep" in jobs.columns and jobs["sweep"].nunique() > 1
    groups = jobs.groupby("sweep", sort=False) if by_sweep else [(None, jobs)]
    labels = {}
    for sweep, group in groups:
        varying = _varying(group, params) if by_sweep else params
        strategies = group["strategy"].nunique() > 1
        for _, job in group.iterrows():
            parts = [str(job["strategy"])] if strategies else []
            parts += [f"{p}={_value(job[p])}" for p in varying]
            label = " ".join(parts) if parts else str(job["job_id"])
            labels[job["job_id"]] = f"{sweep}: {label}" if by_sweep else label
    series = pd.Series(labels, dtype=object)
    dup = series.duplicated(keep=False)
    series[dup] = [f"{v} [{k}]" for k, v in series[dup].items()]
    return series


def job_numbers(rs: RunSet) -> pd.Series:
    """job_id -> "#1", "#2"... in the order of ``rs.jobs``."""
    return pd.Series([f"#{i + 1}" for i in range(len(rs.jobs))], index=rs.jobs["job_id"])


def axis_labels(rs: RunSet) -> pd.Series:
    """job_id -> the label when every label is short enough for an axis, else the number."""
    labels = job_labels(rs)
    if labels.empty or labels.str.len().max() <= MAX_AXIS_LABEL:
        return labels
    return job_numbers(rs)
