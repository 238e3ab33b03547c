"""Healthy-session replay time, this checkout against another one (e.g. main in a temporary
worktree), side by side in one run.

Healthy sessions are the endurance-shaped generated sessions (compaction succeeds, no
blocker deadlock). For each size, the two checkouts replay the same session file in
alternating subprocesses (read + replay, SOBA's defaults), median of ``--repeat``; the
ratio this/other is what to read on a loaded machine.

    python benchmarks/healthy_compare.py --other /path/to/other/checkout
        [--sizes 5000,20000,50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys, time
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.simulator import replay_session
from soba_bench.session.jsonl import read_session
started = time.perf_counter()
trace = replay_session(read_session(sys.argv[1]), build_engine_config({}))
summary = trace.summary()
print(json.dumps({"seconds": time.perf_counter() - started, "attempts": summary["attempts"],
                  "byOutcome": summary["byOutcome"]}))
"""


def run(root: Path, path: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the checkout to compare to")
    parser.add_argument("--sizes", default="5000,20000,50000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from soba_bench.corpora.endurance import endurance_session
    from soba_bench.session.jsonl import write_session

    work = Path(tempfile.mkdtemp(prefix="healthy-compare-"))
    print(f"healthy (endurance) sessions, read + replay, median of {args.repeat}, alternating")
    print(
        f"{'entries':>8} {'this s':>8} {'other s':>8} {'this/other':>10} {'attempts':>8} outcomes"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        path = work / f"healthy-{size}.jsonl"
        write_session(endurance_session(1, size), path)
        mine, other = [], []
        for _ in range(args.repeat):
            a = run(HERE, path)
            b = run(args.other.resolve(), path)
            if (a["attempts"], a["byOutcome"]) != (b["attempts"], b["byOutcome"]):
                sys.exit(f"the checkouts disagree at {size} entries: {a} vs {b}")
            mine.append(a["seconds"])
            other.append(b["seconds"])
        m, o = statistics.median(mine), statistics.median(other)
        print(
            f"{size:>8} {m:>8.2f} {o:>8.2f} {m / o:>9.2f}x {a['attempts']:>8} "
            f"{json.dumps(a['byOutcome'])}",
            flush=True,
        )


if __name__ == "__main__":
    main()
