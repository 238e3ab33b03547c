"""Score a run folder again from what it stored (replayed sessions, barrier logs, the
corpus's ground truth): no replay, and no model call unless a model-backed probe answerer or
judge is chosen (``--param answerer=local``; its answers go through the response cache).
Writes the score tables under RUN_DIR/scores (or --out) and prints the corpus summary.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from soba_bench.compactors.views import VIEWS
from soba_bench.scoring.match import PROSE_MATCHERS, MatchConfig
from soba_bench.scoring.points import DEFAULT_MAX_POINTS
from soba_bench.scoring.probes import ProbeConfig, get_prober
from soba_bench.scoring.probes.tables import describe_probers, format_probes, parse_params
from soba_bench.scoring.runner import score_run
from soba_bench.scoring.scorer import DEFAULT_MAX_MOMENTS
from soba_bench.scoring.session import SCORERS, ScoreConfig
from soba_bench.sweep.console import format_scores


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", type=Path, help="a run folder written by 'soba-bench run'")
    parser.add_argument(
        "--scorer",
        action="append",
        dest="scorers",
        metavar="NAME",
        help=f"scorer to run (repeatable; default all: {', '.join(SCORERS)})",
    )
    parser.add_argument(
        "--baseline",
        action="append",
        dest="baselines",
        metavar="NAME",
        help=f"comparison strategy (repeatable; default all: {', '.join(VIEWS)})",
    )
    parser.add_argument(
        "--param",
        action="append",
        dest="params",
        default=[],
        metavar="KEY=VALUE",
        help="a probes-scorer parameter (repeatable): answerer=extractive|model|local, "
        "judge=lexical|model|local, max_probes, seed, budget, cache, cache_path, base_url, "
        "model, api_key_env, strategies",
    )
    parser.add_argument(
        "--prose-matcher",
        default=MatchConfig().prose_matcher,
        metavar="|".join(PROSE_MATCHERS),
        help="how facts are matched: verdict-embedding-nli (default: verdict-embedding, each "
        "prose fact it reads as stated checked by the cross-encoder of verdict-nli), "
        "verdict-embedding (entailed / contradicted / absent by state-aware rules, plus a local "
        "sentence-embedding model for rewordings), "
        "verdict-nli (the rules for state facts, a cross-encoder trained for this project for "
        "prose), verdict (the rules alone), fuzzy (word containment, then rapidfuzz) or "
        "embedding (word containment, then sentence embeddings)",
    )
    parser.add_argument(
        "--max-points",
        type=_count_or_all,
        default=DEFAULT_MAX_POINTS,
        metavar="N|all",
        help=f"requests per session availability is scored on, a seeded sample above it "
        f"(default {DEFAULT_MAX_POINTS})",
    )
    parser.add_argument(
        "--max-moments",
        type=_count_or_all,
        default=DEFAULT_MAX_MOMENTS,
        metavar="N|all",
        help=f"capsule moments per session the diagnostics read, the final state and a seeded "
        f"sample above it; a sampled session has no drift (default {DEFAULT_MAX_MOMENTS})",
    )
    parser.add_argument("--out", type=Path, help="write the tables here (default RUN_DIR/scores)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def _count_or_all(text: str) -> int | None:
    if text == "all":
        return None
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count >= 1 or 'all'")
    return int(text)


def run(args: argparse.Namespace) -> int:
    config = ScoreConfig(
        scorers=tuple(args.scorers) if args.scorers else ScoreConfig.scorers,
        baselines=tuple(args.baselines) if args.baselines else ScoreConfig.baselines,
        probes=ProbeConfig.from_params(parse_params(args.params)),
        match=MatchConfig(prose_matcher=args.prose_matcher),
        max_points=args.max_points,
        max_moments=args.max_moments,
    )
    summary = score_run(args.run_dir, config, args.out)
    if "probes" in config.scorers:
        # What answered and judged, and how many answers came from the cache.
        summary["probeSettings"] = get_prober(config.probes, config.match).describe()
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_scores(summary))
        if summary["probes"]:
            print(format_probes(summary["probes"]))
            print(describe_probers(summary["probeSettings"]))
        print(f"tables: {args.out or args.run_dir / 'scores'}")
    return 0
