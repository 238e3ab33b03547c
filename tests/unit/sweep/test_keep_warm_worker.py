"""A joblib worker keeps its caches across a sweep's jobs (soba_bench.sweep.app.
keep_warm_worker): loky would replace a worker that grew 300 MB after its first job, and the
new one starts cold. Checked in a real loky worker: the bound that worker's loop reads."""

from __future__ import annotations

import os
import sys

from joblib import Parallel, delayed


def _bound_after_a_job() -> tuple[int, int, int]:
    from soba_bench.sweep.app import keep_warm_worker

    executor = sys.modules["joblib.externals.loky.process_executor"]
    before = int(executor._MAX_MEMORY_LEAK_SIZE)
    keep_warm_worker()
    return os.getpid(), before, int(executor._MAX_MEMORY_LEAK_SIZE)


def test_a_loky_worker_may_grow_past_the_default_bound():
    runs = Parallel(n_jobs=2, backend="loky")(delayed(_bound_after_a_job)() for _ in range(2))
    for pid, before, after in runs:
        assert pid != os.getpid()  # in a worker, not here
        # loky's own bound is 300 MB (a reused worker may have been raised already)
        assert before in (300_000_000, 2 * 1024**3)
        assert after == 2 * 1024**3


def test_outside_a_worker_nothing_changes(monkeypatch):
    from soba_bench.sweep import app

    monkeypatch.delitem(sys.modules, "joblib.externals.loky.process_executor", raising=False)
    app.keep_warm_worker()  # no loky here: nothing to raise, nothing imported
    assert "joblib.externals.loky.process_executor" not in sys.modules
