"""The gate's own test: detection power on planted defects and false alarms on controls.

For each corpus seed, a small corpus of the planted recipe (benchmarks/planted_corpus.yaml: the
synthetic-gate recipe's fixed and per-session varied generator parameters, with decision
revisions in every session that name the decision they replace) is replayed once per
planted defect with ``summarizer=planted`` (one ``soba-bench run -m`` sweep per seed), and
every candidate is compared with the unmutated base
(``defect=verbatim``) by ``soba-bench compare BASE CAND --format json`` (the CLI's entry
point, called in this process). Printed per defect:

* power: the share of seeds where compare flagged a regression (exit 1);
* right metric: the share of seeds where a flagged metric is the one the defect should move
  (drop_blockers: the degraded-fallback rate, since SOBA's validator rejects those capsules and
  the deterministic fallback writes them; drop_goal: a goal metric; files for swap_files and
  verification for flip_verification; decisions for negate_decisions; for these three the
  contradiction rate too (a fact stated wrongly); invented_paths for invent_paths;
  decisions, staleness or plan-pivot checkpoints for stale_decisions);
* cannot test: seeds where compare said it could not test (exit 3) or rejected its input (2);
* for the controls (verbatim against a copy of the base job, a sanity check, and paraphrase),
  the false-alarm rate: the share of seeds flagged at all.

Goal: power >= 95 % per defect, false alarms <= 5 %; each share is printed with its 95 %
Wilson interval. The benchmark only reads compare's exit code and its JSON
(``flagged_metrics`` or per-metric verdicts in ``deltas``), so it measures whatever gate the
CLI ships. Each row of ``--json`` names its seed, session count, engine and variant, so runs
of seed ranges made apart merge with ``--summarize`` (one table per setup).

    python benchmarks/planted_power.py [--seeds 20] [--sessions 20] [--engine "engine=64k-8k"]
        [--variant NAME] [--first-seed N] [--json OUT] [--keep DIR]
    python benchmarks/planted_power.py --summarize part1.json part2.json
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from soba_bench.cli.main import main as cli_main
from soba_bench.corpora.synthetic import generate_corpus
from soba_bench.corpora.synthetic.config import config_from_dict
from soba_bench.scoring.stats import wilson_interval
from soba_bench.summarizers.defects import CONTROLS
from soba_bench.summarizers.defects import DEFECTS as PLANTED
from soba_bench.summarizers.planted import PLANTED_VERSION

REPO = Path(__file__).resolve().parents[1]
RECIPE = REPO / "benchmarks" / "planted_corpus.yaml"
# The defects under test: every registered one but the controls (one list, the registry).
DEFECTS = tuple(n for n in PLANTED.names() if n not in CONTROLS)
# Words in a metric's name that make it "the right metric" for a defect.
RIGHT_METRIC = {
    "drop_blockers": ("degraded",),
    "drop_goal": ("goal",),
    # A fact stated wrongly is what the contradiction rate counts.
    "negate_decisions": ("decision", "contradiction"),
    "swap_files": ("file", "contradiction"),
    "flip_verification": ("verification", "contradiction"),
    # A plan-pivot checkpoint is a decision revision too (the ground truth's checkpoint kind).
    "stale_decisions": ("decision", "stale", "checkpoint"),
    "invent_paths": ("invented_paths",),
}
# A small window (the synthetic-small README's), so every session compacts several times and
# each seed gives the gate many capsule moments; the gate corpus's sessions are short.
SMALL_WINDOW = (
    "engine.contextWindow=32000 engine.maxOutputTokens=4000 engine.keepRecentTokens=4000 "
    "engine.minTokensForAutoCompact=8000 engine.minReclaimableTokens=2000"
)
SEED_BASE = 1000  # corpus seeds 1000, 1001, ...: disjoint from the bundled corpora's


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "soba_bench.cli.main", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO)


def recipe_id() -> str:
    """The recipe's name and a digest of its text: rows of another recipe version never merge
    into one table."""
    digest = hashlib.sha256(RECIPE.read_bytes()).hexdigest()[:10]
    return f"{RECIPE.name}@{digest}"


def make_corpus(out: Path, seed: int, sessions: int) -> None:
    recipe = yaml.safe_load(RECIPE.read_text(encoding="utf-8"))
    vary = {k: (float(lo), float(hi)) for k, (lo, hi) in recipe["vary"].items()}
    config = config_from_dict(recipe["params"])
    generate_corpus(out, config, seed=seed, sessions=sessions, name="planted", vary=vary)


def run_sweep(
    corpus: Path,
    sweep: Path,
    engine: list[str],
    variant: str,
    env: dict[str, str],
    chosen: tuple[str, ...] = (*DEFECTS, "paraphrase"),
) -> dict[str, Path]:
    """One sweep per seed: the base twice (an A/A control), then each chosen defect and
    control."""
    # verbatim is the base, run once whether or not it is chosen (its A/A is a folder copy)
    defects = ",".join(("verbatim", *(d for d in chosen if d != "verbatim")))
    done = cli(
        "run",
        "-m",
        "summarizer=planted",
        f"summarizer.params.defect={defects}",
        "corpus=path",
        f"corpus.paths=[{corpus}]",
        *engine,
        f"variant={variant}",
        # `compare` reads each job's own views: the baseline strategies' views the default
        # scorer adds at every capsule moment change no delta (about 40 % of the CPU of the
        # compare test's jobs; a seed's time not re-measured).
        "scorer.baselines=[]",
        f"hydra.sweep.dir={sweep}",
        "hydra/launcher=basic",
        "progress.bars=false",
        env=env,
    )
    if done.returncode != 0:
        raise SystemExit(f"sweep failed ({done.returncode}):\n{done.stderr[-2000:]}")
    jobs: dict[str, Path] = {}
    for record in sweep.glob("*/run.json"):
        data = json.loads(record.read_text(encoding="utf-8"))
        jobs[data["summarizer"]["defect"]] = record.parent
    return jobs


def flagged(report: dict[str, Any]) -> list[str]:
    """The metrics a compare report flags: ``flagged_metrics`` when present, else the
    per-metric verdicts of its deltas."""
    if isinstance(report.get("flagged_metrics"), list):
        return sorted(set(report["flagged_metrics"]))
    out = set()
    for row in report.get("deltas") or []:
        verdict = row.get("verdict")
        if row.get("regression") is True or verdict in ("regression", "worse"):
            out.add(row["metric"])
    return sorted(out)


def compare(base: Path, cand: Path) -> tuple[int, list[str]]:
    """``soba-bench compare BASE CAND --format json``: the CLI's own entry point, called in
    this process (its exit code and its stdout), which saves an interpreter start per pair."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(["compare", str(base), str(cand), "--format", "json"])
    except SystemExit as exc:  # argparse errors
        code = exc.code if isinstance(exc.code, int) else 2
    try:
        report = json.loads(out.getvalue())
    except json.JSONDecodeError:
        report = {}
    return code, flagged(report)


