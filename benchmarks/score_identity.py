"""Are the scores byte-identical under another checkout? Replays and scores a fixed set of
generated sessions (400 to 2,000 entries; SOBA as shipped and ``+newest-blockers``; the
``truncation``, ``observation_masking`` and ``hybrid`` strategies) with the default scorers
and matcher (SOBA's default engine config: a 2,000-entry session compacts about 7
times), and compares the score records of this checkout with those of ``--other``
(run in a subprocess importing ``soba_bench`` from there), byte for byte. Prints each
session's scoring CPU seconds under both, and exits 1 on the first difference.

    python benchmarks/score_identity.py --other /path/to/other/checkout
    python benchmarks/score_identity.py --dump out.json     # this checkout's records only
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# (entries, seed, strategy, variant): a compactor name ("soba" replays the engine itself)
CASES = (
    (400, 1, "soba", "soba-0.6.14"),
    (800, 2, "soba", "soba-0.6.14+newest-blockers"),
    (2000, 3, "soba", "soba-0.6.14"),
    (1200, 4, "truncation", "soba-0.6.14"),
    (1500, 5, "observation_masking", "soba-0.6.14+newest-blockers"),
    (1000, 6, "hybrid", "soba-0.6.14"),
    (2000, 7, "soba", "soba-0.6.14+newest-blockers"),
)


def dump(path: Path) -> None:
    """Replay and score every case under the imported ``soba_bench``; write each case's
    score records (canonical JSON) and its scoring CPU seconds to ``path``."""
    from soba_bench.compactors import CompactorContext, get_compactor
    from soba_bench.corpora.synthetic import SyntheticConfig, generate_session
    from soba_bench.engine.config import build_engine_config
    from soba_bench.replay.rules import ReplayOptions
    from soba_bench.scoring.session import score_replay

    out: list[dict[str, Any]] = []
    for entries, seed, strategy, variant in CASES:
        session, truth = generate_session(SyntheticConfig(entries=entries), seed=seed)
        ctx = CompactorContext(build_engine_config({}), ReplayOptions(variant=variant))
        trace = get_compactor(strategy)(session, ctx).trace
        tick = time.process_time()
        scores = score_replay("s", trace.entries, truth, None, trace.check_lines())
        seconds = time.process_time() - tick
        record = json.dumps(dataclasses.asdict(scores), sort_keys=True)
        out.append({"case": [entries, seed, strategy, variant], "scores": record, "cpu": seconds})
    path.write_text(json.dumps(out))


def run(root: Path | None, path: Path) -> list[dict[str, Any]]:
    """Dump in a subprocess importing soba_bench from ``root`` (None: this checkout)."""
    env = dict(os.environ)
    if root is not None:
        env["PYTHONPATH"] = str(root)
    cmd = [sys.executable, __file__, "--dump", str(path)]
    subprocess.run(cmd, check=True, env=env)
    loaded: list[dict[str, Any]] = json.loads(path.read_text())
    return loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, help="the checkout to compare this one to")
    parser.add_argument("--dump", type=Path, help="write this checkout's records here")
    args = parser.parse_args()
    if args.dump is not None:
        dump(args.dump)
        return
    if args.other is None:
        parser.error("give --other CHECKOUT (or --dump PATH)")
    with tempfile.TemporaryDirectory() as tmp:
        this = run(None, Path(tmp) / "this.json")
        other = run(args.other, Path(tmp) / "other.json")
    print(f"{'case':>44} {'this s':>7} {'other s':>8}  records")
    same = True
    for mine, theirs in zip(this, other, strict=True):
        equal = mine["scores"] == theirs["scores"]
        same &= equal
        case = " ".join(str(c) for c in mine["case"])
        print(
            f"{case:>44} {mine['cpu']:7.2f} {theirs['cpu']:8.2f}  "
            f"{'identical' if equal else 'DIFFERENT'} ({len(mine['scores'])} bytes)"
        )
    total = sum(m["cpu"] for m in this), sum(t["cpu"] for t in other)
    print(f"scoring CPU s, this / other: {total[0]:.1f} / {total[1]:.1f}")
    print("byte-identical" if same else "scores DIFFER")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
