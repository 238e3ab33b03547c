"""Several processes writing the shared stores at once: the response cache and the token-count
store (SQLite, WAL) and the results store (atomic JSON files, the sweep's job index, whole job
folders). Every entry must be there exactly once, every file intact, no temporary file left.
(tests/unit/summarizers/test_cache.py and tests/unit/meter/test_count_store.py cover two to
four writers of one store; here six processes hit all three stores together.)"""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from pathlib import Path

from soba_bench.meter.count_store import CountStore
from soba_bench.models.cache import CachedReply, ResponseCache, request_key
from soba_bench.runs.layout import write_json
from soba_bench.sweep.store import JobIndex
from tests.reliability.figures import tally

WORKERS = 6
KEYS = 80  # per worker; half of them shared by every worker


def _writer(root: str, worker: int, start) -> None:
    root_path = Path(root)
    cache = ResponseCache(root_path / "responses.sqlite")
    counts = CountStore(root_path / "counts.sqlite", "m")
    index = JobIndex(root_path / "results")
    start.wait(30)
    for i in range(KEYS):
        shared = i % 2 == 0
        request = {"n": i} if shared else {"n": i, "worker": worker}
        cache.put(request_key("m", request), "m", request, CachedReply(f"w{worker}-{i}", 1.0))
        counts.add(f"k{i}".encode() if shared else f"k{i}-{worker}".encode(), i)
        if i % 10 == 9:
            counts.flush()
        folder = root_path / "results" / f"job-{i % 5}"
        write_json(
            folder / "run.json",
            {
                "schemaVersion": 2,
                "status": "complete",
                "jobKey": f"key-{i % 5}",
                "by": worker,
                "pad": "x" * 4000,
            },
        )
        index.add(f"key-{i % 5}", folder)
        write_json(
            root_path / "results" / "shared.json", {"by": worker, "i": i, "pad": "y" * 20000}
        )
    counts.flush()
    cache.close()


def test_six_processes_write_cache_counts_and_results_at_once(tmp_path):
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), w, start)) for w in range(WORKERS)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(180)
    assert [p.exitcode for p in procs] == [0] * WORKERS

    shared, own = KEYS // 2, KEYS // 2
    for name in ("responses.sqlite", "counts.sqlite"):
        conn = sqlite3.connect(tmp_path / name)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()
    cache = ResponseCache(tmp_path / "responses.sqlite", "read-only")
    assert len(cache) == shared + WORKERS * own  # each request stored exactly once
    for i in range(0, KEYS, 2):  # first answer wins, and it is one writer's whole answer
        assert cache.get(request_key("m", {"n": i})).text.endswith(f"-{i}")
    stored = CountStore(tmp_path / "counts.sqlite", "m").load()
    assert len(stored) == shared + WORKERS * own
    assert all(stored[f"k{i}".encode()] == i for i in range(0, KEYS, 2))

    results = tmp_path / "results"
    assert not [
        p for p in results.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".tmp")
    ]
    last = json.loads((results / "shared.json").read_text())
    assert last["i"] == KEYS - 1 and len(last["pad"]) == 20000  # one writer's whole file
    for k in range(5):
        assert JobIndex(results).lookup(f"key-{k}") == results / f"job-{k}"
        record = json.loads((results / f"job-{k}" / "run.json").read_text())
        assert record["jobKey"] == f"key-{k}" and len(record["pad"]) == 4000
    assert sorted(p.name for p in (results / ".index").iterdir()) == [
        f"key-{k}.json" for k in range(5)
    ]
    tally("concurrency", "processes", WORKERS)
    tally("concurrency", "cache and count writes", 2 * WORKERS * KEYS)
    tally("concurrency", "results-store writes", 3 * WORKERS * KEYS)
