"""Search strategies: ``grid`` (every point of the space, in a fixed order) and ``tpe``
(Optuna's TPE sampler, seeded, driven trial by trial in this process through Optuna's
ask-and-tell interface).

Why Optuna directly rather than Hydra's Optuna sweeper: the sweeper launches each trial as a
Hydra job and only learns the number the job returns, so (1) trials could not share this
process's parsed-session cache, (2) constraints and configs SOBA rejects would have to be
folded into that one number inside the job, and (3) the held-out re-evaluation and the
baseline would run outside the search anyway. The sampler is the same (TPE, same seed, same
space); sequential ask/tell makes a run reproducible trial for trial.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable

from soba_bench.errors import InputError, SobaBenchError
from soba_bench.registry import Registry
from soba_bench.tune.runner import Params, Trial
from soba_bench.tune.space import Param, Space

log = logging.getLogger("soba_bench.tune.search")

Evaluate = Callable[[int, Params], Trial]
Searcher = Callable[..., list[Trial]]
SEARCHERS: Registry[Searcher] = Registry("search strategy")


@SEARCHERS.register("grid")
def grid_search(
    space: Space, evaluate: Evaluate, *, trials: int, seed: int = 0, **_: object
) -> list[Trial]:
    """Every point; refuses a grid larger than the trial budget rather than cutting it."""
    if space.size > trials:
        raise InputError(
            f"the grid has {space.size} points, more than the trial budget",
            field="search.trials",
            value=trials,
            has_value=True,
            expected=f">= {space.size}, a smaller space, or search.strategy=tpe",
        )
    return [evaluate(i, params) for i, params in enumerate(space.grid())]


def _suggest(trial, param: Param) -> float | int:
    if not param.ordered:
        return trial.suggest_categorical(param.name, list(param.values))
    if param.is_int:
        return trial.suggest_int(param.name, param.low, param.high, step=param.step)
    value = trial.suggest_float(param.name, param.low, param.high, step=param.step)
    # the grid's value, not a float a rounding error away from it
    return min(param.values, key=lambda v: abs(v - value))


@SEARCHERS.register("tpe")
def tpe_search(
    space: Space,
    evaluate: Evaluate,
    *,
    trials: int,
    seed: int = 0,
    startup_trials: int = 8,
    **_: object,
) -> list[Trial]:
    """Seeded TPE over the space; the sampler maximises each trial's guidance value
    (the objective when feasible, a value below every feasible trial otherwise)."""
    with warnings.catch_warnings():
        # optuna 2.x warns about its SQLAlchemy models on import; no storage is used here
        warnings.simplefilter("ignore")
        try:
            import optuna
        except ImportError as exc:
            raise SobaBenchError(
                "search.strategy=tpe needs Optuna: pip install -e '.[tune]' "
                "(or use search.strategy=grid)"
            ) from exc

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup_trials)
        study = optuna.create_study(direction="maximize", sampler=sampler)
    done: list[Trial] = []
    for number in range(trials):
        asked = study.ask()
        params = {p.name: _suggest(asked, p) for p in space.params}
        trial = evaluate(number, params)
        study.tell(asked, trial.evaluation.guidance)
        done.append(trial)
    return done


def run_search(
    strategy: str, space: Space, evaluate: Evaluate, *, trials: int, seed: int, **options: object
) -> list[Trial]:
    if isinstance(trials, bool) or not isinstance(trials, int) or trials < 1:
        raise InputError(
            "the trial budget must be a positive integer",
            field="search.trials",
            value=trials,
            has_value=True,
        )
    return SEARCHERS.get(strategy)(space, evaluate, trials=trials, seed=seed, **options)
