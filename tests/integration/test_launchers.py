"""The other Hydra launchers give exactly the joblib sweep's results (two of its grid points,
compared by job key): Ray (a local Ray cluster the test starts on 127.0.0.1 and stops) and
submitit's local executor. submitit_slurm needs a
Slurm cluster and is documented in the README, not tested here."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.integration.sweeps import (
    SUBGRID,
    SUBGRID_JOBS,
    cli,
    cli_env,
    job_dirs,
    matches_reference,
)

pytestmark = pytest.mark.slow

# Keep every Ray address on the loopback interface (Ray otherwise advertises the machine's
# network address), and use Ray's token authentication for the client too.
RAY_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token"}


def ray_env() -> dict[str, str]:
    """RAY_ENV plus a fresh cluster token. Ray 2.5x+ refuses `ray start` in token mode without
    one (it never generates it implicitly); head and client must present the same token."""
    return {**RAY_ENV, "RAY_AUTH_TOKEN": secrets.token_hex(32)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def ray_cluster():
    """A one-node Ray cluster on 127.0.0.1, started for the test and stopped after it."""
    ray = Path(sys.executable).with_name("ray")
    port = free_port()
    # Short: Ray's unix socket paths under the temp dir must stay below 108 bytes.
    temp_dir = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
    log = temp_dir / "head.log"
    env = ray_env()
    head = subprocess.Popen(
        [
            str(ray),
            "start",
            "--head",
            "--block",
            f"--port={port}",
            "--node-ip-address=127.0.0.1",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--temp-dir={temp_dir}",
        ],
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=cli_env(**env),
    )
    try:
        deadline = time.monotonic() + 120
        while "Ray runtime started" not in log.read_text():
            assert head.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.25)
        yield f"127.0.0.1:{port}", env
    finally:
        head.send_signal(signal.SIGINT)  # `ray start --block` stops its processes on Ctrl-C
        try:
            head.wait(timeout=5)
        except subprocess.TimeoutExpired:
            # A clean-clone CI run saw it ignore Ctrl-C for the whole minute it was given:
            # its session (head, raylet, GCS, workers) is ours alone, so end it at once.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        shutil.rmtree(temp_dir, ignore_errors=True)


def test_ray_launcher_matches_joblib(grid_sweep, ray_cluster, tmp_path):
    reference, _ = grid_sweep
    address, env = ray_cluster
    done = cli(
        "run",
        "-m",
        *SUBGRID,
        "hydra/launcher=ray_cluster",
        f"hydra.launcher.ray.init.address={address}",
        f"hydra.sweep.dir={tmp_path}",
        env=cli_env(**env),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Connected to Ray cluster" in done.stderr
    assert len(job_dirs(tmp_path)) == SUBGRID_JOBS
    matches_reference(tmp_path, reference, SUBGRID_JOBS)


def test_submitit_local_launcher_matches_joblib(grid_sweep, tmp_path):
    reference, _ = grid_sweep
    done = cli(
        "run",
        "-m",
        *SUBGRID,
        "hydra/launcher=submitit_local",
        "hydra.launcher.timeout_min=30",
        f"hydra.sweep.dir={tmp_path}",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / ".submitit").is_dir()  # the jobs really went through submitit
    assert len(job_dirs(tmp_path)) == SUBGRID_JOBS
    matches_reference(tmp_path, reference, SUBGRID_JOBS)


def test_basic_launcher_runs_jobs_in_process_with_the_same_results(grid_sweep, tmp_path):
    reference, _ = grid_sweep
    done = cli("run", "-m", *SUBGRID, "hydra/launcher=basic", f"hydra.sweep.dir={tmp_path}")
    assert done.returncode == 0, done.stderr
    matches_reference(tmp_path, reference, SUBGRID_JOBS)
