"""Scoring against replay time: on generated sessions of growing length (default generator
settings, which plant tool failures), replay each session and
score the replay, side by side in one run, median of 3 per size; prints the score/replay
ratio and the growth per doubling of entries (about 2x per doubling means linear), and how much
of the scoring time the two models' inference takes (the embedding model and the
cross-encoder, measured around their runs): the rest is what the scorers themselves cost.

By default SOBA as shipped (``soba-0.6.14``, which these failure-heavy sessions drive into its
blocker deadlock) under SOBA's default engine config (or, with ``--window 64000``, a 64k
window with an 8,192-token output reserve, which compacts more often) with the default scorers
(``availability``, ``outcomes``, ``retention``, ``soba_quality``, ``failure_modes``; the
default ``verdict-embedding-nli`` matcher). Every repeat scores with cold caches (the
embedding vectors, the cross-encoder's pairs, the parsed texts), the models already loaded (a
sweep worker loads them once); their load time is printed once.

``--strategy`` replays a comparison strategy instead (``observation_masking``, ``truncation``,
``codex``, ...): it is scored on its own model input, its moments being its compactions (the
diagnostics read at most ``max_moments`` of them, 64 by default; the moments column prints
those read / the job's).

``--warm`` adds what a later job of the same session costs in a sweep: the sweep's store
(``cache.embeddings``) already holds the vectors and the cross-encoder's pairs an earlier job
of the session wrote, here the same session replayed under the other window (SOBA's default
config when ``--window`` is given, else the 64k one), scored once into a fresh store before
the repeats. Each warm repeat starts with cold in-process caches, as a new worker would.

    python benchmarks/scoring_scaling.py [--sizes 2500,5000,10000,20000]
        [--scorers default | availability,outcomes] [--variant soba-0.6.14+newest-blockers]
        [--strategy soba | observation_masking | truncation | codex | none]
        [--window 64000] [--clock cpu|wall] [--repeat 3] [--warm] [--matcher verdict]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
import pkgutil
import subprocess
import tempfile
import time
from pathlib import Path
from statistics import median

from replay_scaling import window_config  # the sibling benchmark (this folder is on sys.path)

import soba_bench.scoring
from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.corpora.synthetic import SyntheticConfig, generate_session
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.scoring import context as scoring_context
from soba_bench.scoring import embeddings
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.scorer import DEFAULT_SCORERS, ScoreConfig
from soba_bench.scoring.session import score_replay


def cold_caches() -> None:
    """Forget what an earlier repeat scored: per-text caches of the scoring modules, the
    embedding vectors and the cross-encoder's pair probabilities (the models stay loaded:
    their getters' caches are kept, or each repeat would time a model load)."""
    from soba_bench.scoring.embeddings import get_embedder
    from soba_bench.scoring.nli import get_model

    for info in pkgutil.walk_packages(soba_bench.scoring.__path__, "soba_bench.scoring."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if value in (get_embedder, get_model):
                continue
            if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                value.cache_clear()
    getattr(scoring_context, "_RECENT", []).clear()  # contexts kept before per-text blocks
    get_embedder()._cache.clear()
    get_model()._cache.clear()


class ModelClock:
    """Seconds spent inside the models' runs (the embedder's and the cross-encoder's), on the
    benchmark's clock."""

    def __init__(self, clock) -> None:
        self.clock, self.spent = clock, 0.0

    def wrap(self, model) -> None:
        run = model._run

        def timed(batch):
            tick = self.clock()
            try:
                return run(batch)
            finally:
                self.spent += self.clock() - tick

        model._run = timed


def _engine(window: int | None):
    """SOBA's default config, or ``window`` with replay_scaling.py's output reserve."""
    return build_engine_config({}) if window is None else window_config(window)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2500,5000,10000,20000")
    parser.add_argument("--scorers", default="default")
    parser.add_argument("--variant", default="soba-0.6.14")
    parser.add_argument("--strategy", default="soba")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--window", type=int, default=None, help="contextWindow (default: SOBA's default config)"
    )
    parser.add_argument("--warm", action="store_true")
    parser.add_argument(
        "--matcher", default=DEFAULT_MATCH.prose_matcher, help="verdict: the rules, no model"
    )
    args = parser.parse_args()
    engine = _engine(args.window)
    other = _engine(64_000 if args.window is None else None)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    scorers = DEFAULT_SCORERS if args.scorers == "default" else tuple(args.scorers.split(","))
    # every request (no sample), so availability's cost is that of the whole walk
    config = ScoreConfig(
        scorers=scorers,
        max_points=None,
        match=dataclasses.replace(DEFAULT_MATCH, prose_matcher=args.matcher),
    )
    compactor = get_compactor(args.strategy)
    options = ReplayOptions(variant=args.variant)

    def replay(session, engine):
        if args.strategy == "soba":
            return replay_session(session, engine, options)
        return compactor(session, CompactorContext(engine, options)).trace

    uptime = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout
    what = args.variant if args.strategy == "soba" else f"strategy {args.strategy}"
    print(
        f"{what}, window {engine.contextWindow:.0f}, "
        f"scorers {','.join(scorers)}, matcher {args.matcher}, {args.clock} seconds, "
        f"median of {args.repeat}; {uptime.strip()}"
    )
    models = ModelClock(clock)
    if any(s in ("retention", "availability", "failure_modes") for s in scorers):
        from soba_bench.scoring.embeddings import get_embedder
        from soba_bench.scoring.nli import get_model

        tick = clock()
        models.wrap(get_embedder())
        models.wrap(get_model())
        print(f"embedding model and cross-encoder load: {clock() - tick:.2f} s (once per process)")
    print(
        "entries  requests  moments  replay s  score s  score/replay  replay growth  score growth"
        "  models s  (score-models)/replay"
        + ("  warm score s  warm/replay  warm models s" if args.warm else "")
    )
    previous: tuple[int, float, float] | None = None
    for size in (int(s) for s in args.sizes.split(",")):
        session, truth = generate_session(SyntheticConfig(entries=size), seed=args.seed)
        replays, scores, inference = [], [], []
        for _ in range(args.repeat):
            cold_caches()
            tick = clock()
            trace = replay(session, engine)
            replays.append(clock() - tick)
            models.spent = 0.0
            tick = clock()
            scored = score_replay("s", trace.entries, truth, config, trace.check_lines())
            scores.append(clock() - tick)
            inference.append(models.spent)
        replay_s, score_s, models_s = median(replays), median(scores), median(inference)
        warm = ""
        if args.warm:
            warm_s, warm_models = _warm(
                replay(session, other), trace, truth, config, clock, models, args.repeat
            )
            warm = f"  {warm_s:12.2f}  {warm_s / replay_s:11.2f}  {warm_models:13.2f}"
        requests = scored.outcomes[0]["requests"] if scored.outcomes else "-"
        read = len({(r["generation"], r["point"]) for r in scored.summaries})
        moments = f"{read}/{scored.moments + 1}" if read else "-"  # the final state included
        growth = ("-", "-")
        if previous is not None:
            # per doubling of entries, whatever the size step
            doublings = math.log2(size / previous[0])
            growth = (
                f"{(replay_s / previous[1]) ** (1 / doublings):.2f}x",
                f"{(score_s / previous[2]) ** (1 / doublings):.2f}x",
            )
        previous = (size, replay_s, score_s)
        print(
            f"{size:7d}  {requests!s:>8}  {moments!s:>7}  {replay_s:8.2f}  {score_s:7.2f}"
            f"  {score_s / replay_s:12.2f}  {growth[0]:>13}  {growth[1]:>12}"
            f"  {models_s:8.2f}  {(score_s - models_s) / replay_s:21.2f}{warm}",
            flush=True,
        )


def _warm(earlier, trace, truth, config, clock, models, repeat) -> tuple[float, float]:
    """Median seconds to score ``trace``, and of that in the models, with a store that holds
    the vectors of ``earlier`` (another job of the session) and cold in-process caches."""
    with tempfile.TemporaryDirectory() as folder:
        embeddings.use_store(Path(folder) / "embeddings.sqlite")
        try:
            cold_caches()
            score_replay("earlier", earlier.entries, truth, config, earlier.check_lines())
            embeddings.flush_store()
            spent, inference = [], []
            for _ in range(repeat):
                cold_caches()
                models.spent = 0.0
                tick = clock()
                score_replay("s", trace.entries, truth, config, trace.check_lines())
                spent.append(clock() - tick)
                inference.append(models.spent)
        finally:
            embeddings.use_store(None)
    return median(spent), median(inference)


if __name__ == "__main__":
    main()
