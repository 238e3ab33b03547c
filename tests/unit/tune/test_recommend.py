"""The recommendation: ranking among feasible trials only, the Pareto front, the document's
schema, and load_recommendation for notebooks (with errors for files that are not one)."""

from __future__ import annotations

import pytest

from soba_bench.errors import InputError
from soba_bench.tune.metrics import TUNE_METRICS, Estimate
from soba_bench.tune.objective import parse_objective
from soba_bench.tune.recommend import (
    SCHEMA_VERSION,
    build,
    load_recommendation,
    pareto_front,
    ranked,
    write_recommendation,
)
from soba_bench.tune.report import render
from soba_bench.tune.runner import Trial, check_engine

OBJECTIVE = parse_objective(
    {
        "metric": "availability",
        "constraints": [{"metric": "savings", "op": ">=", "value": 0.3}],
        "tie_breakers": ["savings"],
    }
)


def trial(number, savings, availability, status="complete", repeat_of=None):
    metrics = {n: Estimate(None, None, None, 0) for n in TUNE_METRICS}
    metrics["savings"] = Estimate(savings, savings, savings, 2)
    metrics["availability"] = Estimate(availability, availability, availability, 2)
    per_session = {
        "c/a": {"savings": savings, "availability": availability},
        "c/b": {"savings": savings, "availability": availability},
    }
    ev = OBJECTIVE.evaluate(metrics) if status == "complete" else None
    if ev is None:
        from soba_bench.tune.objective import Evaluation

        ev = Evaluation(False, None, ("invalid",), -2e12)
    params = {"keepRecentTokens": 1000 * (number + 1)}
    return Trial(
        number,
        f"t{number}",
        "search",
        params,
        {"keepRecentTokens": params["keepRecentTokens"]},
        status,
        ev,
        metrics,
        per_session,
        repeat_of=repeat_of,
    )


TRIALS = [
    trial(0, 0.5, 0.90),
    trial(1, 0.2, 0.99),  # best availability, but infeasible: never recommended
    trial(2, 0.4, 0.95),
    trial(3, 0.6, 0.95),  # same availability as 2, more savings: wins the tie-break
    trial(4, 0.6, 0.95, repeat_of=3),
    trial(5, 0.0, 0.0, status="invalid"),
]


def test_only_feasible_trials_are_ranked_with_tie_breakers():
    assert [t.number for t in ranked(TRIALS, OBJECTIVE)] == [3, 2, 0]


def test_the_pareto_front_keeps_the_undominated_complete_trials():
    assert [t.number for t in pareto_front(TRIALS)] == [1, 3]


def document(tmp_path):
    return build(
        settings={
            "window": {"name": "128k", "contextWindow": 128000, "maxOutputTokens": 32768},
            "search": {"strategy": "grid", "seed": 0},
            "spaceSize": 6,
        },
        objective=OBJECTIVE,
        trials=TRIALS,
        split={"seed": 0, "heldOutFraction": 0.3, "search": ["c/a", "c/b"], "heldOut": ["c/c"]},
        baseline=(trial(-1, 0.45, 0.93), trial(-1, 0.4, 0.9)),
        chosen_held=trial(3, 0.5, 0.96),
        runner_ups=1,
        root=tmp_path,
        stats={"seed": 0, "resamples": 100, "confidence": 0.95},
        wall_seconds=1.0,
    )


def test_the_document_holds_the_choice_its_evidence_and_the_held_out_check(tmp_path):
    doc = document(tmp_path)
    assert doc["schema_version"] == SCHEMA_VERSION
    assert doc["recommended"]["params"] == {"keepRecentTokens": 4000}
    assert doc["recommended"]["heldOut"]["metrics"]["availability"]["value"] == 0.96
    assert doc["baseline"]["search"]["metrics"]["savings"]["value"] == 0.45
    assert [t["trial"] for t in doc["runnerUps"]] == [2]
    assert doc["search"] == {
        "trials": 6,
        "distinctConfigs": 5,
        "feasible": 3,
        "complete": 4,
        "invalid": 1,
        "failed": 0,
        "wallSeconds": 1.0,
    }
    delta = doc["comparison"]["search"]["savings"]
    assert delta["delta"] == pytest.approx(0.6 - 0.45)
    text = render(doc)
    assert "Recommended: `keepRecentTokens=4000`" in text
    assert "Held-out check: the recommendation meets the constraints" in text
    assert "| savings ↑ | 0.600 | 0.450 | 0.500 | 0.400 |" in text
    assert "| refused ↓ | - | - | - | - |" in text  # not measured by these stand-ins


def test_load_recommendation_reads_what_was_written(tmp_path):
    doc = document(tmp_path)
    write_recommendation(tmp_path, doc)
    rec = load_recommendation(tmp_path)
    assert rec.params == {"keepRecentTokens": 4000}
    assert rec.overrides() == ["engine.keepRecentTokens=4000"]
    assert rec.metrics("heldOut")["availability"]["value"] == 0.96
    assert rec.metrics("search", "baseline")["savings"]["value"] == 0.45


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("{", "not valid JSON"),
        ('{"kind": "other"}', "not a soba-bench tune recommendation"),
        ('{"kind": "soba-bench-tune-recommendation", "schema_version": 99}', "schema version"),
    ],
)
def test_load_recommendation_refuses_other_files(tmp_path, content, match):
    path = tmp_path / "recommendation.json"
    path.write_text(content)
    with pytest.raises(InputError, match=match):
        load_recommendation(path)
    with pytest.raises(InputError, match="not found"):
        load_recommendation(tmp_path / "missing.json")


def test_configs_soba_would_reject_or_rewrite_are_invalid():
    base = {"contextWindow": 64000, "maxOutputTokens": 8192}
    assert check_engine({**base, "keepRecentTokens": 8000}) is None
    assert "keepRecentTokens must be < hardLimit" in check_engine(
        {**base, "keepRecentTokens": 60000}
    )
    assert "maxOutputTokens + safetyReserveTokens" in check_engine(
        {**base, "safetyReserveTokens": 60000}
    )
    assert "autoCompactThresholdRatio" in check_engine({**base, "autoCompactThresholdRatio": 1.0})
    assert "timeoutMs must be > 0" in check_engine({**base, "timeoutMs": 0})


def test_when_nothing_is_feasible_the_closest_miss_is_reported(tmp_path):
    infeasible = [trial(0, 0.1, 0.99), trial(1, 0.25, 0.9), trial(2, 0.0, 0.0, status="invalid")]
    doc = build(
        settings={
            "window": {"name": "1m", "contextWindow": 10**6, "maxOutputTokens": 65536},
            "search": {"strategy": "grid", "seed": 0},
            "spaceSize": 3,
        },
        objective=OBJECTIVE,
        trials=infeasible,
        split={"seed": 0, "heldOutFraction": 0.0, "search": ["c/a", "c/b"], "heldOut": []},
        baseline=(trial(-1, 0.2, 0.93), None),
        chosen_held=None,
        runner_ups=3,
        root=tmp_path,
        stats={"seed": 0, "resamples": 100, "confidence": 0.95},
        wall_seconds=1.0,
    )
    assert doc["recommended"] is None and doc["noFeasibleConfig"] is True
    assert doc["comparison"] is None and doc["runnerUps"] == []
    assert doc["closest"]["trial"] == 1  # misses savings >= 0.3 by 0.05, trial 0 by 0.2
    text = render(doc)
    assert "No config met every constraint" in text
    assert "Closest: trial 1" in text and "savings >= 0.3 (got 0.25)" in text
