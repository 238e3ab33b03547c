"""The validity test of ``soba-bench tune``: on a generated corpus where the best setting is
known by construction, both search strategies find it.

Construction (SOBA's own rules, engine.md c/d/n), on a 1M window (hard limit 926,272):

- the soft limit is ``min(hard - 1, max(minTokensForAutoCompact, floor(hard * ratio)))``;
  with ``autoCompactThresholdRatio=0.01`` it is ``minTokensForAutoCompact`` itself;
- every soft trigger skips below the soft limit, and the hard limit is never reached, so a
  ``minTokensForAutoCompact`` above every session's peak effective tokens means no
  compaction at all: savings exactly 0 (the probe below measures the peaks first);
- ``keepRecentTokens`` at or above the hard limit is a config SOBA rejects or rewrites:
  infeasible;
- ``timeoutMs`` cannot matter to the deterministic strategy (no model, no wait).

So under "maximise savings subject to zero refused requests" the only configs with positive
savings, and hence the optimum, are minTokensForAutoCompact=24000 with
keepRecentTokens=20000 (any timeoutMs, which the test checks change nothing).
"""

from __future__ import annotations

import copy
import json

import pytest

from soba_bench.corpora.synthetic.config import SyntheticConfig
from soba_bench.corpora.synthetic.generate import generate_corpus
from soba_bench.sweep.app import compose_config
from soba_bench.tune.objective import parse_objective
from soba_bench.tune.pipeline import run_tune
from soba_bench.tune.runner import Evaluator
from soba_bench.tune.settings import parse_settings

WINDOW = {"contextWindow": 1_000_000, "maxOutputTokens": 65_536}
HARD_LIMIT = 1_000_000 - 65_536 - 8_192
BEST_MIN_TOKENS = 24_000
TOO_HIGH = [48_000, 56_000, 64_000, 80_000, 96_000, 128_000, 200_000]  # above every peak
VALID_KEEP = 20_000
OBJECTIVE = {
    "name": "savings",
    "metric": "savings",
    "direction": "maximize",
    "constraints": [{"metric": "refused", "op": "==", "value": 0}],
}


# the best value sits in the middle of the list, not at an edge
MIN_TOKENS = [*TOO_HIGH[:3], BEST_MIN_TOKENS, *TOO_HIGH[3:]]
PARAMS = {
    "minTokensForAutoCompact": {"values": MIN_TOKENS},
    "keepRecentTokens": {"values": [HARD_LIMIT, HARD_LIMIT + 50_000, VALID_KEEP, 999_000]},
    "timeoutMs": {"values": [5_000, 15_000, 30_000, 60_000]},
}


def settings(strategy: str, trials: int, seed: int = 0, objective=OBJECTIVE, params=PARAMS):
    return parse_settings(
        {
            "window": {"name": "1m", **WINDOW},
            "space": {"params": params},
            "objective": objective,
            "search": {"strategy": strategy, "trials": trials, "seed": seed, "startup_trials": 8},
            "split": {"held_out": 0.0, "seed": 0},
            "report": {"runner_ups": 3, "resamples": 50, "confidence": 0.95},
        }
    )


@pytest.fixture(scope="module")
def known(tmp_path_factory):
    root = tmp_path_factory.mktemp("known")
    corpus = root / "corpus"
    config = SyntheticConfig(entries=300, large_outputs_per_1k=0.0)
    generate_corpus(corpus, config, seed=5, sessions=2, name="known")
    job = compose_config(
        ["corpus=path", f"corpus.paths=[{corpus}]", "scorer=none", f"paths.cache_dir={root}"]
    )
    job["engine"].update(WINDOW, autoCompactThresholdRatio=0.01)
    return root, corpus, job