def right(defect: str, metrics: list[str]) -> bool:
    words = RIGHT_METRIC.get(defect, ())
    return any(w in m.lower() for m in metrics for w in words)


def share(k: int, n: int) -> str:
    """ "k/n [lo-hi %]" with the 95 % Wilson interval."""
    low, high = wilson_interval(k, n)
    return f"{k}/{n} [{low:.0%}-{high:.0%}]"


def print_table(rows: list[dict[str, Any]], setup: str, elapsed: float) -> None:
    """Power per defect, right-metric share, cannot-test share and false alarms, with 95 %
    Wilson intervals."""
    print(f"planted-defect power: {setup}; compare's exit code and JSON")
    print()
    print(
        f"{'defect':<18} {'flagged':>16} {'right metric':>16} {'cannot test':>12}"
        "  most flagged metrics"
    )
    powers, alarms = [], []
    measured = {r["defect"] for r in rows}  # a run of chosen --defects measures only those
    for defect in (d for d in (*DEFECTS, *CONTROLS) if d in measured):
        mine = [r for r in rows if r["defect"] == defect]
        n = len(mine)
        hit = sum(r["exit"] == 1 for r in mine)
        ok = sum(r["exit"] == 1 and right(defect, r["flagged"]) for r in mine)
        cannot = sum(r["exit"] in (2, 3) for r in mine)
        top = Counter(m for r in mine for m in r["flagged"]).most_common(3)
        control = defect in CONTROLS
        (alarms if control else powers).append((hit if control else ok) / max(1, n))
        print(
            f"{defect:<18} {share(hit, n):>16} {'-' if control else share(ok, n):>16} "
            f"{cannot:>12}  "
            + ", ".join(f"{m} ({c})" for m, c in top)
            + ("  [false alarm]" if control and hit else "")
        )
    print()
    power = f"min power (right metric) {min(powers):.0%} (goal >= 95%)" if powers else ""
    alarm = f"max false-alarm rate {max(alarms):.0%} (goal <= 5%)" if alarms else ""
    print("; ".join(p for p in (power, alarm, f"{elapsed:.0f} s") if p))


