"""Helpers for the sweep tests: run the CLI, read a sweep folder's records."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

# The done-when grid: keepRecentTokens x minSavingsRatio x timeoutMs on the small corpus's first
# session (440 entries, one compaction whose size differs between the two keepRecentTokens;
# the whole corpus tells the points apart no better and costs about three times as much).
# The grid tests a sweep's mechanics (folders, records, resume, launchers): its jobs score no
# baseline views, which the default scorer adds at every capsule moment (a third of a job's
# scoring); tests of those views use the default scorer.
GRID = [
    "engine.keepRecentTokens=8000,16000",
    "engine.minSavingsRatio=0.1,0.25",
    "engine.timeoutMs=5000,15000",
    "corpus=synthetic-small",
    "corpus.limit=1",
    "scorer.baselines=[]",
]
GRID_JOBS = 8
# Two of the grid's points (the keepRecentTokens pair, which compact differently), for tests
# that check another launcher against the grid's reference: a launcher either runs a job as
# the reference did or not, so two jobs show it as well as eight, at a quarter of the cost
# (submitit starts one interpreter per job).
SUBGRID = [
    "engine.keepRecentTokens=8000,16000",
    "engine.minSavingsRatio=0.1",
    "engine.timeoutMs=5000",
    "corpus=synthetic-small",
    "corpus.limit=1",
    "scorer.baselines=[]",
]
SUBGRID_JOBS = 2


def cli_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "HYDRA_FULL_ERROR"}
    env.update(extra)
    return env


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 600):
    return subprocess.run(
        [sys.executable, "-m", "soba_bench", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env or cli_env(),
    )


def cli_in_process(*args: str) -> subprocess.CompletedProcess[str]:
    """``soba-bench ARGS`` through the CLI's own ``main`` in this process: its exit status,
    stdout and stderr, without a new interpreter's start-up and imports per call (several
    seconds each). For commands that keep no global state (compare, inspect); sweeps and
    runs go through :func:`cli` (Hydra owns the process)."""
    from soba_bench.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def matches_reference(sweep_dir: Path, reference_dir: Path, jobs: int) -> None:
    """``sweep_dir`` has ``jobs`` complete jobs, each with the same job key and results as
    the reference sweep's job of that key."""
    mine, reference = results_by_key(sweep_dir), results_by_key(reference_dir)
    assert len(mine) == jobs and set(mine) <= set(reference), (sorted(mine), sorted(reference))
    assert mine == {key: reference[key] for key in mine}


def job_dirs(sweep_dir: Path) -> list[Path]:
    return sorted(p for p in sweep_dir.iterdir() if p.is_dir() and not p.name.startswith("."))


def records(sweep_dir: Path) -> list[dict[str, Any]]:
    return [json.loads((d / "run.json").read_text()) for d in job_dirs(sweep_dir)]


def results_by_key(sweep_dir: Path) -> dict[str, Any]:
    """job key -> what the job computed (totals and the corpus score table)."""
    out = {}
    for record in records(sweep_dir):
        assert record["status"] == "complete", record.get("error")
        corpus = (record["scoring"] or {}).get("corpus")
        out[record["jobKey"]] = (record["totals"], corpus)
    return out
