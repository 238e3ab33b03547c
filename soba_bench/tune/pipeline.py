"""A tuning run end to end: split the corpus, search on one side, evaluate SOBA's shipped
defaults on the same sessions, re-evaluate both on the held-out side, write the trials table,
``recommendation.json`` and ``tune.md``.

    <out>/splits/{search,held_out}/<corpus>/   the two sides as corpus folders
    <out>/jobs/{search,held_out}/<label>/      one real job folder per evaluated config
    <out>/trials.csv, trials.parquet           one row per trial (and the baseline rows)
    <out>/recommendation.json, tune.md, tune.json (settings and split)
"""

from __future__ import annotations

import csv
import io
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.corpora.manifest import load_corpus
from soba_bench.engine.config import DEFAULT_COMPACTION
from soba_bench.errors import InputError
from soba_bench.jsonio import atomic_write_bytes
from soba_bench.runs.layout import write_json
from soba_bench.secrets_scan import scrub_text
from soba_bench.sweep.jobspec import resolve_path
from soba_bench.sweep.tables import write_parquet
from soba_bench.tune import recommend, report
from soba_bench.tune.metrics import TUNE_METRICS
from soba_bench.tune.runner import Evaluator, Trial
from soba_bench.tune.search import run_search
from soba_bench.tune.settings import TuneSettings
from soba_bench.tune.space import TUNABLE_KEYS
from soba_bench.tune.split import session_ids, split_sessions, write_side

log = logging.getLogger("soba_bench.tune")


@dataclass(frozen=True)
class TuneResult:
    folder: Path
    recommendation: dict[str, Any]
    trials: tuple[Trial, ...]


def baseline_params() -> dict[str, Any]:
    """SOBA's shipped compaction defaults for every tunable key."""
    defaults = DEFAULT_COMPACTION.to_dict()
    return {k: defaults[k] for k in TUNABLE_KEYS}


def trial_row(trial: Trial, role: str) -> dict[str, Any]:
    row: dict[str, Any] = {
        "trial": trial.number,
        "role": role,
        "side": trial.side,
        "status": trial.status,
        "repeatOf": trial.repeat_of,
        "feasible": trial.evaluation.feasible,
        "objective": trial.evaluation.value,
        "guidance": trial.evaluation.guidance,
        "violations": "; ".join(trial.evaluation.violations),
        **{k: trial.params.get(k) for k in TUNABLE_KEYS},
    }
    for name in TUNE_METRICS:
        est = trial.metrics.get(name)
        row[name] = est.value if est else None
        row[f"{name}_low"] = est.low if est else None
        row[f"{name}_high"] = est.high if est else None
    row["seconds"] = round(trial.seconds, 3)
    row["job"] = trial.label if trial.status != "invalid" else None
    return row


def write_trials(folder: Path, rows: list[dict[str, Any]]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_bytes(folder / "trials.csv", scrub_text(buffer.getvalue()).encode("utf-8"))
    write_parquet(folder / "trials.parquet", rows)


def run_tune(
    settings: TuneSettings,
    job_config: dict[str, Any],
    out: Path,
    progress=None,
) -> TuneResult:
    """Run a tuning job (see module doc). ``job_config`` is a resolved ``soba-bench run``
    config (its corpus, scorer, variant, summarizer, replay options); the window preset and
    each trial's parameters replace its engine keys. ``progress`` gets one line per trial."""
    started = time.perf_counter()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    corpora = tuple(load_corpus(resolve_path(p)) for p in job_config["corpus"]["paths"])
    split = split_sessions(session_ids(corpora), settings.held_out, settings.split_seed)
    if not split.search:
        raise InputError("the corpus has no session to search on", field="corpus.paths")
    sides = {
        "search": write_side(corpora, split.search, out / "splits" / "search"),
        "held_out": write_side(corpora, split.held_out, out / "splits" / "held_out"),
    }
    base = {**job_config, "engine": {**job_config["engine"], **settings.window}}
    evaluator = Evaluator(
        base_config=base,
        sides=sides,
        jobs_dir=out / "jobs",
        objective=settings.objective,
        resamples=settings.resamples,
        confidence=settings.confidence,
        seed=settings.seed,
    )
    write_json(
        out / "tune.json",
        {"settings": settings.to_dict(), "split": split.to_dict(), "tuneConfig": settings.source},
    )

    def evaluate(number: int, params: dict[str, Any]) -> Trial:
        trial = evaluator.run(number, params)
        if progress is not None:
            progress(report.trial_line(trial, settings.objective))
        return trial

    trials = run_search(
        settings.strategy,
        settings.space,
        evaluate,
        trials=settings.trials,
        seed=settings.seed,
        startup_trials=settings.startup_trials,
    )
    defaults = baseline_params()
    base_search = evaluator.run(-1, defaults, "search", "baseline-soba-defaults")
    base_held = chosen_held = None
    order = recommend.ranked(trials, settings.objective)
    if split.held_out:
        base_held = evaluator.run(-1, defaults, "held_out", "baseline-soba-defaults")
        if order:
            best = order[0]
            chosen_held = evaluator.run(best.number, best.params, "held_out", best.label)
    rows = [trial_row(t, "search") for t in trials]
    rows.append(trial_row(base_search, "baseline"))
    if base_held is not None:
        rows.append(trial_row(base_held, "baseline"))
    if chosen_held is not None:
        rows.append(trial_row(chosen_held, "recommended"))
    write_trials(out, rows)
    document = recommend.build(
        settings=settings.to_dict(),
        objective=settings.objective,
        trials=trials,
        split=split.to_dict(),
        baseline=(base_search, base_held),
        chosen_held=chosen_held,
        runner_ups=settings.runner_ups,
        root=out,
        stats={
            "seed": settings.seed,
            "resamples": settings.resamples,
            "confidence": settings.confidence,
        },
        wall_seconds=time.perf_counter() - started,
    )
    recommend.write_recommendation(out, document)
    atomic_write_bytes(out / "tune.md", scrub_text(report.render(document)).encode("utf-8"))
    return TuneResult(out, document, tuple(trials))
