"""Sweeps end to end through the console entry point: one folder per job with a complete
record, named grids, a re-run that reuses instead of duplicating, secrets kept out of configs
and run folders, quiet output off a terminal. A sweep killed and resumed:
tests/reliability/test_crash_resume.py."""

from __future__ import annotations

import json
import time

import pandas as pd

from tests.integration.sweeps import (
    GRID_JOBS,
    cli,
    cli_env,
    job_dirs,
    records,
)


def test_multirun_writes_one_complete_job_folder_per_value(tmp_path):
    sweep_dir = tmp_path / "dir"
    # No baseline views (the grid's reason, tests/integration/sweeps.py): a sweep's mechanics,
    # on the default corpus (both bundled corpora), one session of each.
    args = [
        "engine.keepRecentTokens=8000,20000",
        "scorer.baselines=[]",
        "corpus.select=[soba-conformance/cc1-default,synthetic-small/synthetic-s7-000]",
    ]
    done = cli("run", "-m", *args, f"hydra.sweep.dir={sweep_dir}")
    assert done.returncode == 0, done.stderr
    folders = job_dirs(sweep_dir)
    assert len(folders) == 2
    kept = sorted(r["config"]["compaction"]["keepRecentTokens"] for r in records(sweep_dir))
    assert kept == [8000, 20000]
    for record in records(sweep_dir):
        assert record["status"] == "complete"
        assert [c["name"] for c in record["corpora"]] == ["soba-conformance", "synthetic-small"]
        assert [c["sessions"] for c in record["corpora"]] == [1, 1]
        assert record["job"]["multirun"] is True
    for folder in folders:
        assert (folder / ".hydra" / "config.yaml").is_file()
        assert (folder / "tables" / "attempts.parquet").is_file()
    assert done.stdout.count("[complete]") == 2
    summary = json.loads((sweep_dir / "sweep.json").read_text())
    assert summary["byStatus"] == {"complete": 2}
    # The job table is tidy: what each job was, as columns a notebook can group by.
    jobs = pd.read_parquet(sweep_dir / "jobs.parquet").sort_values("keepRecentTokens")
    assert list(jobs["keepRecentTokens"]) == [8000, 20000]
    assert set(jobs["strategy"]) == {"soba"} and set(jobs["variant"]) == {"soba-0.6.14"}
    assert set(jobs["summarizer"]) == {"deterministic"} and "promptId" in jobs.columns
    assert {"contextWindow", "minSavingsRatio", "timeoutMs", "corpus"} <= set(jobs.columns)
    assert jobs["availability"].notna().all()


def test_a_three_key_grid_gives_one_complete_record_per_point(grid_sweep):
    sweep_dir, done = grid_sweep
    found = records(sweep_dir)
    assert len(found) == GRID_JOBS and all(r["status"] == "complete" for r in found)
    points = {
        (
            r["config"]["compaction"]["keepRecentTokens"],
            r["config"]["compaction"]["minSavingsRatio"],
            r["config"]["compaction"]["timeoutMs"],
        )
        for r in found
    }
    assert len(points) == GRID_JOBS
    assert len({r["jobKey"] for r in found}) == GRID_JOBS
    jobs = pd.read_parquet(sweep_dir / "jobs.parquet")
    assert len(jobs) == GRID_JOBS and set(jobs["status"]) == {"complete"}
    # Off a terminal: no progress bars, one summary line per job.
    assert "job/s" not in done.stderr and "session/s" not in done.stderr
    assert done.stdout.count("[complete]") == GRID_JOBS


