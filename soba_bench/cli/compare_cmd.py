"""Compare a candidate result folder with a base one: the CI gate for prompt and engine changes.

Pairs the jobs of BASE_DIR and CAND_DIR (a run or a sweep folder each) by config and session
(every job of a session is scored at the same evaluation points: the walk's model requests),
reports CAND - BASE per metric with a seeded paired-bootstrap interval, a Holm-adjusted
sign-flip p-value and the minimum detectable effect. Gated by default: state availability
(overall and per fact kind), refused requests, blocked turns, overflows, degraded-fallback
rate. Fewer refused requests with availability not lower is an improvement.

Exit codes: 0 no regression (or an improvement); 1 a metric got worse by more than --max-drop
with its Holm-adjusted p-value <= 1 - confidence; 2 bad input (no run, nothing pairs, unknown
metric); 3 cannot test (no ground truth on the paired sessions, or too few pairs for the test
to reach its level): never reported as "no regression".

Pairing: a setting with one value in BASE and another in CAND (prompt id, variant, strategy,
summarizer, an engine key) is the thing under test; the jobs pair on all other settings.

  soba-bench compare results/base results/cand
  soba-bench compare BASE CAND --metric recall.blocker --metric staleness.blocker
  soba-bench compare BASE CAND --max-drop 0.05 --max-drop blocked_requests=1 --format json
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from soba_bench.errors import InputError
from soba_bench.jsonio import atomic_write_bytes
from soba_bench.reports.compare_metrics import COMPARE_METRICS, DEFAULT_MAX_DROP, DEFAULT_METRICS
from soba_bench.secrets_scan import scrub_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("base", type=Path, metavar="BASE_DIR", help="the reference run or sweep")
    parser.add_argument("cand", type=Path, metavar="CAND_DIR", help="the candidate run or sweep")
    parser.add_argument(
        "--metric",
        action="append",
        dest="metrics",
        metavar="NAME",
        help=(
            f"metric to gate on (repeatable; default {len(DEFAULT_METRICS)} metrics: "
            "availability overall and per fact kind, refused_requests, blocked_turns, "
            "overflows, degraded_rate; capsule-moment diagnostics such as recall.<kind> on "
            "request). "
            f"Valid: {', '.join(COMPARE_METRICS)}"
        ),
    )
    parser.add_argument(
        "--max-drop",
        action="append",
        dest="max_drops",
        metavar="X|NAME=X",
        help=(
            f"largest tolerated worsening, in the metric's unit (default {DEFAULT_MAX_DROP}); "
            "NAME=X sets one metric's (repeatable)"
        ),
    )
    parser.add_argument("--format", choices=("md", "json"), default="md", help="output format")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    parser.add_argument(
        "--confidence", type=float, default=0.95, help="interval confidence (default 0.95)"
    )


def parse_max_drops(values: list[str] | None) -> float | dict[str, float]:
    """``["0.05", "recall.blocker=0.1"]`` -> ``{"*": 0.05, "recall.blocker": 0.1}``."""
    if not values:
        return DEFAULT_MAX_DROP
    drops: dict[str, float] = {}
    for text in values:
        name, _, number = text.rpartition("=")
        try:
            value = float(number)
        except ValueError:
            raise InputError(
                "not a number",
                field="--max-drop",
                value=text,
                has_value=True,
                expected="X or NAME=X with X a number >= 0",
            ) from None
        if not math.isfinite(value) or value < 0:
            raise InputError(
                "not a finite number >= 0",
                field="--max-drop",
                value=text,
                has_value=True,
                expected="X or NAME=X with X a number >= 0",
            )
        drops[name or "*"] = value
    return drops


def check_arguments(args: argparse.Namespace) -> None:
    """Reject what the bootstrap cannot use before anything is read: a confidence outside
    (0, 1) (2, nan, inf) and a negative seed (numpy's generators take none)."""
    if not (math.isfinite(args.confidence) and 0 < args.confidence < 1):
        raise InputError(
            "confidence out of range",
            field="--confidence",
            value=args.confidence if math.isfinite(args.confidence) else str(args.confidence),
            has_value=True,
            expected="a number between 0 and 1, e.g. 0.95",
        )
    if args.seed < 0:
        raise InputError(
            "negative seed",
            field="--seed",
            value=args.seed,
            has_value=True,
            expected="an integer >= 0",
        )


def run(args: argparse.Namespace) -> int:
    # Imported here (pandas, pyarrow): building the CLI's parser must stay light.
    from soba_bench.reports.compare import compare_runs

    check_arguments(args)
    comparison = compare_runs(
        args.base,
        args.cand,
        metrics=args.metrics,
        max_drop=parse_max_drops(args.max_drops),
        seed=args.seed,
        confidence=args.confidence,
    )
    text = comparison.to_json() if args.format == "json" else comparison.to_markdown()
    text = scrub_text(text)  # names from run records: credentials as typed markers
    if args.out is not None:
        atomic_write_bytes(args.out, text.encode("utf-8"))
    print(text, end="")
    return comparison.exit_code
