"""One job, in process: what its folder holds, resume (skip a complete record, redo an
unfinished folder, reuse across sibling sweeps), and a failed job's record."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pandas as pd

from soba_bench.runs.layout import RunLayout
from soba_bench.sweep.app import compose_config
from soba_bench.sweep.job import JobContext, run_job
from soba_bench.sweep.store import JobIndex

FAST = ["corpus=synthetic-small", "scorer=failure_modes", "engine.keepRecentTokens=8000"]


def config(tmp_path, *extra):
    return compose_config([*FAST, f"paths.cache_dir={tmp_path / 'cache'}", *extra])


def ctx(folder, **kw):
    return JobContext(out_dir=folder, job_id=folder.name, tables=False, **kw)


def test_a_job_writes_a_self_describing_folder(tmp_path):
    folder = tmp_path / "job"
    outcome = run_job(config(tmp_path), ctx(folder))
    assert outcome.status == "complete"
    record = json.loads((folder / "run.json").read_text())
    assert record["status"] == "complete" and record["error"] is None
    assert record["config"]["compaction"]["keepRecentTokens"] == 8000
    assert record["summarizer"]["name"] == "deterministic" and "promptId" in record["summarizer"]
    assert record["corpora"][0]["name"] == "synthetic-small"
    assert len(record["corpora"][0]["manifestSha256"]) == 64
    assert record["resolvedConfig"]["engine"]["keepRecentTokens"] == 8000
    assert record["seed"] == 0 and len(record["jobKey"]) == 64
    assert set(record["timings"]) >= {"wallSeconds", "replaySeconds", "scoreSeconds"}
    attempts = pd.read_parquet(folder / "tables" / "attempts.parquet")
    barriers = pd.read_parquet(folder / "tables" / "barriers.parquet")
    assert len(attempts) == record["totals"]["attempts"]
    assert len(barriers) >= record["totals"]["barriers"]
    assert set(attempts["keepRecentTokens"]) == {8000}
    assert set(attempts["jobKey"]) == {record["jobKey"]}
    capsules = folder / "capsules" / "synthetic-small" / "synthetic-s7-000.jsonl.gz"
    lines = [json.loads(x) for x in gzip.decompress(capsules.read_bytes()).splitlines()]
    assert lines and all(c["type"] == "context_capsule" for c in lines)
    events = [
        json.loads(x)
        for x in gzip.decompress((folder / "events.jsonl.gz").read_bytes()).splitlines()
    ]
    assert {e["session"] for e in events} == {
        f"synthetic-small/synthetic-s7-00{i}" for i in range(3)
    }
    assert (folder / "scores" / "findings.jsonl").is_file()


def test_a_complete_job_is_not_run_again(tmp_path):
    folder = tmp_path / "job"
    first = run_job(config(tmp_path), ctx(folder))
    stamp = (folder / "run.json").stat().st_mtime_ns
    again = run_job(config(tmp_path), ctx(folder))
    assert again.status == "reused" and again.record["jobKey"] == first.record["jobKey"]
    assert (folder / "run.json").stat().st_mtime_ns == stamp


def test_a_changed_config_in_the_same_folder_runs_again(tmp_path):
    folder = tmp_path / "job"
    run_job(config(tmp_path), ctx(folder))
    other = run_job(config(tmp_path, "engine.keepRecentTokens=12000"), ctx(folder))
    assert other.status == "complete"
    record = json.loads((folder / "run.json").read_text())
    assert record["config"]["compaction"]["keepRecentTokens"] == 12000


def test_an_unfinished_folder_is_redone_from_scratch(tmp_path):
    folder = tmp_path / "job"
    reference = run_job(config(tmp_path), ctx(tmp_path / "ref")).record
    # What a job killed half-way leaves: some outputs, a stray file, no run.json.
    (folder / "replays" / "synthetic-small").mkdir(parents=True)
    (folder / "replays" / "synthetic-small" / "stale.jsonl.gz").write_bytes(b"partial")
    (folder / "sessions.jsonl").write_text('{"session": "half"}\n')
    outcome = run_job(config(tmp_path), ctx(folder))
    assert outcome.status == "complete"
    assert not (folder / "replays" / "synthetic-small" / "stale.jsonl.gz").exists()
    rows = RunLayout(folder).read_sessions()
    assert [r.session for r in rows] == [f"synthetic-small/synthetic-s7-00{i}" for i in range(3)]
    assert outcome.record["totals"] == reference["totals"]


def test_a_sibling_sweep_reuses_an_indexed_record(tmp_path):
    root = tmp_path / "results" / "keep_recent"
    first_dir = root / "20260101-000000" / "0"
    run_job(config(tmp_path), ctx(first_dir, multirun=True, index_root=root))
    key = json.loads((first_dir / "run.json").read_text())["jobKey"]
    assert JobIndex(root).lookup(key) == first_dir
    second_dir = root / "20260102-000000" / "0"
    outcome = run_job(config(tmp_path), ctx(second_dir, multirun=True, index_root=root))
    assert outcome.status == "reused"
    assert not (second_dir / "run.json").exists()  # no second copy of the rows
    pointer = json.loads((second_dir / "reused.json").read_text())
    assert pointer["jobKey"] == key and pointer["record"].endswith("run.json")


def test_a_failed_job_records_the_error_and_is_retried(tmp_path):
    folder = tmp_path / "job"
    outcome = run_job(config(tmp_path, "engine.timeoutMs=0"), ctx(folder))
    assert outcome.status == "failed" and outcome.exit_code == 2
    record = json.loads((folder / "run.json").read_text())
    assert record["status"] == "failed"
    assert "timeoutMs must be > 0" in record["error"]
    assert run_job(config(tmp_path), ctx(folder)).status == "complete"


def test_tiktoken_counts_are_shared_through_the_store(tmp_path):
    import soba_bench.meter as meters

    meters._INSTANCES.pop("tiktoken:cl100k_base", None)  # a fresh process's meter
    first = run_job(config(tmp_path, "meter=tiktoken:cl100k_base"), ctx(tmp_path / "a"))
    stats = first.record["caches"]["tokenCounts"]["tiktoken:cl100k_base"]
    assert stats["misses"] > 0 and stats["store"].endswith("token-counts.sqlite")
    meters._INSTANCES.pop("tiktoken:cl100k_base", None)  # another process, same store
    # Another job over the same items (a different scorer: same replay, new job key).
    second = run_job(
        config(tmp_path, "meter=tiktoken:cl100k_base", "scorer=none"), ctx(tmp_path / "b")
    )
    stats = second.record["caches"]["tokenCounts"]["tiktoken:cl100k_base"]
    assert stats["misses"] == 0 and stats["hitRate"] == 1.0


def dead_pid() -> int:
    """The pid of a process that has exited (and was reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_killed_writers_temp_files_are_removed_on_resume_and_live_ones_kept(tmp_path):
    root = tmp_path / "sweep"
    folder = root / "0"
    run_job(config(tmp_path), ctx(folder, multirun=True, index_root=root))
    key = json.loads((folder / "run.json").read_text())["jobKey"]
    dead, live = dead_pid(), os.getpid()
    # A kill between writing and renaming leaves ".<name>.<pid>-<random>.tmp" files: in the
    # index (after run.json, so the job itself is complete) and in an unfinished job folder.
    index_leftover = root / ".index" / f".{key}.json.{dead}-abc123.tmp"
    index_leftover.write_text("{")
    in_flight = root / ".index" / f".{key}.json.{live}-def456.tmp"  # another live writer
    in_flight.write_text("{")
    unfinished = root / "1"
    unfinished.mkdir()
    job_leftover = unfinished / f".run.json.{dead}-xyz789.tmp"
    job_leftover.write_text("{")

    again = run_job(config(tmp_path), ctx(folder, multirun=True, index_root=root))
    assert again.status == "reused"
    assert not index_leftover.exists() and in_flight.exists()
    redo = run_job(config(tmp_path), ctx(unfinished, multirun=True, index_root=root))
    assert redo.status == "reused"  # from the index; the folder's leftover is gone all the same
    assert not job_leftover.exists()
