"""Search strategies on a cheap stand-in objective: the grid visits every point once and
refuses to be cut short; seeded TPE is reproducible and homes in on the optimum."""

from __future__ import annotations

import pytest

from soba_bench.errors import InputError, UnknownNameError
from soba_bench.tune.objective import Evaluation
from soba_bench.tune.runner import Trial
from soba_bench.tune.search import run_search
from soba_bench.tune.space import parse_space

SPACE = parse_space(
    {
        "params": {
            "keepRecentTokens": {"low": 2000, "high": 40000, "step": 2000},
            "minSavingsRatio": {"values": [0.1, 0.25, 0.4]},
        }
    }
)


def fake(number, params):
    # best at keepRecentTokens=14000 with minSavingsRatio=0.25; 0.4 is "infeasible"
    value = -abs(params["keepRecentTokens"] - 14000) / 1000 - abs(params["minSavingsRatio"] - 0.25)
    feasible = params["minSavingsRatio"] != 0.4
    ev = Evaluation(feasible, value, () if feasible else ("x",), value if feasible else -1e12)
    return Trial(number, str(number), "search", dict(params), {}, "complete", ev)


def test_the_grid_visits_every_point_once():
    trials = run_search("grid", SPACE, fake, trials=100, seed=0)
    assert len(trials) == SPACE.size == 60
    assert len({tuple(t.params.items()) for t in trials}) == 60


def test_a_grid_larger_than_the_budget_is_refused():
    with pytest.raises(InputError) as info:
        run_search("grid", SPACE, fake, trials=59, seed=0)
    assert info.value.field == "search.trials" and "60 points" in str(info.value)


def test_seeded_tpe_is_reproducible():
    first = run_search("tpe", SPACE, fake, trials=30, seed=1, startup_trials=8)
    again = run_search("tpe", SPACE, fake, trials=30, seed=1, startup_trials=8)
    assert [t.params for t in first] == [t.params for t in again]


def test_seeded_tpe_homes_in_on_the_optimum_for_every_seed():
    """What TPE reliably does on the locked Optuna (2.10: univariate Parzen estimators), with a
    margin, over ten seeds rather than one lucky draw. Measured over 30 seeds: the optimal
    keepRecentTokens is found every time; the categorical minSavingsRatio (0.25 vs 0.1 costs
    0.15 of a value range of ~26) only in 17 of 30, so the best value is asserted to be within
    that one categorical step; after the start-up trials 68 % of samples (min 60 %) land within
    +-6000 of the optimum, against 35 % for uniform sampling of the 20 keepRecentTokens values."""
    shares = []
    for seed in range(10):
        trials = run_search("tpe", SPACE, fake, trials=30, seed=seed, startup_trials=8)
        best = max((t for t in trials if t.evaluation.feasible), key=lambda t: t.evaluation.value)
        assert best.params["keepRecentTokens"] == 14000, seed
        assert best.evaluation.value >= -0.15, seed
        late = [t.params["keepRecentTokens"] for t in trials[15:]]
        shares.append(sum(abs(k - 14000) <= 6000 for k in late) / len(late))
    assert sum(shares) / len(shares) > 0.5, shares


def test_unknown_strategies_and_budgets_are_input_errors():
    with pytest.raises(UnknownNameError, match="grid, tpe"):
        run_search("random", SPACE, fake, trials=5, seed=0)
    with pytest.raises(InputError):
        run_search("tpe", SPACE, fake, trials=0, seed=0)
