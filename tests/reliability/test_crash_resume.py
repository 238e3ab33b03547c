"""Crash and resume: ``soba-bench run -m`` killed with SIGKILL at seeded random points (the
whole process group, several times over, and separately a single launcher worker), then run
again. The result must equal an uninterrupted sweep's (every job's totals and attempt rows),
with no lost or duplicated rows, no temporary or partial file left, and every job folder either
complete or absent, and the jobs finished before the last kill reused by the resume, not
redone."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.integration.sweeps import cli, cli_env, job_dirs
from tests.reliability.figures import tally

GRID = [
    "engine.keepRecentTokens=4000,8000,16000",
    "engine.minSavingsRatio=0.1,0.25",
    "corpus=synthetic-small",
    "corpus.limit=1",  # one session per job: a kill still lands between or inside jobs
    "scorer=failure_modes",
]
JOBS = 6
SEED = 20261203
VOLATILE = ["wallMs"]  # wall-clock columns differ between any two runs

pytestmark = pytest.mark.slow


def start(sweep_dir: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "soba_bench", "run", "-m", *GRID, f"hydra.sweep.dir={sweep_dir}"]
    return subprocess.Popen(
        cmd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: the launcher's workers included
        env=cli_env(),
    )


def finished(sweep_dir: Path) -> int:
    if not sweep_dir.is_dir():
        return 0
    return sum((d / "run.json").is_file() for d in job_dirs(sweep_dir))


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def wait_for(condition, proc: subprocess.Popen, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None and not condition():
        time.sleep(0.01)


def kill_group(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):  # it may have just finished
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)


def results(sweep_dir: Path) -> dict[str, tuple]:
    """job key -> (totals, attempt rows as a sorted list of JSON strings)."""
    out = {}
    for folder in job_dirs(sweep_dir):
        record = json.loads((folder / "run.json").read_text())
        assert record["status"] == "complete", record.get("error")
        frame = pd.read_parquet(folder / "tables" / "attempts.parquet").drop(columns=VOLATILE)
        rows = sorted(json.dumps(r, sort_keys=True, default=str) for r in frame.to_dict("records"))
        assert len(rows) == record["totals"]["attempts"]
        out[record["jobKey"]] = (record["totals"], rows)
    return out


def assert_clean(sweep_dir: Path) -> None:
    leftovers = [p for p in sweep_dir.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == [], leftovers
    for folder in job_dirs(sweep_dir):
        record = json.loads((folder / "run.json").read_text())  # complete, or absent
        assert record["status"] == "complete"
        for path in folder.rglob("*.gz"):
            gzip.decompress(path.read_bytes())  # no truncated file
        for path in folder.rglob("*.parquet"):
            pd.read_parquet(path)
    jobs = pd.read_parquet(sweep_dir / "jobs.parquet")
    assert len(jobs) == JOBS and jobs["jobKey"].is_unique


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    sweep_dir = tmp_path_factory.mktemp("reference") / "sweep"
    done = cli("run", "-m", *GRID, f"hydra.sweep.dir={sweep_dir}")
    assert done.returncode == 0, done.stderr
    found = results(sweep_dir)
    assert len(found) == JOBS
    return found


def test_sweep_killed_at_random_points_resumes_to_identical_results(reference, tmp_path):
    rng = random.Random(SEED)
    sweep_dir = tmp_path / "sweep"
    kills, cut_short = 0, 0
    for _ in range(3):  # three crashes in a row, each after a random amount of progress
        target = min(finished(sweep_dir) + rng.randint(0, 2), JOBS - 1)
        proc = start(sweep_dir)
        wait_for(lambda t=target: finished(sweep_dir) >= t, proc)
        time.sleep(rng.uniform(0.0, 1.5))
        if proc.poll() is None:
            kill_group(proc)
            kills += 1
            cut_short += finished(sweep_dir) < JOBS
    assert cut_short >= 1, "no kill landed mid-sweep"
    before = {
        d.name: (d / "run.json").read_bytes()
        for d in job_dirs(sweep_dir)
        if (d / "run.json").is_file()
    }
    done = cli("run", "-m", *GRID, f"hydra.sweep.dir={sweep_dir}")
    assert done.returncode == 0, done.stderr
    assert results(sweep_dir) == reference
    assert_clean(sweep_dir)
    # Jobs finished before the last kill were reused, byte for byte; only the others ran.
    for name, payload in before.items():
        assert (sweep_dir / name / "run.json").read_bytes() == payload
    assert done.stdout.count("[reused]") == len(before)
    assert done.stdout.count("[complete]") == JOBS - len(before)
    tally("crash and resume", "sweep kills (SIGKILL to the process group)", kills)
    tally("crash and resume", "kills that left the sweep unfinished", cut_short)
    tally("crash and resume", "resumed sweeps identical", 1)


def test_one_killed_worker_then_a_rerun_gives_identical_results(reference, tmp_path):
    rng = random.Random(SEED + 1)
    sweep_dir = tmp_path / "sweep"
    proc = start(sweep_dir)
    workers: list[int] = []

    def have_workers() -> bool:
        # joblib's loky workers are the main process's python children.
        workers[:] = [
            p for p in children(proc.pid) if b"python" in Path(f"/proc/{p}/cmdline").read_bytes()
        ]
        return len(workers) >= 1 and sweep_dir.is_dir() and len(job_dirs(sweep_dir)) >= 1

    wait_for(have_workers, proc)
    time.sleep(rng.uniform(0.0, 1.0))
    killed = False
    if proc.poll() is None and workers:
        os.kill(rng.choice(workers), signal.SIGKILL)
        killed = True
    try:
        proc.wait(timeout=600)  # the sweep may fail or finish without that worker's job
    finally:
        if proc.poll() is None:
            kill_group(proc)
    done = cli("run", "-m", *GRID, f"hydra.sweep.dir={sweep_dir}")
    assert done.returncode == 0, done.stderr
    assert results(sweep_dir) == reference
    assert_clean(sweep_dir)
    tally("crash and resume", "worker kills (SIGKILL to one launcher worker)", int(killed))