def test_named_sweep_and_rerun_reuse_without_duplicates(tmp_path):
    # One session per job: naming and reuse are the same for any corpus.
    args = ["sweep", "timeout", "corpus=synthetic-small", "corpus.limit=1", "scorer=failure_modes"]
    first = cli(*args, f"paths.results_dir={tmp_path}")
    assert first.returncode == 0, first.stderr
    (run1,) = [p for p in (tmp_path / "timeout").iterdir() if not p.name.startswith(".")]
    assert len(job_dirs(run1)) == 4 and all(r["status"] == "complete" for r in records(run1))
    time.sleep(1.1)  # the next run gets its own timestamp folder
    second = cli(*args, f"paths.results_dir={tmp_path}")
    assert second.returncode == 0, second.stderr
    runs = sorted(p for p in (tmp_path / "timeout").iterdir() if not p.name.startswith("."))
    assert len(runs) == 2
    assert second.stdout.count("[reused]") == 4
    run2 = runs[1]
    assert not list(run2.glob("*/run.json"))  # nothing recomputed, no second copy
    rows = pd.concat([pd.read_parquet(r / "jobs.parquet") for r in runs])
    assert rows["jobKey"].nunique() == 4 and len(pd.read_parquet(run2 / "jobs.parquet")) == 4
    assert len(list((tmp_path / "timeout" / ".index").glob("*.json"))) == 4


def test_experiment_overlay_runs_its_grid(tmp_path):
    done = cli(
        "run",
        "-m",
        "experiment=blocker_fix",
        "corpus=synthetic-small",  # the overlay's own corpus is synthetic-gate (30 sessions)
        "scorer=failure_modes",
        "hydra.sweeper.params.engine=64k-8k",
        f"hydra.sweep.dir={tmp_path}",
    )
    assert done.returncode == 0, done.stderr
    variants = sorted(r["variant"] for r in records(tmp_path))
    assert variants == ["soba-0.6.14", "soba-0.6.14+newest-blockers"]
    assert all(r["corpus"]["name"] == "synthetic-small" for r in records(tmp_path))


def test_a_credential_in_a_config_is_refused_before_anything_is_written(tmp_path):
    done = cli(
        "run",
        "corpus=synthetic-small",
        "+summarizer.params.api_key=sk-live-0123456789",
        f"paths.results_dir={tmp_path}",
    )
    assert done.returncode == 2
    assert "api_key_env" in done.stderr and "sk-live" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_keys_come_from_named_environment_variables_only(tmp_path):
    secret = "sk-test-do-not-store-4242"
    done = cli(
        "run",
        "corpus=synthetic-small",
        "scorer=none",
        "summarizer.api_key_env=SOBA_BENCH_TEST_KEY",
        f"paths.results_dir={tmp_path}",
        env=cli_env(SOBA_BENCH_TEST_KEY=secret),
    )
    assert done.returncode == 0, done.stderr
    (run_dir,) = tmp_path.iterdir()
    texts = [p.read_bytes() for p in run_dir.rglob("*") if p.is_file()]
    assert texts and not any(secret.encode() in t for t in texts)
    assert b"SOBA_BENCH_TEST_KEY" in (run_dir / ".hydra" / "config.yaml").read_bytes()


def test_bad_overrides_exit_2_and_list_the_options(tmp_path):
    done = cli("run", "engine=huge", f"paths.results_dir={tmp_path}")
    assert done.returncode == 2
    assert "64k-8k" in done.stderr and "1m-64k" in done.stderr
    done = cli(
        "run", "corpus=synthetic-small", "engine.timeoutMs=0", f"paths.results_dir={tmp_path}"
    )
    assert done.returncode == 2
    assert "Invalid compaction config: timeoutMs must be > 0" in done.stderr
    (run_dir,) = tmp_path.iterdir()
    assert json.loads((run_dir / "run.json").read_text())["status"] == "failed"


def test_a_failing_job_fails_the_sweep_but_not_its_siblings(tmp_path):
    done = cli(
        "run",
        "-m",
        "corpus=synthetic-small",
        "scorer=none",
        "engine.timeoutMs=0,5000",
        f"hydra.sweep.dir={tmp_path}",
    )
    assert done.returncode == 1
    status = sorted(r["status"] for r in records(tmp_path))
    assert status == ["complete", "failed"]
    assert "[failed]" in done.stdout and "timeoutMs must be > 0" in done.stdout
