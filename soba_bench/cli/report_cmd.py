"""Write a report (report.md, self-contained report.html, figures) from run records.

  soba-bench report RESULTS_DIR [--out DIR]

RESULTS_DIR is a run folder (run.json), a sweep folder (job folders, reused.json pointers
followed) or a results root with many; only the run records are read. The report goes to
RESULTS_DIR/report/ unless --out says otherwise.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results_dir", type=Path, help="a run, sweep or results folder")
    parser.add_argument(
        "--out", type=Path, help="write the report here (default RESULTS_DIR/report)"
    )


def run(args: argparse.Namespace) -> int:
    # pandas and matplotlib load only when a report is asked for.
    from soba_bench.reports.report import write_report

    out = write_report(args.results_dir, args.out)
    print(f"report: {out / 'report.html'}")
    print(f"        {out / 'report.md'} (figures in {out / 'figures'})")
    return 0
