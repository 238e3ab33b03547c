"""The matcher's cost in a real scoring: one generated session replayed (SOBA's default
config), then scored with the default scorers under each matcher; prints the scoring time
(wall and CPU: the machine is shared), the number of verdicts asked and the wall cost per
verdict. The embedding vector cache is cleared before each matcher's first (cold) pass.

    python benchmarks/matcher_cost.py [--entries 2500] [--matchers verdict verdict-embedding]
"""

from __future__ import annotations

import argparse
import time

from soba_bench.corpora.synthetic import SyntheticConfig, generate_session
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.scoring import retention
from soba_bench.scoring.match import MatchConfig
from soba_bench.scoring.scorer import ScoreConfig
from soba_bench.scoring.session import score_replay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matchers", nargs="+", default=["verdict", "verdict-embedding"])
    args = parser.parse_args()
    session, truth = generate_session(SyntheticConfig(entries=args.entries), seed=args.seed)
    trace = replay_session(session, build_engine_config({}), ReplayOptions())
    calls = {"n": 0}
    original = retention.label_of

    def counting(*a, **k):
        calls["n"] += 1
        return original(*a, **k)

    retention.label_of = counting
    print(f"{args.entries} entries, {len(trace.entries)} replay entries")
    print("matcher              pass  score s  cpu s  verdicts  ms/verdict")
    for name in args.matchers:
        if name.startswith("verdict-"):
            from soba_bench.scoring.embeddings import get_embedder

            get_embedder()._cache.clear()  # a cold first pass, as in a new process
        config = ScoreConfig(match=MatchConfig(prose_matcher=name))
        for attempt in ("cold", "warm"):
            calls["n"] = 0
            tick, cpu = time.perf_counter(), time.process_time()
            score_replay("s", trace.entries, truth, config, trace.check_lines())
            elapsed, cpu = time.perf_counter() - tick, time.process_time() - cpu
            per = elapsed * 1000 / max(calls["n"], 1)
            print(
                f"{name:20s} {attempt:5s} {elapsed:7.2f} {cpu:6.1f}  {calls['n']:8d}  {per:10.3f}"
            )


if __name__ == "__main__":
    main()
