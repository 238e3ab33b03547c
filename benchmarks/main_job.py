"""The README's main job and default tuning run, timed: `soba-bench main-job` (the strategy
comparison on every bundled corpus, the recorded local-model sweep, the report) and
`soba-bench tune` (128k window, 24 TPE trials on the bundled corpora). Prints each command's
wall time, the peak resident memory of its process tree, and what it produced. Target on the
2-core machine: each well under a few minutes.

    python benchmarks/main_job.py [--repeat N] [--skip-tune] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(args: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MiB of the command and its children, and its stdout."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "soba_bench", *args], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"soba-bench {args[0]} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far (KiB on Linux).
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return wall, peak, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command (median)")
    parser.add_argument("--skip-tune", action="store_true", help="time the main job only")
    parser.add_argument("--keep", metavar="DIR", help="keep the outputs here")
    args = parser.parse_args()
    root = Path(args.keep or tempfile.mkdtemp(prefix="soba-main-bench-"))
    try:
        walls = []
        for i in range(args.repeat):
            out = root / f"main-{i}"
            wall, peak, _ = timed(["main-job", "--results", str(out)])
            walls.append(wall)
        jobs = sum(1 for _ in out.glob("*/*/run.json"))
        figures = sum(1 for _ in (out / "report" / "figures").glob("*.png"))
        print(
            f"main-job: {statistics.median(walls):.1f} s wall (median of {args.repeat}), "
            f"peak RSS {peak:.0f} MiB; {jobs} jobs, report with {figures} figures"
        )
        if not args.skip_tune:
            walls = []
            for i in range(args.repeat):
                out = root / f"tune-{i}"
                wall, peak, _ = timed(["tune", "--out", str(out)])
                walls.append(wall)
            rec = json.loads((out / "recommendation.json").read_text())
            trials = sum(1 for _ in (out / "jobs" / "search").iterdir())
            print(
                f"tune (128k, 24 TPE trials): {statistics.median(walls):.1f} s wall (median of "
                f"{args.repeat}), peak RSS {peak:.0f} MiB; {trials} search jobs; "
                f"recommendation keys: {', '.join(sorted(rec))}"
            )
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
