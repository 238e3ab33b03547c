"""One trial: an engine config evaluated on one side of the split, through the sweep's own
job runner (:func:`soba_bench.sweep.job.run_job`), so every trial leaves a real job folder
with a complete run record.

Jobs run in this process, one after the other: a tuning run replays the same sessions dozens
of times, and the job runner's per-process session cache then parses each one only once.

A config SOBA would reject (its own validation) or silently change (keepRecentTokens lowered
to 85% of the hard limit) is not run: it is recorded as an ``invalid`` trial with SOBA's
message, infeasible, and the search goes on.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from soba_bench.engine.config import build_engine_config
from soba_bench.errors import SobaBenchError
from soba_bench.sweep.app import job_id
from soba_bench.sweep.job import JobContext, run_job
from soba_bench.sweep.jobspec import case_data
from soba_bench.tune.metrics import Estimate, SessionMetrics, corpus_metrics, session_tune_metrics
from soba_bench.tune.objective import Evaluation, Objective

Params = dict[str, float | int]


@dataclass(frozen=True)
class Trial:
    """One evaluated config (``status``: complete | invalid | failed)."""

    number: int
    label: str
    side: str
    params: Params
    engine: dict[str, Any]
    status: str
    evaluation: Evaluation
    metrics: dict[str, Estimate] = field(default_factory=dict)
    per_session: SessionMetrics = field(default_factory=dict)
    folder: Path | None = None
    job_key: str | None = None
    error: str | None = None
    seconds: float = 0.0
    repeat_of: int | None = None  # TPE asked for a config already evaluated


def _invalid(message: str) -> Evaluation:
    return Evaluation(False, None, (message,), guidance=-2e12)


def check_engine(engine: dict[str, Any]) -> str | None:
    """SOBA's verdict on a flat engine config: None when it runs as written."""
    try:
        built = build_engine_config(case_data(engine), source="tune trial")
    except SobaBenchError as exc:
        return str(exc)
    if built.compaction != built.compactionRequested:
        return (
            "keepRecentTokens must be < hardLimit (SOBA would lower it to "
            f"{built.compaction.keepRecentTokens:g})"
        )
    return None


@dataclass
class Evaluator:
    """Runs trials for one tuning run: the base job config, the corpus folders of each side,
    where job folders go, the objective, and the bootstrap settings."""

    base_config: dict[str, Any]
    sides: dict[str, list[Path]]
    jobs_dir: Path
    objective: Objective
    resamples: int = 2000
    confidence: float = 0.95
    seed: int = 0
    _done: dict[tuple[str, tuple[tuple[str, Any], ...]], Trial] = field(default_factory=dict)

    def engine_for(self, params: Params) -> dict[str, Any]:
        return {**self.base_config["engine"], **params}

    def run(self, number: int, params: Params, side: str = "search", name: str = "") -> Trial:
        """Evaluate ``params`` on ``side``; a config already run on that side is not re-run."""
        key = (side, tuple(sorted(params.items())))
        if key in self._done:
            prior = self._done[key]
            return replace(
                prior, number=number, params=dict(params), seconds=0.0, repeat_of=prior.number
            )
        trial = self._run(number, params, side, name)
        self._done[key] = trial
        return trial

    def _run(self, number: int, params: Params, side: str, name: str) -> Trial:
        started = time.perf_counter()
        engine = self.engine_for(params)
        text = ",".join(f"{k}={v}" for k, v in params.items())
        label = name or job_id(f"{number:03d}", text)
        problem = check_engine(engine)
        if problem is not None:
            return Trial(number, label, side, dict(params), engine, "invalid", _invalid(problem))
        config = copy.deepcopy(self.base_config)
        config["engine"] = engine
        config["corpus"] = {
            **config["corpus"],
            "name": f"tune-{side}",
            "paths": [str(p) for p in self.sides[side]],
        }
        folder = self.jobs_dir / side / label
        ctx = JobContext(out_dir=folder, job_id=label, overrides=(text,), tables=False)
        outcome = run_job(config, ctx)
        seconds = time.perf_counter() - started
        record = outcome.record or {}
        if outcome.status == "failed":
            error = str(record.get("error"))
            return Trial(
                number,
                label,
                side,
                dict(params),
                engine,
                "failed",
                _invalid(f"job failed: {error}"),
                folder=folder,
                error=error,
                seconds=seconds,
            )
        per_session = session_tune_metrics(folder)
        metrics = corpus_metrics(
            per_session, resamples=self.resamples, confidence=self.confidence, seed=self.seed
        )
        return Trial(
            number,
            label,
            side,
            dict(params),
            engine,
            "complete",
            self.objective.evaluate(metrics),
            metrics,
            per_session,
            folder,
            record.get("jobKey"),
            None,
            seconds,
        )
