"""Each matcher on the labelled calibration set: accuracy and macro-F1 per category, on the
dev split (the default matcher's rules were written looking at it), the held-out split
(written with the rules frozen), the fresh split (written before the hybrid default was
built), the fresh2 split (committed before the round-2 rule fixes were measured on it), the
fresh3 split (committed before the round-3 rule fixes were measured on it), the fresh4 split
(written by a session that never read the matcher, committed before any matcher ran on it;
blind for round 4), the fresh5 split (likewise, blind for round 5), and the fresh6 to fresh9
splits (likewise, each measured once after the last change; every split file is measured by
default); the tails split (each bank's wrong-subject item said behind its split's speaker
lead-in in a retained tail, where the other splits hold it in a capsule section); and the generated
known-answer cases (``generated``: each prose fact of generated sessions against the message
that introduced it, and against other facts' messages that share a word with it; see
``calibration.generated_cases``). See tests/data/calibration/README.md.

    python benchmarks/matcher_calibration.py [--matchers verdict-embedding verdict fuzzy]
        [--splits dev heldout fresh fresh2 ... fresh9 generated]
        [--errors]

A matcher whose model is not installed is reported as unavailable rather than failing the
run. ``--errors`` lists the default matcher's wrong cases.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from soba_bench.errors import SobaBenchError
from soba_bench.scoring import calibration
from soba_bench.scoring.matchers import DEFAULT_MATCHER, MATCHERS, get_matcher

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "calibration"


def written_splits() -> list[str]:
    """Every split file of the calibration set, in the order they were written: dev, heldout,
    fresh, fresh2, fresh3, ... (a new blind split is measured without naming it)."""
    order = {"dev": -2, "heldout": -1, "fresh": 1, "tails": 1_000}  # tails: from every bank
    names = [p.stem for p in DATA.glob("*.jsonl")]
    return sorted(names, key=lambda n: order[n] if n in order else int(n.removeprefix("fresh")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matchers", nargs="+", default=MATCHERS.names())
    parser.add_argument("--splits", nargs="+", default=[*written_splits(), "generated"])
    parser.add_argument("--errors", action="store_true")
    args = parser.parse_args()
    try:
        splits = {
            s: (
                calibration.generated_cases()
                if s == "generated"
                else calibration.load_cases(DATA / f"{s}.jsonl")
            )
            for s in args.splits
        }
        matchers = {name: get_matcher(name) for name in args.matchers}
    except SobaBenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for split, cases in splits.items():
        print(f"\n== {split}: {len(cases)} cases")
        for (category, label), n in sorted(calibration.counts(cases).items()):
            print(f"   {category:14s} {label:13s} {n:4d}")
    for split, cases in splits.items():
        results = {}
        for name, matcher in matchers.items():
            start = time.perf_counter()
            try:
                outcomes = calibration.run(matcher, cases)
            except SobaBenchError as exc:
                print(f"\n{name} on {split}: unavailable ({exc})")
                continue
            elapsed = time.perf_counter() - start
            results[name] = calibration.table(outcomes)
            print(f"\n{name} on {split}: {elapsed * 1000 / len(cases):.2f} ms per case")
            if args.errors and name == DEFAULT_MATCHER:
                for o in outcomes:
                    if not o.correct:
                        print(
                            f"   {o.case.id} {o.case.category}: want {o.case.label}, "
                            f"got {o.verdict.label} ({o.verdict.reason})"
                        )
        if not results:
            continue
        names = list(results)
        print(f"\n{split}: accuracy / macro-F1 per category")
        print(f"{'category':14s} {'n':>4s} " + " ".join(f"{n:>17s}" for n in names))
        for i, row in enumerate(results[names[0]]):
            cells = " ".join(
                f"{results[n][i].accuracy:8.3f} /{results[n][i].f1:7.3f}" for n in names
            )
            hard = "*" if row.category in calibration.HARD else " "
            print(f"{row.category:13s}{hard} {row.n:4d} {cells}")
        print("(* hard category; the default matcher must reach 0.90 accuracy on each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
