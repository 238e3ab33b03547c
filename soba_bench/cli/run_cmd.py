"""The main job: replay every session of the corpora through the SOBA engine, score it, and
summarize.

Defaults to the bundled corpora (corpora/soba-conformance, and corpora/synthetic-small which
has ground truth) under SOBA's default config (a 128k window), offline and without an API key.
KEY=VALUE overrides any engine key by its SOBA name. Writes a run folder under results/: the
run record, one row per session, every replayed session and barrier log, and score tables
(retention and SOBA's quality score where a corpus has ground truth; failure-mode detectors
always).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from soba_bench.cli.replay_cmd import load_config_data
from soba_bench.corpora.manifest import load_corpus
from soba_bench.engine.config import build_engine_config, with_overrides
from soba_bench.engine.variants import DEFAULT_VARIANT, VARIANTS
from soba_bench.meter import DEFAULT_METER
from soba_bench.replay.output import replayed_session_lines
from soba_bench.replay.simulator import ReplayOptions, replay_session
from soba_bench.scoring.runner import truth_for, write_scores
from soba_bench.scoring.session import score_replay
from soba_bench.session import read_session
from soba_bench.sweep.record import base_record, new_run_id, write_run
from soba_bench.sweep.store import RunLayout, write_jsonl

REPO_ROOT = Path(__file__).resolve().parents[2]
# The bundled corpora: SOBA's conformance sessions and the synthetic one with ground truth.
DEFAULT_CORPORA = [
    REPO_ROOT / "corpora" / "soba-conformance",
    REPO_ROOT / "corpora" / "synthetic-small",
]
DEFAULT_RESULTS = REPO_ROOT / "results"

COLUMNS = [
    ("session", 44),
    ("entries", 8),
    ("turns", 6),
    ("barriers", 9),
    ("attempts", 9),
    ("completed", 10),
    ("skipped", 8),
    ("failed", 7),
    ("blocked", 8),
    ("reclaimed", 10),
]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "overrides", nargs="*", metavar="KEY=VALUE", help="engine config overrides by SOBA key name"
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        action="append",
        dest="corpora",
        help="corpus folder with a manifest.json (repeatable; default: the bundled corpora)",
    )
    parser.add_argument("--config", help="CASE.json config (conformance format)")
    parser.add_argument(
        "--variant", default=DEFAULT_VARIANT, help=f"engine variant ({', '.join(VARIANTS.names())})"
    )
    parser.add_argument("--meter", default=DEFAULT_METER, help="token meter (default soba)")
    parser.add_argument(
        "--results",
        type=Path,
        default=DEFAULT_RESULTS,
        help="where run folders go (default: results/)",
    )
    parser.add_argument("--no-score", action="store_true", help="replay only, do not score")


def session_row(name: str, trace) -> dict:
    s = trace.summary()
    outcomes = s["byOutcome"]
    return {
        "session": name,
        "entries": s["branchEntries"],
        "turns": s["turns"],
        "barriers": s["preflights"],
        "attempts": s["attempts"],
        "completed": outcomes.get("completed", 0),
        "skipped": outcomes.get("skipped", 0),
        "failed": outcomes.get("failed", 0),
        "blocked": s["blockedRequests"],
        "reclaimed": s["reclaimedTokens"],
        "byTrigger": s["byTrigger"],
        "finalEffectiveTokens": s["finalEffectiveTokens"],
        "maxEffectiveTokens": s["maxEffectiveTokens"],
        "replayMs": s["replayMs"],
    }


def format_row(row: dict) -> str:
    cells = []
    for name, width in COLUMNS:
        value = row[name]
        cells.append(f"{value:<{width}}" if name == "session" else f"{value:>{width}}")
    return " ".join(cells)


def format_scores(scoring: dict) -> str:
    """Retention by strategy (mean over sessions, capsule moments) and detector counts."""
    lines = [
        "",
        "retention (capsule moments, mean over sessions with ground truth)",
        f"{'strategy':<22}{'view':<14}{'recall':>8}{'staleness':>11}{'leaks':>7}",
    ]
    for row in scoring["corpus"]:
        if row["moment"] != "capsules" or row["view"] == "soba_quality":
            continue
        cells = [row.get(m) for m in ("recall", "staleness", "leaks")]
        shown = [
            "-" if v is None else f"{v:.3f}" if i < 2 else f"{v:.1f}" for i, v in enumerate(cells)
        ]
        lines.append(
            f"{row['strategy']:<22}{row['view']:<14}{shown[0]:>8}{shown[1]:>11}{shown[2]:>7}"
        )
    quality = [r for r in scoring["corpus"] if r["view"] == "soba_quality"]
    for row in quality:
        lines.append(
            f"soba_quality: mean score {row['score']:.3f}, pass rate {row['passRate']:.2f}"
        )
    fired = ", ".join(f"{k} {v['sessions']}" for k, v in scoring["findings"].items())
    lines.append(f"failure modes (sessions): {fired or 'none checked'}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    data = with_overrides(load_config_data(args.config), args.overrides)
    config = build_engine_config(data, source=args.config)
    VARIANTS.get(args.variant)
    corpora = [load_corpus(path) for path in args.corpora or DEFAULT_CORPORA]
    options = ReplayOptions(variant=args.variant, meter=args.meter)
    run_id = new_run_id()
    layout = RunLayout(args.results / run_id)
    names = ", ".join(f"{c.name} ({len(c.sessions)} sessions)" for c in corpora)
    print(
        f"soba-bench run: {names}; engine {args.variant}, window "
        f"{config.contextWindow}/{config.maxOutputTokens}, hard limit {config.hardLimit}"
    )
    print(format_row({name: name for name, _ in COLUMNS}))
    started = time.perf_counter()
    rows, all_scores = [], []
    for corpus in corpora:
        for item in corpus.sessions:
            key = f"{corpus.name}/{item.name}"
            session = read_session(item.path)
            trace = replay_session(session, config, options)
            rows.append(
                {
                    **session_row(key, trace),
                    "corpus": corpus.name,
                    "file": item.file,
                    "corpusRoot": str(corpus.root),
                }
            )
            print(format_row(rows[-1]))
            write_jsonl(layout.replay(key), replayed_session_lines(session, trace))
            barriers = trace.check_lines()
            write_jsonl(layout.barriers(key), barriers)
            if not args.no_score:
                truth = truth_for(item.path)
                all_scores.append(score_replay(key, trace.entries, truth, barriers=barriers))
    totals = {name: sum(r[name] for r in rows) for name, _ in COLUMNS if name != "session"}
    print(format_row({"session": "total", **totals}))
    scoring = write_scores(layout, all_scores) if all_scores else None
    if scoring:
        print(format_scores(scoring))
    elapsed = time.perf_counter() - started
    print(f"replayed {totals['entries']} entries in {elapsed:.2f} s")
    record = base_record(
        run_id,
        kind="corpus-replay",
        status="complete",
        config=config.to_dict(),
        compactionRequested=config.compactionRequested.to_dict(),
        variant=args.variant,
        meter=args.meter,
        strategy="deterministic",
        summarizer=None,
        seed=options.seed,
        corpora=[
            {
                "name": c.name,
                "version": c.version,
                "manifestSha256": c.manifest_sha256,
                "root": str(c.root),
            }
            for c in corpora
        ],
        totals=totals,
        scoring=scoring,
        timings={"wallSeconds": round(elapsed, 3)},
    )
    write_run(layout.root, record, rows)
    print(f"run record: {layout.record}")
    return 0
