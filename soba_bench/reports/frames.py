"""pandas frames from run records: the one place reports, notebooks and ``compare`` read
results from.

``load_runs(path)`` finds every complete job under a run, sweep or results folder (following
``reused.json`` pointers, counting each record once) and reads ``run.json``,
``sessions.jsonl``, ``tables/*.parquet`` and ``scores/*.jsonl``. Nothing is taken from folder
names. A file an older run (or ``scorer=none``) did not write leaves its rows out and adds a
line to ``RunSet.notes``; it never fails the load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from soba_bench.engine.config import BOOL_KEYS, NUMBER_KEYS, TOP_LEVEL_KEYS
from soba_bench.jsonio import read_jsonl
from soba_bench.reports.scores import empty_scores, read_scores, scored_by
from soba_bench.runs import FoundRecord, find_records, load_sessions, read_parquet

ENGINE_KEYS = (*TOP_LEVEL_KEYS, *BOOL_KEYS, *NUMBER_KEYS)
# Job settings besides the engine keys that a sweep may vary.
SETTING_COLUMNS = ("strategy", "variant", "summarizer", "prompt_id", "meter", "corpus", "seed")
NOT_RECORDED = "not recorded"


@dataclass(frozen=True, eq=False)
class RunSet:
    """Every complete job under a results folder, as frames (see the module docstring).

    ``jobs``: one row per complete job (job_id, job_key, path, status, strategy, variant,
    summarizer, prompt_id, the engine keys, timings, totals). ``sessions``: job_id, session
    and the per-session counts of ``sessions.jsonl``. ``attempts`` / ``barriers``: the job
    tables plus job_id. ``scores``: long/tidy (job_id, session, scorer, strategy, view,
    moment, kind, metric, value, higher_is_better). ``provenance``: one row per job.
    ``failed``: jobs whose record says ``failed`` (job_id, path, error). ``notes``: what is
    not recorded, per job.
    """

    root: Path
    jobs: pd.DataFrame
    sessions: pd.DataFrame
    attempts: pd.DataFrame
    barriers: pd.DataFrame
    scores: pd.DataFrame
    provenance: pd.DataFrame
    failed: pd.DataFrame
    notes: tuple[str, ...] = ()
    # Derived frames computed once per RunSet (the frames above are never changed in place).
    _derived: dict[str, pd.DataFrame] = field(default_factory=dict, repr=False)

    def job_settings(self, columns: list[str] | None = None) -> pd.DataFrame:
        """job_id plus the given job columns (default: strategy and the swept parameters),
        for merging onto any other frame."""
        cols = columns if columns is not None else ["strategy", *swept_parameters(self)]
        cols = [c for c in dict.fromkeys(cols) if c in self.jobs.columns and c != "job_id"]
        return self.jobs[["job_id", *cols]]


def _job_row(found: FoundRecord) -> dict[str, Any]:
    run = found.run
    config, compaction = run.config, run.engine_compaction
    engine = {k: config.get(k) for k in TOP_LEVEL_KEYS}
    engine.update({k: compaction.get(k) for k in (*BOOL_KEYS, *NUMBER_KEYS)})
    strategy = run.strategy or (run.resolved_config.get("strategy") or {}).get("name")
    return {
        "job_id": run.job.id or run.run_id,
        "job_key": run.job_key,
        "path": str(found.folder),
        "status": run.status,
        "reused": found.via is not None,
        "sweep": run.job.sweep,
        "strategy": strategy or NOT_RECORDED,
        "variant": run.variant or NOT_RECORDED,
        # A strategy without a summarizer records name null: "none", not "not recorded".
        "summarizer": run.summarizer_name or ("none" if "summarizer" in run.raw else NOT_RECORDED),
        "prompt_id": run.prompt_id,
        "meter": run.meter,
        "corpus": run.corpus_name,
        "seed": run.seed,
        "scorers": ",".join(run.scorers) or None,
        **engine,
        **{"wall_seconds" if k == "wallSeconds" else k: v for k, v in run.timings.items()},
        **{f"total_{k}": v for k, v in run.totals.items()},
    }


def _provenance_row(found: FoundRecord, job_id: str) -> dict[str, Any]:
    run = found.run
    summarizer = run.summarizer
    return {
        "job_id": job_id,
        "path": str(found.folder),
        "reused_via": str(found.via) if found.via else None,
        "run_id": run.run_id,
        "created_at": run.created_at,
        "package_version": run.package.get("version"),
        "soba_version": run.package.get("sobaVersion"),
        "git_revision": run.git_revision,
        "python": run.python,
        "corpora": ", ".join(f"{c.name}@{c.version}" for c in run.corpora) or None,
        "corpora_sha256": ", ".join(str(c.manifest_sha256) for c in run.corpora) or None,
        "inputs_unchanged": run.inputs_unchanged,
        "seed": run.seed,
        "summarizer": run.summarizer_name,
        "prompt_id": run.prompt_id,
        "summarizer_chain": ",".join(run.summarizer_chain) or None,
        "summarizer_model": summarizer.get("model"),
        "summarizer_latency": str(summarizer["latency"]) if summarizer.get("latency") else None,
        "job_key": run.job_key,
    }


def _from_barrier_logs(folder: Path, kind: str) -> pd.DataFrame | None:
    """Older runs without tables/: the same rows from barriers/<session>.jsonl.gz."""
    root = folder / "barriers"
    if not root.is_dir():
        return None
    rows = []
    for path in sorted(root.rglob("*.jsonl.gz")):
        session = path.relative_to(root).as_posix().removesuffix(".jsonl.gz")
        for line in read_jsonl(path):
            wanted = ("check", "attempt") if kind == "barriers" else ("attempt",)
            if line.get("kind") in wanted:
                rows.append({"session": session, **line})
    return pd.DataFrame(rows)


def _table(found: FoundRecord, job_id: str, name: str, notes: list[str]) -> pd.DataFrame | None:
    path = found.folder / "tables" / f"{name}.parquet"
    if path.exists():
        frame = read_parquet(path)
    else:
        frame = _from_barrier_logs(found.folder, name)
        if frame is None:
            notes.append(f"{job_id}: {name} not recorded (no tables/{name}.parquet)")
            return None
        notes.append(f"{job_id}: {name} read from barriers/ (no tables/{name}.parquet)")
    frame.insert(0, "job_id", job_id)
    return frame


def _sessions(found: FoundRecord, job_id: str, notes: list[str]) -> pd.DataFrame | None:
    path = found.folder / "sessions.jsonl"
    if not path.exists():
        notes.append(f"{job_id}: sessions not recorded (no sessions.jsonl)")
        return None
    rows = [
        {k: v for k, v in row.raw.items() if not isinstance(v, dict | list)}
        for row in load_sessions(path)
    ]
    # An empty sessions.jsonl (a corpus without sessions) still has the session column.
    frame = pd.DataFrame(rows) if rows else pd.DataFrame(columns=["session"])
    frame.insert(0, "job_id", job_id)
    return frame


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    frames = [f for f in frames if f is not None and not f.empty]
    return pd.concat(frames, ignore_index=True, sort=False) if frames else pd.DataFrame()


def load_runs(path: str | Path) -> RunSet:
    """Every job record under ``path`` as a :class:`RunSet`. Raises
    :class:`~soba_bench.errors.InputError` when there is no run record there."""
    found, notes = find_records(Path(path))
    jobs, provenance, failed = [], [], []
    sessions, attempts, barriers, scores = [], [], [], []
    seen_ids: dict[str, int] = {}
    for item in found:
        row = _job_row(item)
        job_id = str(row["job_id"])
        if job_id in seen_ids:  # two sweeps may reuse a job id for different settings
            seen_ids[job_id] += 1
            job_id = f"{job_id}#{seen_ids[job_id]}"
        else:
            seen_ids[job_id] = 1
        row["job_id"] = job_id
        if row["status"] != "complete":
            failed.append({"job_id": job_id, "path": row["path"], "error": item.run.error})
            continue
        jobs.append(row)
        provenance.append(_provenance_row(item, job_id))
        frame = _sessions(item, job_id, notes)
        sessions.append(frame)
        names = [] if frame is None else [str(s) for s in frame["session"]]
        attempts.append(_table(item, job_id, "attempts", notes))
        barriers.append(_table(item, job_id, "barriers", notes))
        score_frame, scorers = read_scores(item.folder, item.record, names)
        row["scorers"] = ",".join(scorers) or None  # what the tables hold, after any re-score
        scored = scored_by(item.folder)
        matcher, models = (scored.matcher, scored.matcher_models) if scored else (None, None)
        row["matcher"] = f"{matcher} ({models})" if matcher and models else matcher
        if not scorers:
            notes.append(f"{job_id}: scores not recorded (scorer none or no scores/)")
        score_frame.insert(0, "job_id", job_id)
        scores.append(score_frame)
    score_all = _concat(scores)
    judged = sorted({str(r["matcher"]) for r in jobs if r.get("matcher")})
    if len(judged) > 1:
        # A sweep over scorer.matcher compares matchers on purpose; anything else compares
        # configs whose scores differ by the matcher as well (compare refuses such a pair).
        notes.append(f"jobs were scored by different matchers or models: {'; '.join(judged)}")
    return RunSet(
        root=Path(path),
        jobs=pd.DataFrame(jobs),
        sessions=_concat(sessions),
        attempts=_concat(attempts),
        barriers=_concat(barriers),
        scores=score_all if not score_all.empty else empty_scores().assign(job_id=None),
        provenance=pd.DataFrame(provenance),
        failed=pd.DataFrame(failed, columns=["job_id", "path", "error"]),
        notes=tuple(notes),
    )


def swept_parameters(runset: RunSet) -> list[str]:
    """The job settings (engine keys, strategy, variant, summarizer, prompt, meter, corpus,
    seed) that take more than one value across the run set's jobs, engine keys first."""
    jobs = runset.jobs
    out = []
    for column in (*ENGINE_KEYS, *SETTING_COLUMNS):
        if column in jobs.columns and jobs[column].astype(str).nunique(dropna=False) > 1:
            out.append(column)
    return out


def session_metrics(runset: RunSet) -> pd.DataFrame:
    """One row per job x session with the headline metrics (see
    :func:`soba_bench.reports.metrics.build_session_metrics`). The one definition of the
    per-session numbers: reports, ``compare`` and tune read it."""
    from soba_bench.reports.metrics import build_session_metrics as build

    if "session_metrics" not in runset._derived:
        runset._derived["session_metrics"] = build(runset)
    return runset._derived["session_metrics"].copy()  # callers may add columns
