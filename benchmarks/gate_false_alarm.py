"""The gate's false-alarm rate: A/A comparisons of one config on two generator seeds.

For each of N pairs of generator seeds (2i, 2i+1), two corpora of the same shape are
generated (sessions renamed so they pair by position, see ``gate_runs``), one job of the same
config runs over each, and ``compare`` judges BASE = seed 2i vs CAND = seed 2i+1 with its
default metrics. Nothing differs but the sessions, so every regression flagged is a false
alarm; the gate promises at most 5 %. Prints each pair's verdict and the rate with a 95 %
Wilson interval. Also prints how many pairs could be tested at all (exit 3 otherwise).

    python benchmarks/gate_false_alarm.py [--pairs 20] [--first-pair 0] [--sessions 10]
        [--entries 600] [--variant soba-0.6.14] [--matcher verdict-nli]

``--first-pair K`` starts at seeds (2K, 2K+1), so more pairs can be added to an earlier run's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.gate_runs import run_one, same_name_corpus
from soba_bench.reports.compare import compare_runs
from soba_bench.scoring.matchers import DEFAULT_MATCHER
from soba_bench.scoring.stats import wilson_interval

# A small window so ~600-entry sessions compact several times (the 32k preset of the tests).
ENGINE = [
    "engine.contextWindow=32000",
    "engine.maxOutputTokens=4000",
    "engine.keepRecentTokens=4000",
    "engine.minTokensForAutoCompact=8000",
    "engine.minReclaimableTokens=2000",
]


def complete(folder: Path) -> bool:
    """A finished job folder (its record says complete)."""
    try:
        return json.loads((folder / "run.json").read_text("utf-8")).get("status") == "complete"
    except (OSError, ValueError):
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--first-pair", type=int, default=0, help="first pair: seeds 2K, 2K+1")
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--entries", type=int, default=600)
    parser.add_argument("--variant", default="soba-0.6.14")
    parser.add_argument("--matcher", default=DEFAULT_MATCHER, help="scorer.matcher")
    parser.add_argument(
        "--keep", type=Path, help="keep corpora and runs here (a second run reuses finished jobs)"
    )
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="gate-aa-"))
    overrides = [f"variant={args.variant}", f"scorer.matcher={args.matcher}", *ENGINE]
    verdicts: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    started = time.perf_counter()
    try:
        for pair in range(args.first_pair, args.first_pair + args.pairs):
            runs = []
            for seed in (2 * pair, 2 * pair + 1):
                folder = work / f"r{seed}"
                if complete(folder):  # --keep DIR of an interrupted run: its finished jobs
                    runs.append(folder)
                    continue
                shutil.rmtree(folder, ignore_errors=True)
                shutil.rmtree(work / f"c{seed}", ignore_errors=True)
                corpus = same_name_corpus(work / f"c{seed}", seed, args.sessions, args.entries)
                runs.append(run_one(corpus, folder, overrides, work / "cache"))
            comparison = compare_runs(*runs)
            verdicts[comparison.verdict] += 1
            flagged.update(comparison.flagged_metrics)
            print(
                f"pair {pair:2d} (seeds {2 * pair}, {2 * pair + 1}): {comparison.verdict}, "
                f"exit {comparison.exit_code}"
                + (
                    f", flagged {', '.join(comparison.flagged_metrics)}"
                    if comparison.flagged_metrics
                    else ""
                ),
                flush=True,
            )
        n = args.pairs
        alarms = verdicts["regression"]
        low, high = wilson_interval(alarms, n)
        print(
            f"\nA/A false alarms: {alarms} of {n} pairs = {alarms / n:.1%} "
            f"(95% Wilson interval {low:.1%}..{high:.1%}; the gate promises <= 5%)"
        )
        print(f"verdicts: {dict(verdicts)}; metrics flagged: {dict(flagged) or 'none'}")
        print(
            f"config: {args.variant}, matcher {args.matcher}, {args.sessions} sessions of "
            f"~{args.entries} entries per corpus, 32k window; "
            f"{time.perf_counter() - started:.0f} s"
        )
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
