"""Objectives: parsing with errors that name the field, enforced constraints, directions,
tie-breakers, and the sampler's guidance value that ranks every infeasible trial lower."""

from __future__ import annotations

import pytest

from soba_bench.errors import InputError
from soba_bench.tune.metrics import TUNE_METRICS, Estimate
from soba_bench.tune.objective import parse_objective


def metrics(**values):
    return {name: Estimate(values.get(name), None, None, 1) for name in TUNE_METRICS}


BASE = {
    "metric": "availability",
    "constraints": [
        {"metric": "savings", "op": ">=", "value": 0.3},
        {"metric": "refused", "op": "==", "value": 0},
    ],
    "tie_breakers": ["savings"],
}


def test_a_config_meeting_every_constraint_is_feasible_and_scored_by_its_metric():
    objective = parse_objective(BASE)
    ev = objective.evaluate(metrics(availability=0.9, savings=0.5, refused=0))
    assert ev.feasible and ev.value == 0.9 and ev.violations == () and ev.guidance == 0.9


def test_a_constraint_is_enforced_not_weighed():
    objective = parse_objective(BASE)
    great_but_refusing = objective.evaluate(metrics(availability=1.0, savings=0.9, refused=3))
    poor_but_feasible = objective.evaluate(metrics(availability=0.1, savings=0.31, refused=0))
    assert not great_but_refusing.feasible
    assert great_but_refusing.violations == ("refused == 0 (got 3)",)
    assert great_but_refusing.guidance < poor_but_feasible.guidance
    # missing a bound by more ranks lower for the sampler
    worse = objective.evaluate(metrics(availability=1.0, savings=0.9, refused=30))
    assert worse.guidance < great_but_refusing.guidance


def test_a_metric_that_could_not_be_computed_breaks_its_constraint():
    objective = parse_objective(BASE)
    ev = objective.evaluate(metrics(availability=0.9, savings=None, refused=0))
    assert not ev.feasible and "savings >= 0.3 (got n/a)" in ev.violations[0]
    ev = objective.evaluate(metrics(availability=None, savings=0.5, refused=0))
    assert not ev.feasible and ev.violations == ("availability could not be computed",)


def test_minimize_and_tie_breakers_order_configs():
    objective = parse_objective(
        {"metric": "input_tokens", "direction": "minimize", "tie_breakers": ["availability"]}
    )
    small = objective.sort_key(metrics(input_tokens=100.0, availability=0.5))
    large = objective.sort_key(metrics(input_tokens=200.0, availability=0.9))
    tied_better = objective.sort_key(metrics(input_tokens=100.0, availability=0.6))
    assert small > large
    assert tied_better > small
    assert objective.evaluate(metrics(input_tokens=100.0)).guidance == -100.0


@pytest.mark.parametrize(
    ("data", "field", "needle"),
    [
        ({"metric": "recal"}, "objective.metric", "availability"),
        ({"metric": "savings", "direction": "up"}, "objective.direction", "maximize"),
        (
            {"metric": "savings", "constraints": [{"metric": "refused", "op": "=", "value": 0}]},
            "objective.constraints[0].op",
            ">=",
        ),
        (
            {"metric": "savings", "constraints": [{"metric": "refused", "op": "==", "value": "0"}]},
            "objective.constraints[0].value",
            "a number",
        ),
        (
            {"metric": "savings", "constraints": [{"metric": "nope", "op": "==", "value": 0}]},
            "objective.constraints[0].metric",
            "savings",
        ),
        ({"metric": "savings", "tie_breakers": ["x"]}, "objective.tie_breakers[0]", "savings"),
    ],
)
def test_bad_objectives_name_the_field_and_what_is_accepted(data, field, needle):
    with pytest.raises(InputError) as info:
        parse_objective(data, "objective.yaml")
    assert info.value.field == field
    assert needle in str(info.value) and "objective.yaml" in str(info.value)


def test_every_shipped_objective_parses():
    from pathlib import Path

    import yaml

    folder = Path(__file__).resolve().parents[3] / "configs" / "tune" / "objective"
    names = sorted(p.stem for p in folder.glob("*.yaml"))
    assert "availability_at_savings" in names and len(names) >= 4
    for path in folder.glob("*.yaml"):
        objective = parse_objective(yaml.safe_load(path.read_text()), str(path))
        assert objective.name == path.stem
        assert any(c.metric == "refused" for c in objective.constraints)
