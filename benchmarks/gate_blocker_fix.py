"""The blocker-saturation fix through the gate: ``variant=soba-0.6.14`` (BASE, as shipped) vs
``soba-0.6.14+newest-blockers`` (CAND) on generated sessions (default generator settings,
which plant tool failures), SOBA's default engine config, scored with the gate's default
metrics. Prints the verdict, the exit code and the compare report. Expected: improvement.

    python benchmarks/gate_blocker_fix.py [--sessions 12] [--entries 4000] [--seed 1]
        [--matcher verdict-nli] [--keep DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.gate_runs import run_one, same_name_corpus
from soba_bench.reports.compare import compare_runs
from soba_bench.scoring.matchers import DEFAULT_MATCHER

SHIPPED, FIXED = "soba-0.6.14", "soba-0.6.14+newest-blockers"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=12)
    parser.add_argument("--entries", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="keep the corpus and runs here")
    parser.add_argument("--matcher", default=DEFAULT_MATCHER, help="scorer.matcher of both")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="gate-fix-"))
    try:
        started = time.perf_counter()
        corpus = same_name_corpus(work / "corpus", args.seed, args.sessions, args.entries)
        runs = {}
        for variant in (SHIPPED, FIXED):
            tick = time.perf_counter()
            runs[variant] = run_one(
                corpus,
                work / variant.replace("+", "_"),
                [f"variant={variant}", f"scorer.matcher={args.matcher}"],
                work / "cache",
            )
            print(f"{variant}: {time.perf_counter() - tick:.0f} s", flush=True)
        comparison = compare_runs(runs[SHIPPED], runs[FIXED])
        print(
            f"{args.sessions} sessions of ~{args.entries} entries, generator seed {args.seed}, "
            f"matcher {args.matcher}: "
            f"verdict {comparison.verdict}, exit code {comparison.exit_code} "
            f"({time.perf_counter() - started:.0f} s in all)"
        )
        print(comparison.to_markdown())
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
