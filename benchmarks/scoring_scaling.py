"""One-pass scoring at the fixed evaluation points: time to score a replayed session with the
``availability`` and ``outcomes`` scorers (every request, no sample) against the time of its
replay, on generated sessions of growing length (SOBA's default config, the newest-blockers
variant so the replay itself stays linear). Median of 3 per size; the ratio of consecutive
sizes shows the growth (about 2x per doubling means linear).

    python benchmarks/scoring_scaling.py [--sizes 2500,5000,10000,20000]
"""

from __future__ import annotations

import argparse
import time
from statistics import median

from soba_bench.corpora.synthetic import SyntheticConfig, generate_session
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.scoring.scorer import ScoreConfig
from soba_bench.scoring.session import score_replay

CONFIG = ScoreConfig(scorers=("availability", "outcomes"), max_points=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2500,5000,10000,20000")
    args = parser.parse_args()
    previous = None
    print("entries  requests  replay s  score s  score/replay  score growth")
    for size in (int(s) for s in args.sizes.split(",")):
        session, truth = generate_session(SyntheticConfig(entries=size), seed=1)
        replays, scores = [], []
        for _ in range(3):
            tick = time.perf_counter()
            trace = replay_session(
                session,
                build_engine_config({}),
                ReplayOptions(variant="soba-0.6.14+newest-blockers"),
            )
            replays.append(time.perf_counter() - tick)
            tick = time.perf_counter()
            scored = score_replay("s", trace.entries, truth, CONFIG, trace.check_lines())
            scores.append(time.perf_counter() - tick)
        replay_s, score_s = median(replays), median(scores)
        growth = f"{score_s / previous:.2f}x" if previous else "-"
        previous = score_s
        print(
            f"{size:7d}  {scored.outcomes[0]['requests']:8d}  {replay_s:8.2f}  {score_s:7.2f}"
            f"  {score_s / replay_s:12.2f}  {growth:>12}"
        )


if __name__ == "__main__":
    main()
