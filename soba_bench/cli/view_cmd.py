"""Write the drill-down viewer: static HTML, one page per compaction moment.

  soba-bench view RUN_DIR [RUN_DIR_B] [--out DIR]

Each page shows one capsule the engine wrote: its text beside the ground-truth facts live at
that moment, marked kept / missed / contradicted / stale by the retention scorer, the retained
tail, the trigger, the reason and the limits. With two run folders (say prompt A and prompt B)
each page puts the same moment of the same session side by side. Only the run folder's stored
replays, barrier logs and the corpus's ground truth are read; nothing is replayed. The pages go
to RUN_DIR/view/ (RUN_DIR/view-vs-<B>/ for two runs) unless --out says otherwise; open
index.html in any browser (no server needed).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", type=Path, help="a run folder (run.json) written by a run")
    parser.add_argument(
        "run_dir_b", type=Path, nargs="?", help="a second run folder to show side by side (B)"
    )
    parser.add_argument("--out", type=Path, help="write the pages here (default RUN_DIR/view)")


def run(args: argparse.Namespace) -> int:
    from soba_bench.reports.viewer import load_run_view
    from soba_bench.reports.viewer_html import write_viewer

    a = load_run_view(args.run_dir)
    b = load_run_view(args.run_dir_b) if args.run_dir_b is not None else None
    default = "view" if b is None else f"view-vs-{Path(args.run_dir_b).resolve().name}"
    out = args.out or args.run_dir / default
    index = write_viewer(a, out, b)
    moments = sum(len(s.moments) for s in a.sessions)
    print(f"viewer: {index} ({moments} compaction moments in {len(a.sessions)} sessions)")
    return 0