def test_the_construction_holds(known):
    """The premises: every session peaks between the best value and the first value above
    it when compaction cannot happen, and the hard limit is far away."""
    root, corpus, job = known
    probe = Evaluator(job, {"search": [corpus]}, root / "probe", parse_objective(OBJECTIVE))
    trial = probe.run(0, {"minTokensForAutoCompact": 900_000})
    rows = [json.loads(x) for x in (trial.folder / "sessions.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    for row in rows:
        assert row["attempts"] == 0
        assert BEST_MIN_TOKENS < row["maxEffectiveTokens"] < min(TOO_HIGH) < HARD_LIMIT


@pytest.mark.parametrize(("strategy", "trials"), [("grid", 8 * 4 * 4), ("tpe", 40)])
def test_the_search_finds_the_optimum_known_by_construction(known, strategy, trials):
    root, _, job = known
    result = run_tune(settings(strategy, trials), job, root / strategy)
    rec = result.recommendation["recommended"]
    assert rec is not None
    assert rec["params"]["minTokensForAutoCompact"] == BEST_MIN_TOKENS
    assert rec["params"]["keepRecentTokens"] == VALID_KEEP
    best = rec["search"]["metrics"]["savings"]["value"]
    assert best > 0
    distinct = [t for t in result.trials if t.repeat_of is None]
    for trial in distinct:
        keep = trial.params["keepRecentTokens"]
        if keep != VALID_KEEP:
            assert trial.status == "invalid" and not trial.evaluation.feasible
        elif trial.params["minTokensForAutoCompact"] != BEST_MIN_TOKENS:
            assert trial.metrics["savings"].value == 0.0
            assert trial.metrics["attempts"].value == 0
        else:  # timeoutMs changes nothing for the deterministic strategy
            assert trial.metrics["savings"].value == pytest.approx(best, abs=0)
    if strategy == "grid":
        assert len(distinct) == 8 * 4 * 4
        assert result.recommendation["search"]["invalid"] == 8 * 4 * 3


def test_tpe_with_the_same_seed_asks_for_the_same_configs(known):
    root, _, job = known
    runs = [run_tune(settings("tpe", 12, seed=3), job, root / f"again-{i}") for i in range(2)]
    assert [t.params for t in runs[0].trials] == [t.params for t in runs[1].trials]
    other = run_tune(settings("tpe", 12, seed=4), job, root / "other-seed")
    assert [t.params for t in other.trials] != [t.params for t in runs[0].trials]


def test_with_no_savings_asked_availability_chooses_a_config_that_never_compacts(known):
    """The headline's own known answer: a config that never compacts sends the whole history
    at every request, so the model sees every live fact (availability exactly 1.0); the one
    config that compacts replaces history with the deterministic capsule, which restates
    only part of it. Maximising availability with no savings asked must therefore choose a
    config that never compacts, the opposite of the savings objective above."""
    root, _, job = known
    job = copy.deepcopy(job)
    job["scorer"].update(scorers=["availability"], baselines=[])
    objective = {
        "name": "availability",
        "metric": "availability",
        "direction": "maximize",
        "constraints": [{"metric": "refused", "op": "==", "value": 0}],
    }
    params = {
        "minTokensForAutoCompact": {"values": MIN_TOKENS},
        "keepRecentTokens": {"values": [VALID_KEEP]},
    }
    result = run_tune(
        settings("grid", len(MIN_TOKENS), objective=objective, params=params),
        job,
        root / "availability",
    )
    metrics = {t.params["minTokensForAutoCompact"]: t.metrics for t in result.trials}
    assert sorted(metrics) == sorted(MIN_TOKENS)
    for value in TOO_HIGH:
        assert metrics[value]["attempts"].value == 0
        assert metrics[value]["availability"].value == 1.0
    compacting = metrics[BEST_MIN_TOKENS]
    assert compacting["savings"].value > 0 and compacting["attempts"].value > 0
    assert compacting["availability"].value < 1.0
    rec = result.recommendation["recommended"]
    assert rec["params"]["minTokensForAutoCompact"] in TOO_HIGH