def setup_of(row: dict[str, Any]) -> str:
    """The setup a row was measured in (rows of older files lack it)."""
    if "sessions" not in row:
        return "setup not recorded"
    # Rows written before the planted model's version was recorded are v3 (PLANTED_VERSION's
    # history in soba_bench/summarizers/planted.py): their paraphrase control still had the bug
    # v4 fixed, so they are summarized apart from v4's.
    return (
        f"{row['sessions']} sessions, engine {row['engine']!r}, variant {row['variant']}, "
        f"recipe {row.get('recipe', '?')}, planted v{row.get('planted', 3)}"
    )


def write_json(path: Path, rows: list[dict[str, Any]]) -> None:
    """The rows, written atomically (a reader never sees half a file)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="corpus seeds (default 20)")
    parser.add_argument(
        "--sessions",
        type=int,
        default=20,
        help="sessions per seed (default 20; the gate tests from 9, but a defect that only some "
        "sessions show needs more)",
    )
    parser.add_argument(
        "--engine",
        default=SMALL_WINDOW,
        help=f"engine overrides, space-separated (default: {SMALL_WINDOW!r}); e.g. engine=64k-8k",
    )
    parser.add_argument("--variant", default="soba-0.6.14", help="engine variant")
    parser.add_argument("--first-seed", type=int, default=SEED_BASE, help="first corpus seed")
    parser.add_argument("--json", type=Path, help="also write the per-seed results here")
    parser.add_argument(
        "--summarize",
        type=Path,
        nargs="+",
        metavar="JSON",
        help="print the table from --json files of earlier runs (e.g. seed ranges run apart)",
    )
    parser.add_argument("--keep", type=Path, help="keep corpora and runs in this folder")
    parser.add_argument(
        "--defects",
        default=",".join((*DEFECTS, "paraphrase")),
        help="comma-separated defects and controls to run against verbatim (default: all; "
        "e.g. paraphrase to re-measure one control after it changed)",
    )
    args = parser.parse_args()
    chosen = tuple(d for d in args.defects.split(",") if d)
    unknown = [d for d in chosen if d not in (*DEFECTS, *CONTROLS)]
    if unknown or not chosen:
        valid = ", ".join((*DEFECTS, *CONTROLS))
        parser.error(f"--defects: unknown {', '.join(unknown) or '(none given)'}; valid: {valid}")
    if args.summarize:
        rows = [r for path in args.summarize for r in json.loads(path.read_text("utf-8"))]
        by_setup: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            by_setup.setdefault(setup_of(row), []).append(row)
        for setup, mine in by_setup.items():
            seeds = sorted({r["seed"] for r in mine})
            where = f"seeds {seeds[0]}..{seeds[-1]}" if seeds else "no seeds"
            print_table(mine, f"{len(seeds)} seeds ({where}) x {setup}", 0.0)
            print()
        return

    root = Path(args.keep or tempfile.mkdtemp(prefix="planted-power-"))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        for n in range(args.seeds):
            seed = args.first_seed + n
            corpus = root / f"corpus-{seed}"
            if not (corpus / "manifest.json").is_file():
                make_corpus(corpus, seed, args.sessions)
            engine = args.engine.split()
            jobs = run_sweep(corpus, root / f"runs-{seed}", engine, args.variant, env, chosen)
            # A/A: the same config run again (its own job folder) must not be flagged.
            aa = root / f"runs-{seed}-aa"
            if not any(aa.glob("*/run.json")):
                shutil.copytree(jobs["verbatim"], aa / "job", dirs_exist_ok=True)
            cands = {d: jobs[d] for d in chosen if d != "verbatim"}
            cands["verbatim"] = aa / "job"
            for defect, cand in cands.items():
                code, metrics = compare(jobs["verbatim"], cand)
                rows.append(
                    {
                        "seed": seed,
                        "defect": defect,
                        "exit": code,
                        "flagged": metrics,
                        "sessions": args.sessions,
                        "engine": args.engine,
                        "variant": args.variant,
                        "recipe": recipe_id(),
                        "planted": PLANTED_VERSION,
                    }
                )
            print(f"[seed {seed}] {time.perf_counter() - started:.0f} s", file=sys.stderr)
            if args.json:  # after every seed, so a long run can be read while it goes
                write_json(args.json, rows)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)

    setup = (
        f"{args.seeds} seeds ({args.first_seed}..) x {args.sessions} sessions, engine "
        f"{args.engine!r}, variant {args.variant}"
    )
    print_table(rows, setup, time.perf_counter() - started)
    if args.json:
        write_json(args.json, rows)


if __name__ == "__main__":
    main()
