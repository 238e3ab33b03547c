"""Recommend SOBA engine thresholds for a model window: search, check, compare with SOBA's defaults.

    soba-bench tune [OPTIONS] [OVERRIDES]

Searches keepRecentTokens, autoCompactThresholdRatio, minSavingsRatio, minReclaimableTokens,
minTokensForAutoCompact, safetyReserveTokens and timeoutMs for one window on the search part
of the corpus, under an explicit objective whose constraints are enforced; then evaluates
SOBA's shipped defaults on the same sessions and re-evaluates both on held-out sessions.

Tune settings (configs/tune/default.yaml and its groups):
  window=64k|128k|200k|1m            the model window preset (configs/tune/window/)
  space=NAME                         the search space (default: the window's, configs/tune/space/)
  objective=NAME                     availability_at_savings (default), savings_at_availability,
                                     min_input_tokens, quality_pass (configs/tune/objective/)
  search.strategy=tpe|grid  search.trials=N  search.seed=N
  split.held_out=0.3  split.seed=N  report.runner_ups=N  report.resamples=N
Any other override is a `soba-bench run` override for every trial's job (corpus=..., scorer=...,
variant=..., summarizer=..., --corpus DIR, --results DIR); a bare SOBA key fixes that key.
The corpus defaults to synthetic-gate (30 generated sessions with ground truth and varied
parameters) rather than run's bundled corpora.

Options:
  --out DIR   where to write (default: <results>/tune-<timestamp>/)
  --cfg       print the composed tune config and exit

Writes recommendation.json, tune.md, trials.csv/.parquet, tune.json, the split corpora and
one job folder per evaluated config. From a notebook:
soba_bench.tune.load_recommendation("results/tune-<timestamp>").
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError, SobaBenchError

PROG = "soba-bench tune"
TUNE_KEYS = ("window", "space", "objective", "search", "split", "report")
TUNE_CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs" / "tune"
DEFAULT_CORPUS = "synthetic-gate"  # 30 generated sessions with varied parameters


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """For ``soba-bench --help`` only: ``main`` parses the arguments itself."""
    parser.add_argument("overrides", nargs="*", metavar="OVERRIDE", help="overrides")


def route(argv: Sequence[str]) -> tuple[list[str], list[str], dict[str, Any]]:
    """(tune overrides, job arguments, options): tune keys go to the tune config, ``--out``
    and ``--cfg`` are ours, everything else is a ``soba-bench run`` argument."""
    tune: list[str] = []
    job: list[str] = []
    options: dict[str, Any] = {"out": None, "cfg": False}
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--cfg":
            options["cfg"] = True
        elif arg == "--out" or arg.startswith("--out="):
            if "=" in arg:
                options["out"] = arg.split("=", 1)[1]
            elif i + 1 < len(args):
                i += 1
                options["out"] = args[i]
            else:
                raise InputError("option --out needs a value", field="--out")
        elif arg.lstrip("+~").split("=", 1)[0].split(".", 1)[0] in TUNE_KEYS and "=" in arg:
            tune.append(arg)
        else:
            job.append(arg)
        i += 1
    return tune, job, options


def compose(config_dir: Path, name: str, overrides: list[str]) -> dict[str, Any]:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    from soba_bench.sweep.schema import plain_config

    try:
        with initialize_config_dir(config_dir=str(config_dir), version_base="1.3"):
            cfg = hydra_compose(config_name=name, overrides=overrides)
        return plain_config(cfg)
    except (HydraException, OmegaConfBaseException) as exc:
        text = " ".join(str(exc).split())
        raise InputError(f"bad override or config ({text})", path=str(config_dir)) from None


def _names_corpus(override: str) -> bool:
    key = override.lstrip("+~").split("=", 1)[0]
    return key == "corpus" or key.startswith("corpus.")


def load_configs(argv: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(tune config, job config, options) for these arguments."""
    from soba_bench.cli.run_cmd import translate
    from soba_bench.sweep.app import CONFIG_DIR

    tune_overrides, job_args, options = route(argv)
    job_overrides = translate(job_args)  # --corpus, --results, ... become overrides
    unknown = [a for a in job_overrides if a.startswith("-")]
    if unknown:
        raise InputError(
            f"unknown option {unknown[0]}",
            field=unknown[0],
            expected="--out, --cfg, or a 'soba-bench run' option (--corpus, --results, ...)",
        )
    if not any(_names_corpus(a) for a in job_overrides):
        # Tuning needs many sessions with ground truth; `run`'s default (the bundled corpora)
        # has three. An explicit corpus= / corpus.paths= / --corpus wins.
        job_overrides = [f"corpus={DEFAULT_CORPUS}", *job_overrides]
    tune_cfg = compose(TUNE_CONFIG_DIR, "default", tune_overrides)
    job_cfg = compose(CONFIG_DIR, "config", job_overrides)
    return tune_cfg, job_cfg, options


def main(argv: Sequence[str]) -> int:
    try:
        if any(a in ("-h", "--help") for a in argv):
            print((__doc__ or "").strip())
            return 0
        from soba_bench.tune.inert import drop_inert, inert_settings
        from soba_bench.tune.pipeline import run_tune
        from soba_bench.tune.settings import parse_settings

        tune_cfg, job_cfg, options = load_configs(argv)
        if options["cfg"]:
            from omegaconf import OmegaConf

            print(OmegaConf.to_yaml(tune_cfg), end="")
            return 0
        settings = parse_settings(tune_cfg)
        space, left_out = drop_inert(settings.space, inert_settings(job_cfg["summarizer"]))
        if left_out:
            settings = replace(settings, space=space, left_out=tuple(left_out.items()))
            for key, why in left_out.items():
                print(f"{PROG}: leaving {key} out of the search: {why}")
        out = options["out"]
        if out is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            out = Path(job_cfg["paths"]["results_dir"]) / f"tune-{stamp}"
        out = Path(out).expanduser().resolve()
        print(
            f"{PROG}: {settings.objective.describe()}; {settings.strategy}, "
            f"{settings.trials} trials; writing {out}"
        )
        result = run_tune(settings, job_cfg, out, progress=print)
    except SobaBenchError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 0
    doc = result.recommendation
    print((out / "tune.md").read_text(encoding="utf-8"))
    print(f"recommendation: {out / 'recommendation.json'}")
    if doc["recommended"] is None:
        print(f"{PROG}: no config met every constraint", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    return main(args.overrides or [])
