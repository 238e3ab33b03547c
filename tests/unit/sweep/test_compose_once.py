"""A basic-launcher sweep composes each job's config once (soba_bench.sweep.app.
compose_each_job_once): the sweeper's check before the batch keeps what it composed and the
launcher runs it, instead of composing every job twice. A bad value still stops the sweep
before any job runs. Run in a fresh interpreter: Hydra owns the process it runs in."""

from __future__ import annotations

import json
import subprocess
import sys

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


def _sweep(tmp_path, values: str) -> dict:
    args = ["-m", "hydra/launcher=basic", "corpus=synthetic-tiny", "scorer=none"]
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
