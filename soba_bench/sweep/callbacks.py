"""Hydra callbacks of the app (``hydra.callbacks.soba`` in configs/config.yaml): refuse secrets
before anything is written, and, for a multirun, the sweep's progress monitor and its job table
(``<sweep dir>/jobs.parquet`` + ``sweep.json``: one row per job, rebuilt from the records, so a
resumed sweep never lists a job twice)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig, OmegaConf

from soba_bench.engine.config import TOP_LEVEL_KEYS
from soba_bench.errors import InputError
from soba_bench.jsonio import read_json_object, remove_stale_temps
from soba_bench.runs.layout import RunLayout, write_json
from soba_bench.runs.record import ReusedPointer
from soba_bench.scoring.embeddings import THREADS_ENV
from soba_bench.sweep import console
from soba_bench.sweep.jobspec import COMPACTION_KEYS
from soba_bench.sweep.progress import SweepMonitor, bars_enabled
from soba_bench.sweep.schema import plain_config
from soba_bench.sweep.tables import write_parquet

# Keys whose value would be a credential. Configs name the environment variable instead
# (``summarizer.api_key_env: OPENAI_API_KEY``); ``*Tokens`` counts are not secrets.
SECRET_KEY = re.compile(
    r"(^|[._-])(api[_-]?key|apikey|secret|secret[_-]?key|password|passwd|"
    r"(access|auth|bearer|api)[_-]?token|credentials?)$",
    re.IGNORECASE,
)

# What the launching process learns about the sweep it ran (read by the CLI for its exit code).
STATE: dict[str, Any] = {}


def secret_keys(data: Any, prefix: str = "") -> list[str]:
    """Dotted keys holding a non-empty value under a credential-like name."""
    found: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            dotted = f"{prefix}{key}"
            if isinstance(key, str) and SECRET_KEY.search(key) and value not in (None, "", {}):
                found.append(dotted)
            else:
                found += secret_keys(value, dotted + ".")
    elif isinstance(data, list):
        for n, value in enumerate(data):
            found += secret_keys(value, f"{prefix}{n}.")
    return found


def check_no_secrets(config: DictConfig) -> None:
    """Stop (exit status 2) before any folder or .hydra file is written if a config or an
    override holds a credential. Hydra turns a callback's exceptions into warnings, so this
    exits instead of raising."""
    task = {k: v for k, v in plain_config(config, resolve=False).items() if k != "hydra"}
    found = secret_keys(task)
    for override in config.hydra.overrides.task:
        key = override.split("=", 1)[0].lstrip("+~")
        if SECRET_KEY.search(key.rsplit(".", 1)[-1]) and "=" in override:
            found.append(key)
    if found:
        print(
            f"soba-bench: error: config holds a credential ({', '.join(sorted(set(found)))}): "
            "secrets never go in configs, overrides or run folders; put the key in an "
            "environment variable and name the variable instead, e.g. "
            "summarizer.api_key_env=OPENAI_API_KEY",
            file=sys.stderr,
        )
        raise SystemExit(2)


def count_jobs(config: DictConfig) -> int | None:
    """How many jobs the basic sweeper will launch (None when it cannot be told)."""
    try:
        from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
        from hydra.core.override_parser.overrides_parser import OverridesParser

        params = OmegaConf.select(config, "hydra.sweeper.params") or {}
        args = [f"{k}={v}" for k, v in params.items()]
        args += list(config.hydra.overrides.task)
        overrides = OverridesParser.create().parse_overrides(args)
        return sum(len(batch) for batch in BasicSweeper.split_arguments(overrides, None))
    except Exception:
        return None


def _settings(record: dict[str, Any]) -> dict[str, Any]:
    """What a job was: strategy, variant, summarizer, prompt id, corpus and every engine key
    (SOBA's names), as columns, so ``pandas.read_parquet(jobs.parquet)`` is all a notebook
    needs to group and plot a sweep."""
    resolved = record.get("resolvedConfig") or {}
    summarizer = record.get("summarizer") or {}
    config = record.get("config") or {}
    compaction = config.get("compaction") or {}
    return {
        "strategy": record.get("strategy") or (resolved.get("strategy") or {}).get("name"),
        "variant": record.get("variant"),
        "summarizer": summarizer.get("name"),
        "promptId": summarizer.get("promptId"),
        "corpus": (record.get("corpus") or {}).get("name"),
        **{key: config.get(key) for key in TOP_LEVEL_KEYS},
        **{key: compaction.get(key) for key in COMPACTION_KEYS},
    }


def job_rows(sweep_dir: Path) -> list[dict[str, Any]]:
    """One row per job folder of a sweep (its own record, or the one it reused)."""
    rows: dict[str, dict[str, Any]] = {}
    for folder in sorted(p for p in sweep_dir.iterdir() if p.is_dir() and p.name[0] != "."):
        layout = RunLayout(folder)
        status, path = None, None
        if layout.record.is_file():
            path = layout.record
        elif layout.reused.is_file():
            path = ReusedPointer.load(layout.reused).record
            status = "reused"
        if path is None:
            continue
        try:
            record = read_json_object(path, "run record (run.json)")
        except InputError:  # a job still writing or killed: the summary lists finished ones
            continue
        status = status or record.get("status")
        totals = record.get("totals") or {}
        row = {
            "jobId": folder.name,
            "status": status,
            "jobKey": record.get("jobKey"),
            "record": str(path),
            "overrides": " ".join((record.get("job") or {}).get("overrides") or []),
            **_settings(record),
            **{k: totals.get(k) for k in console.TOTAL_COLUMNS},
            **console.headline(record),
            "recall": console.soba_recall(record.get("scoring")),
            "inputRecall": console.input_recall(record),
            "wallSeconds": (record.get("timings") or {}).get("wallSeconds"),
            "error": record.get("error"),
        }
        # One row per job key: a key complete in two folders is one job.
        key = row["jobKey"] or folder.name
        if key not in rows or rows[key]["status"] == "failed":
            rows[key] = row
    return sorted(rows.values(), key=lambda r: r["jobId"])


def one_embedding_thread_per_job(config: DictConfig) -> None:
    """Jobs that run side by side in their own processes (joblib, Ray, submitit) each load the
    embedding model; with onnxruntime's default of one thread per core they fight over the
    cores (see scoring/embeddings.py). Workers inherit the environment, so the sweep sets one
    thread each unless the user chose a count. The basic launcher runs one job at a time in
    this process, and a joblib sweep with ``n_jobs=1`` is serial too: both keep the default."""
    target = str(OmegaConf.select(config, "hydra.launcher._target_") or "")
    if "BasicLauncher" in target or OmegaConf.select(config, "hydra.launcher.n_jobs") == 1:
        return
    os.environ.setdefault(THREADS_ENV, "1")


class SobaCallbacks(Callback):
    def on_run_start(self, config: DictConfig, **kwargs: Any) -> None:
        check_no_secrets(config)

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        check_no_secrets(config)
        one_embedding_thread_per_job(config)
        sweep_dir = Path(str(config.hydra.sweep.dir))
        # jobs.parquet / sweep.json of a sweep killed while writing them.
        remove_stale_temps(sweep_dir)
        bars = bars_enabled(OmegaConf.select(config, "progress.bars"))
        name = str(OmegaConf.select(config, "sweep.name"))
        STATE.clear()
        STATE["sweep_dir"] = sweep_dir
        STATE["monitor"] = SweepMonitor(sweep_dir, count_jobs(config), bars, name).start()

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        monitor: SweepMonitor | None = STATE.pop("monitor", None)
        counts = monitor.stop() if monitor is not None else {}
        sweep_dir = Path(str(config.hydra.sweep.dir))
        rows = job_rows(sweep_dir) if sweep_dir.is_dir() else []
        write_parquet(sweep_dir / "jobs.parquet", rows)
        by_status: dict[str, int] = {}
        for row in rows:
            by_status[row["status"]] = by_status.get(row["status"], 0) + 1
        summary = {
            "sweep": str(OmegaConf.select(config, "sweep.name")),
            "dir": str(sweep_dir),
            "jobs": len(rows),
            "byStatus": by_status,
            "thisRun": counts,
        }
        write_json(sweep_dir / "sweep.json", summary)
        STATE["summary"] = summary
        shown = ", ".join(f"{v} {k}" for k, v in sorted(by_status.items()))
        print(
            f"sweep {summary['sweep']}: {len(rows)} jobs ({shown}); table {sweep_dir}/jobs.parquet"
        )
        sys.stdout.flush()
