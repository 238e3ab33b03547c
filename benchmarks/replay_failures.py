"""Replay cost on failure-heavy sessions against the floor (issue 18).

Sessions come from the synthetic generator with its default settings, which plant tool
failures; on them SOBA's compaction keeps failing (blocker saturation, lost failed
verification), so nearly every barrier runs a compaction attempt over a growing span. For
each size (5k, 20k, 50k entries) and engine config (SOBA's defaults; the 64k window,
contextWindow=64000 maxOutputTokens=8192) it measures, interleaved in the same run, median of
``--repeat``:

* the floor: read the JSONL and count each item's tokens once with the SOBA meter;
* the replay: read the JSONL with soba-bench's strict reader and replay it (deterministic
  capsules, SOBA estimator), as ``soba-bench replay`` does minus writing files. ``ratio``
  is that total over the floor; ``loop`` and ``loop ratio`` are the replay loop alone.

Peak RSS of each is measured in its own subprocess (so one peak cannot hide another). It
prints replay/floor, growth per doubling of entries, and RSS ratios. Targets (2-core
machine): replay <= 10x floor, growth <= 2.2x per doubling, replay peak <= 2x floor peak at
20k and 50k. ``--reference`` replays with ``ContextManager.incremental_spans = False`` (every
attempt re-reads its span, as SOBA does) for a before/after comparison; ``--no-memo`` keeps
the incremental spans but rebuilds the deterministic capsule at every attempt
(``ContextManager.memoize_capsules = False``, engine/capsule_memo.py). Sizes are interleaved
within each repeat (5k, 20k, 50k, 5k, ...), so a change in the machine's load between sizes
bends the growth figure less. ``--other CHECKOUT`` compares instead: this checkout's
read + replay against the other's, each in its own subprocess, alternating (CPU seconds,
median of ``--repeat``), with the growth per doubling of each.

    python benchmarks/replay_failures.py [--sizes 5000,20000,50000] [--repeat 3]
        [--configs default,64k] [--reference] [--no-memo] [--clock cpu|wall]
        [--other CHECKOUT]

Times are CPU seconds of the measuring process unless ``--clock wall``. Run it against
another checkout with ``PYTHONPATH=/that/checkout python benchmarks/replay_failures.py``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from soba_bench.corpora.synthetic import SyntheticConfig
from soba_bench.corpora.synthetic.generate import generate_session
from soba_bench.engine.config import build_engine_config
from soba_bench.engine.manager import ContextManager
from soba_bench.meter import get_meter
from soba_bench.replay.simulator import replay_session
from soba_bench.session.jsonl import read_session, write_session

CONFIGS = {
    "default": {},
    "64k": {"contextWindow": 64_000, "maxOutputTokens": 8_192},
}


# time.process_time (this process's CPU seconds) by default: on a machine shared with other
# jobs, wall time measures the neighbours as much as the replay; --clock wall for wall time.
CLOCK = time.process_time


def floor(path: Path) -> float:
    """Read the JSONL into memory and count every item's tokens once with the SOBA meter;
    returns seconds. Plain ``json.loads`` per line, every line kept (a replay needs the
    whole session: the active branch is only known once the last line is read)."""
    started = CLOCK()
    meter = get_meter()
    with open(path, "rb") as fh:
        lines = [json.loads(line) for line in fh]
    total = sum(
        meter.count_item(line["item"])
        for line in lines
        if line.get("type") == "item" and line.get("item") is not None
    )
    assert total > 0
    return CLOCK() - started


def replay(path: Path, config_name: str) -> tuple[float, float, dict]:
    """Read and replay the session; returns (total seconds, replay-loop seconds, summary)."""
    started = CLOCK()
    session = read_session(path)
    loop_started = CLOCK()
    trace = replay_session(session, build_engine_config(CONFIGS[config_name]))
    ended = CLOCK()
    return ended - started, ended - loop_started, trace.summary()


def child(kind: str, path: Path, config_name: str, reference: bool, memo: bool) -> None:
    ContextManager.incremental_spans = not reference
    ContextManager.memoize_capsules = memo
    if kind == "time":  # --other: read + replay seconds, run under either checkout
        print(json.dumps({"seconds": replay(path, config_name)[0]}))
        return
    if kind == "floor":
        floor(path)
    else:
        replay(path, config_name)
    # VmHWM, not ru_maxrss: Linux carries a forking parent's peak into ru_maxrss across exec.
    status = Path("/proc/self/status").read_text()
    peak_kib = int(next(x for x in status.splitlines() if x.startswith("VmHWM:")).split()[1])
    print(json.dumps({"peak_mib": peak_kib / 1024}))


def peak_rss(kind: str, path: Path, config_name: str, reference: bool, memo: bool) -> float:
    cmd = [sys.executable, __file__, "--child", kind, str(path), config_name]
    if reference:
        cmd.append("--reference")
    if not memo:
        cmd.append("--no-memo")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["peak_mib"]


def timed(root: Path | None, path: Path, config_name: str, memo: bool) -> float:
    """Read + replay CPU seconds in a subprocess importing soba_bench from ``root`` (this
    checkout when None)."""
    env = None if root is None else {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, __file__, "--child", "time", str(path), config_name]
    if not memo:
        cmd.append("--no-memo")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])["seconds"]


def compare(other: Path, paths: dict[int, Path], configs: list[str], repeat: int) -> None:
    """This checkout against ``other`` on the same files, alternating subprocesses."""
    print(f"{'config':>8} {'entries':>8} {'this s':>7} {'other s':>8} {'this/other':>10}")
    for name in configs:
        times: dict[str, dict[int, list[float]]] = {"this": {}, "other": {}}
        for round_ in range(repeat):
            for size in paths:
                order = [("this", None), ("other", other)]
                for label, root in order if round_ % 2 == 0 else order[::-1]:
                    seconds = timed(root, paths[size], name, True)
                    times[label].setdefault(size, []).append(seconds)
        medians = {k: {n: statistics.median(v) for n, v in t.items()} for k, t in times.items()}
        for size in paths:
            this, that = medians["this"][size], medians["other"][size]
            print(f"{name:>8} {size:>8} {this:>7.2f} {that:>8.2f} {this / that:>9.2f}x")
        print(f"{name:>8} growth per doubling, this: {growth(medians['this'])}")
        print(f"{name:>8} growth per doubling, other: {growth(medians['other'])}", flush=True)


def growth(times: dict[int, float]) -> str:
    sizes = sorted(times)
    parts = []
    for small, large in itertools.pairwise(sizes):
        per_doubling = (times[large] / times[small]) ** (1 / math.log2(large / small))
        parts.append(f"{small // 1000}k->{large // 1000}k {per_doubling:.2f}x")
    return ", ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000,20000,50000")
    parser.add_argument("--configs", default="default,64k")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", action="store_true", help="the non-incremental path")
    parser.add_argument(
        "--no-memo", action="store_true", help="rebuild the capsule at every attempt"
    )
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--other", type=Path, help="a checkout to compare this one to")
    parser.add_argument(
        "--child", nargs=3, metavar=("KIND", "PATH", "CONFIG"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]), args.child[2], args.reference, not args.no_memo)
        return
    ContextManager.incremental_spans = not args.reference
    ContextManager.memoize_capsules = not args.no_memo
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    sizes = [int(s) for s in args.sizes.split(",")]
    configs = args.configs.split(",")
    work = Path(tempfile.mkdtemp(prefix="replay-failures-"))
    paths = {}
    for size in sizes:
        session, _ = generate_session(SyntheticConfig(entries=size), args.seed, 0)
        paths[size] = work / f"failures-{size}.jsonl"
        write_session(session, paths[size])
    path_note = "reference (non-incremental)" if args.reference else "incremental"
    if args.no_memo and not args.reference:
        path_note += " without the capsule memo"
    if args.other is not None:
        print(
            f"failure-heavy generated sessions (seed {args.seed}), read + replay CPU seconds, "
            f"this checkout vs {args.other} in alternating subprocesses, median of {args.repeat}"
        )
        compare(args.other, paths, configs, args.repeat)
        return
    print(
        f"failure-heavy generated sessions (seed {args.seed}, default generator settings), "
        f"{path_note} replay, median of {args.repeat}, floor and replay interleaved, "
        f"{args.clock} seconds"
    )
    header = (
        f"{'config':>8} {'entries':>8} {'floor s':>8} {'replay s':>9} {'loop s':>7} "
        f"{'ratio':>6} {'loop ratio':>10} {'attempts':>8} {'failed':>7} {'floor MiB':>9} "
        f"{'replay MiB':>10} {'RSS ratio':>9}"
    )
    print(header)
    memo = not args.no_memo
    for name in configs:
        replay_times: dict[int, float] = {}
        floors: dict[int, list[float]] = {size: [] for size in sizes}
        totals: dict[int, list[float]] = {size: [] for size in sizes}
        loops: dict[int, list[float]] = {size: [] for size in sizes}
        summaries: dict[int, dict] = {}
        for _ in range(args.repeat):
            for size in sizes:
                floors[size].append(floor(paths[size]))
                total, loop, summaries[size] = replay(paths[size], name)
                totals[size].append(total)
                loops[size].append(loop)
        for size in sizes:
            f, r, lp = (statistics.median(x[size]) for x in (floors, totals, loops))
            summary = summaries[size]
            replay_times[size] = r
            floor_mib = peak_rss("floor", paths[size], name, args.reference, memo)
            replay_mib = peak_rss("replay", paths[size], name, args.reference, memo)
            failed = summary["byOutcome"].get("failed", 0)
            print(
                f"{name:>8} {size:>8} {f:>8.2f} {r:>9.2f} {lp:>7.2f} {r / f:>5.1f}x "
                f"{lp / f:>9.1f}x "
                f"{summary['attempts']:>8} {failed:>7} {floor_mib:>9.0f} {replay_mib:>10.0f} "
                f"{replay_mib / floor_mib:>8.2f}x",
                flush=True,
            )
        print(f"{name:>8} growth per doubling (replay): {growth(replay_times)}", flush=True)


if __name__ == "__main__":
    main()
