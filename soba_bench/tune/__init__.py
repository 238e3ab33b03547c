"""``soba-bench tune``: search SOBA's engine thresholds for one model window under an explicit
objective with enforced constraints, and recommend a config with evidence (intervals, runner-ups,
Pareto front, SOBA's defaults on the same sessions, a held-out re-check).

From a notebook: ``soba_bench.tune.load_recommendation("results/tune-<timestamp>")``.
"""

from soba_bench.tune.recommend import Recommendation, load_recommendation

__all__ = ["Recommendation", "load_recommendation"]
