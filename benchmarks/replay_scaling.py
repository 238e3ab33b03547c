"""Replay throughput and peak memory versus session length.

Generates seeded endurance-shaped sessions of about 1k, 2.5k, 5k, 10k and 20k entries and
replays each through the SOBA engine (default config; small-window config with --window)
printing entries/second and peak traced memory. Targets on a 2-core machine: 2.5k entries
under 0.2 s, 10k under 2 s, and linear growth (20k at most 2.5x the 10k time).

    python benchmarks/replay_scaling.py [--repeat 3] [--window 64000]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

from soba_bench.corpora.endurance import endurance_session
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.simulator import replay_session

SIZES = (1_000, 2_500, 5_000, 10_000, 20_000)


def window_config(window: int):
    """SOBA's engine config with ``window`` as its contextWindow, and the output reserve the
    benchmarks pair with it (32,768 tokens from 100k up, else 8,192)."""
    output = 32_768 if window >= 100_000 else 8_192
    return build_engine_config({"contextWindow": window, "maxOutputTokens": output})


def measure(session, config, repeat: int) -> tuple[float, float, dict]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        trace = replay_session(session, config)
        times.append(time.perf_counter() - started)
    tracemalloc.start()
    replay_session(session, config)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return statistics.median(times), peak / 2**20, trace.summary()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--window", type=int, default=128_000, help="contextWindow")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    config = window_config(args.window)
    output = f"{config.maxOutputTokens:.0f}"
    print(f"window {args.window}/{output}, median of {args.repeat} runs, seed {args.seed}")
    print(
        f"{'entries':>8} {'seconds':>9} {'entries/s':>10} {'peak MiB':>9} {'attempts':>9} "
        f"{'capsules':>9}"
    )
    results = {}
    for size in SIZES:
        session = endurance_session(args.seed, size)
        seconds, peak, summary = measure(session, config, args.repeat)
        results[size] = seconds
        print(
            f"{size:>8} {seconds:>9.3f} {size / seconds:>10.0f} {peak:>9.1f} "
            f"{summary['attempts']:>9} {summary['capsules']:>9}"
        )
    print(f"growth 20k/10k: {results[20_000] / results[10_000]:.2f}x (linear = 2.0x)")


if __name__ == "__main__":
    main()
