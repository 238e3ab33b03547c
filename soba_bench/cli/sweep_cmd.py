"""Run a named sweep (configs/sweep/NAME.yaml) as a Hydra multirun: one job per grid point.

    soba-bench sweep NAME [OVERRIDES]     same as: soba-bench run -m sweep=NAME [OVERRIDES]

Named grids: keep_recent, roi, timeout, window, full. Jobs run in parallel with the joblib
launcher (hydra/launcher=joblib, one job per core); hydra/launcher=ray or submitit_local /
submitit_slurm run them elsewhere. Results: results/NAME/<timestamp>/<job id>/ plus
jobs.parquet and sweep.json; re-running the sweep skips jobs whose record is complete.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from soba_bench.cli import run_cmd


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="a config in configs/sweep/")
    parser.add_argument("overrides", nargs="*", metavar="OVERRIDE", help="Hydra overrides")


def main(argv: Sequence[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(
            "usage: soba-bench sweep NAME [OVERRIDES]  (NAME: a file in configs/sweep/)",
            file=sys.stderr,
        )
        return 2
    name, *rest = argv
    return run_cmd.main([f"sweep={name}", *rest], multirun=True, prog="soba-bench sweep")


def run(args: argparse.Namespace) -> int:
    return main([args.name, *(args.overrides or [])])
