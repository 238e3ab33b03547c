"""Sweep throughput: 25 engine configs x 10 generated sessions of about 2,000 entries, the
deterministic summarizer, the joblib launcher (one job per core), as ``soba-bench run -m``
runs it. Prints the wall time of the whole sweep, the per-job times, the jobs' replay,
scoring and writing seconds summed, the outcome totals and the token-count cache hit rate
(tiktoken counts shared through the SQLite store, so every item is tokenized about once per
sweep, not once per config). Target on the 2-core machine: under 60 s.

The grid: contextWindow 64k..200k x keepRecentTokens 4k..20k on the 64k/8k preset's
thresholds (maxOutputTokens 8192, minTokensForAutoCompact 16000, minReclaimableTokens 4000),
so every config compacts. Sessions are generated with exit_code_share=0.0 (SOBA's own agent
writes no exit codes). Scoring defaults to the failure-mode detectors (full retention scoring
costs about 1 s per 2k-entry session; --scorer default measures it). SOBA's shipped variant
hits its blocker-saturation deadlock on these sessions (hundreds of failed attempts and refused
requests per session, each a full compaction attempt), which is what most of its replay time
is spent on; --variant soba-0.6.14+newest-blockers shows the sweep without it.

    python benchmarks/sweep_bench.py [--variant NAME] [--scorer NAME] [--meter NAME]
        [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from soba_bench.corpora.synthetic import SyntheticConfig, generate_corpus

WINDOWS = "64000,96000,128000,160000,200000"
KEEP_RECENT = "4000,8000,12000,16000,20000"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="soba-0.6.14")
    parser.add_argument("--scorer", default="failure_modes")
    parser.add_argument("--meter", default="tiktoken:cl100k_base")
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--keep", type=Path, help="keep the sweep folder here")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="sweep-bench-"))
    try:
        corpus = work / "corpus"
        started = time.perf_counter()
        config = SyntheticConfig(entries=args.entries, exit_code_share=0.0)
        generate_corpus(corpus, config, seed=11, sessions=args.sessions, name="bench-2k")
        generated = time.perf_counter() - started
        sweep_dir = args.keep or work / "sweep"
        counts = work / "token-counts.sqlite"
        cmd = [
            sys.executable,
            "-m",
            "soba_bench",
            "run",
            "-m",
            "engine=64k-8k",
            f"engine.contextWindow={WINDOWS}",
            f"engine.keepRecentTokens={KEEP_RECENT}",
            "corpus=path",
            f"corpus.paths=[{corpus}]",
            f"variant={args.variant}",
            f"scorer={args.scorer}",
            f"meter={args.meter}",
            f"cache.token_counts={counts}",
            # A new embedding store per measurement: the repository's default store would
            # keep the vectors, and every run after the first would measure a warm cache.
            f"cache.embeddings={work / 'embeddings.sqlite'}",
            f"hydra.sweep.dir={sweep_dir}",
            "hydra/launcher=joblib",
        ]
        env = {**os.environ, "CI": "1"}  # no progress bars in the figures' output
        env.pop("SOBA_BENCH_EMBED_CACHE", None)  # it would override cache.embeddings
        started = time.perf_counter()
        cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(cmd, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - started
        cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # CPU seconds of the sweep and its (reaped) workers: on a machine shared with other
        # jobs the wall time measures them too; CPU / cores is the wall time the sweep needs
        # when it has the cores to itself (a lower bound)
        cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (
            cpu_after.ru_stime - cpu_before.ru_stime
        )
        if done.returncode != 0:
            sys.exit(f"sweep failed ({done.returncode}):\n{done.stderr[-4000:]}")
        records = [json.loads(p.read_text()) for p in sorted(Path(sweep_dir).glob("*/run.json"))]
        hits = misses = 0
        for record in records:
            for stats in record["caches"]["tokenCounts"].values():
                hits += stats["hits"]
                misses += stats["misses"]
        job_times = sorted(r["timings"]["wallSeconds"] for r in records)
        stages = {
            k: sum(r["timings"].get(k, 0.0) for r in records)
            for k in ("replaySeconds", "scoreSeconds", "writeSeconds")
        }
        totals = {
            k: sum(r["totals"][k] for r in records)
            for k in ("entries", "attempts", "completed", "failed", "blocked")
        }
        print(
            f"sweep: {len(records)} jobs x {args.sessions} sessions of ~{args.entries} entries "
            f"({args.variant}, scorer {args.scorer}, meter {args.meter}, joblib, "
            f"{os.cpu_count()} cores)"
        )
        print(f"corpus generated in {generated:.1f} s")
        print(f"wall time: {wall:.1f} s (target < 60 s)")
        cores = os.cpu_count() or 1
        print(f"CPU time: {cpu:.1f} s over all processes, / {cores} cores = {cpu / cores:.1f} s")
        print(
            f"per job: median {job_times[len(job_times) // 2]:.2f} s, "
            f"max {job_times[-1]:.2f} s; replays/s {len(records) * args.sessions / wall:.1f}"
        )
        # Each job times its own stages (wall seconds inside the worker; two workers share
        # the two cores): what scoring costs beside the replays it scores.
        replay_s, score_s = stages["replaySeconds"], stages["scoreSeconds"]
        print(
            f"stages over the jobs: replay {replay_s:.1f} s, scoring {score_s:.1f} s "
            f"({score_s / replay_s:.2f}x the replay), writing {stages['writeSeconds']:.1f} s"
        )
        print(
            f"totals: {totals['entries']} entries, {totals['attempts']} attempts "
            f"({totals['completed']} completed, {totals['failed']} failed), "
            f"{totals['blocked']} refused requests"
        )
        if hits + misses:
            print(
                f"token-count cache: {hits} hits, {misses} misses, "
                f"hit rate {hits / (hits + misses):.1%}"
            )
        else:
            print("token-count cache: not used (the soba estimator needs none)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
