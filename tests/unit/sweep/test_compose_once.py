"""A basic-launcher sweep composes each job's config once (soba_bench.sweep.app.
compose_each_job_once): the sweeper's check before the batch keeps what it composed and the
launcher runs it, instead of composing every job twice. A launcher that runs jobs in other
processes (joblib here) has the check compose only the jobs that cover every override
(soba_bench.sweep.app.covering_jobs). Either way a bad value stops the sweep before any job
runs. Run in a fresh interpreter: Hydra owns the process it runs in."""

from __future__ import annotations

import json
import subprocess
import sys

from soba_bench.sweep.app import covering_jobs
from tests.integration.sweeps import cli_env, job_dirs

SCRIPT = """
import json, sys
from hydra._internal.config_loader_impl import ConfigLoaderImpl
from soba_bench.cli import run_cmd

calls = []
compose = ConfigLoaderImpl.load_configuration
def counted(self, *args, **kwargs):
    calls.append(kwargs.get("run_mode"))
    return compose(self, *args, **kwargs)
ConfigLoaderImpl.load_configuration = counted
code = run_cmd.main(sys.argv[1:])
print(json.dumps({"code": code, "compositions": len(calls)}))
"""


def _sweep(tmp_path, values: str, launcher: str = "basic", *more: str) -> dict:
    args = ["-m", f"hydra/launcher={launcher}", "corpus=synthetic-tiny", "scorer=none", *more]
    args += [f"engine.keepRecentTokens={values}", f"hydra.sweep.dir={tmp_path}"]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=cli_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_each_job_is_composed_once(tmp_path):
    result = _sweep(tmp_path / "ok", "4000,8000,16000")
    assert result["code"] == 0
    jobs = job_dirs(tmp_path / "ok")
    assert len(jobs) == 3
    keys = {json.loads((job / "run.json").read_text())["jobKey"] for job in jobs}
    assert len(keys) == 3  # each job ran its own config
    # Hydra's mode probe and the sweep's own config, then one per job (was: two per job).
    assert result["compositions"] == 2 + 3


def test_a_bad_value_stops_the_sweep_before_any_job(tmp_path):
    result = _sweep(tmp_path / "bad", "4000,8000,many")
    assert result["code"] == 2
    assert not (tmp_path / "bad").exists() or job_dirs(tmp_path / "bad") == []


def test_a_joblib_grid_is_checked_by_the_jobs_that_cover_it(tmp_path):
    # 2 windows x 3 tails: the check composes (64k, 4k), (64k, 8k), (64k, 16k), (96k, 4k);
    # the workers compose all six jobs in their own processes (not counted here).
    window = "engine.contextWindow=64000,96000"
    result = _sweep(tmp_path / "ok", "4000,8000,16000", "joblib", window)
    assert result["code"] == 0
    assert len(job_dirs(tmp_path / "ok")) == 6
    assert result["compositions"] == 2 + 4  # Hydra's own check: 2 + 6


def test_a_bad_value_stops_a_joblib_sweep_before_any_job(tmp_path):
    # The bad value first appears in the grid's last job.
    window = "engine.contextWindow=64000,96000"
    result = _sweep(tmp_path / "bad", "4000,many", "joblib", window)
    assert result["code"] == 2
    assert not (tmp_path / "bad").exists() or job_dirs(tmp_path / "bad") == []


def test_covering_jobs_check_each_value_once_per_choice_of_groups():
    grid = [
        ("corpus=path", f"engine.contextWindow={w}", f"engine.keepRecentTokens={k}")
        for w in (1, 2, 3, 4, 5)
        for k in (1, 2, 3, 4, 5)
    ]
    chosen = covering_jobs(grid)
    assert len(chosen) == 9
    for override in {o for job in grid for o in job}:
        assert any(override in job for job in chosen)
    # A value may compose under one group choice and not another: each choice is covered.
    by_group = [(f"engine={e}", f"engine.keepRecentTokens={k}") for e in "ab" for k in (1, 2)]
    assert covering_jobs(by_group) == by_group
    # Overrides that may choose groups, add or delete keys are never taken as covered.
    others = [("seed=1",), ("seed=2",), ("+a.b=1",), ("+a.b=1", "x.y=2"), ("~a.b",)]
    assert covering_jobs(others) == others
