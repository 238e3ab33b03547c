"""The main job: the strategy comparison on every bundled corpus, SOBA's prompt on the embedded
local model, and the report over both, in one results folder.

    soba-bench main-job [--results DIR]

1. `soba-bench sweep strategies corpus=all`: SOBA's engine with deterministic capsules against
   observation masking, truncation, no compaction and the hybrid, SOBA's default config.
2. `soba-bench run -m experiment=local_model`: SOBA's production chain on the 0.5B local model
   (answers recorded from the real model, replayed offline; see configs/experiment/).
3. `soba-bench report` over both. Prints where the report is. Offline, no API key.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from soba_bench.cli import run_cmd

STEPS = (
    ("strategies", ["sweep=strategies", "corpus=all"]),
    ("local_model", ["experiment=local_model"]),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--results",
        metavar="DIR",
        help="results folder (default: results/main-<timestamp>/)",
    )


def run(args: argparse.Namespace) -> int:
    from soba_bench.reports.frames import load_runs
    from soba_bench.reports.report import write_runset_report
    from soba_bench.reports.verdict import leaderboards

    root = Path(args.results or f"results/main-{time.strftime('%Y%m%d-%H%M%S')}")
    started = time.monotonic()
    worst = 0
    for name, overrides in STEPS:
        print(f"soba-bench main-job: {name} -> {root / name}", flush=True)
        code = run_cmd.main(
            [*overrides, f"hydra.sweep.dir={root / name}"],
            multirun=True,
            prog="soba-bench main-job",
        )
        if code == 2:
            return code  # bad input: nothing sensible to report
        worst = max(worst, code)
    runset = load_runs(root)
    report = write_runset_report(runset, root / "report")
    elapsed = time.monotonic() - started
    for group in leaderboards(runset):
        print(f"soba-bench main-job: verdict for {group.title}: {group.sentence}", flush=True)
    print(f"soba-bench main-job: finished in {elapsed:.0f} s; report: {report}", flush=True)
    if worst:
        print("soba-bench main-job: some jobs failed (see the report)", file=sys.stderr)
    return worst
