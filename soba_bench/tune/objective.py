"""A tuning objective: one metric to maximise or minimise, and hard constraints on others.

Constraints are enforced, not weighed: a trial that breaks one is infeasible and can never be
recommended, whatever its objective value. (The TPE sampler still needs one number per trial
to learn from; :meth:`Objective.guidance` ranks every infeasible trial below every feasible
one, by how far it misses, and says so in the trials table.)

Config shape (``configs/tune/objective/*.yaml``)::

    name: availability_at_savings
    metric: availability
    direction: maximize          # maximize | minimize
    constraints:
      - {metric: savings, op: ">=", value: 0.1}
      - {metric: refused, op: "==", value: 0}
    tie_breakers: [savings]      # compared in order when objective values are equal
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from soba_bench.errors import InputError
from soba_bench.tune.metrics import TUNE_METRICS, Estimate

OPS = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    ">": operator.gt,
    "<": operator.lt,
}
DIRECTIONS = ("maximize", "minimize")
# Far below any feasible objective value (metrics are ratios, scores, counts or tokens).
INFEASIBLE_FLOOR = 1e12


@dataclass(frozen=True)
class Constraint:
    metric: str
    op: str
    value: float

    def slack(self, actual: float | None) -> float:
        """How far ``actual`` is from satisfying the constraint (0 when it does; infinity
        when the metric could not be computed)."""
        if actual is None or (isinstance(actual, float) and math.isnan(actual)):
            return math.inf
        if OPS[self.op](actual, self.value):
            return 0.0
        return abs(actual - self.value) or 1e-9  # a strict bound missed exactly

    def __str__(self) -> str:
        return f"{self.metric} {self.op} {self.value:g}"


@dataclass(frozen=True)
class Evaluation:
    """One trial against the objective: feasible or not, why not, and the numbers compared."""

    feasible: bool
    value: float | None
    violations: tuple[str, ...]
    guidance: float  # what the sampler maximises (see module doc)


@dataclass(frozen=True)
class Objective:
    name: str
    metric: str
    direction: str
    constraints: tuple[Constraint, ...]
    tie_breakers: tuple[str, ...] = ()

    def evaluate(self, metrics: Mapping[str, Estimate]) -> Evaluation:
        """Check the constraints and read the objective from corpus metrics."""
        value = metrics[self.metric].value
        violations = []
        missing = 0.0
        for c in self.constraints:
            slack = c.slack(metrics[c.metric].value)
            if slack:
                actual = metrics[c.metric].value
                shown = "n/a" if actual is None else f"{actual:g}"
                violations.append(f"{c} (got {shown})")
                missing += slack if math.isfinite(slack) else INFEASIBLE_FLOOR
        if value is None:
            violations.append(f"{self.metric} could not be computed")
        feasible = not violations
        if feasible and value is not None:  # a missing value is a violation
            guidance = self.signed(value)
        else:
            guidance = -INFEASIBLE_FLOOR - missing
        return Evaluation(feasible, value, tuple(violations), guidance)

    def signed(self, value: float) -> float:
        return value if self.direction == "maximize" else -value

    def sort_key(self, metrics: Mapping[str, Estimate]) -> tuple[float, ...]:
        """Larger is better: the objective, then each tie-breaker in its own direction."""
        key = [self.signed(metrics[self.metric].value or 0.0)]
        for name in self.tie_breakers:
            spec = TUNE_METRICS.get(name)
            v = metrics[name].value
            v = -math.inf if v is None else (v if spec.higher_is_better else -v)
            key.append(v)
        return tuple(key)

    def describe(self) -> str:
        text = f"{self.direction} {self.metric}"
        if self.constraints:
            text += " subject to " + ", ".join(str(c) for c in self.constraints)
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "metric": self.metric,
            "direction": self.direction,
            "constraints": [
                {"metric": c.metric, "op": c.op, "value": c.value} for c in self.constraints
            ],
            "tieBreakers": list(self.tie_breakers),
            "text": self.describe(),
        }


def _metric(name: Any, field: str, source: str) -> str:
    if not isinstance(name, str) or name not in TUNE_METRICS:
        raise InputError(
            "unknown tune metric",
            path=source,
            field=field,
            value=name,
            has_value=True,
            expected="one of " + ", ".join(TUNE_METRICS.names()),
        )
    return name


def parse_objective(data: Mapping[str, Any], source: str = "tune objective") -> Objective:
    """Validate an objective config (see module doc); errors name the field and value."""
    if not isinstance(data, Mapping):
        raise InputError("objective must be a mapping", path=source, value=data, has_value=True)
    metric = _metric(data.get("metric"), "objective.metric", source)
    direction = data.get("direction", "maximize")
    if direction not in DIRECTIONS:
        raise InputError(
            "unknown objective direction",
            path=source,
            field="objective.direction",
            value=direction,
            has_value=True,
            expected=" or ".join(DIRECTIONS),
        )
    constraints = []
    for i, item in enumerate(data.get("constraints") or []):
        where = f"objective.constraints[{i}]"
        if not isinstance(item, Mapping):
            raise InputError("constraint must be a mapping", path=source, field=where)
        op = item.get("op")
        if op not in OPS:
            raise InputError(
                "unknown constraint operator",
                path=source,
                field=f"{where}.op",
                value=op,
                has_value=True,
                expected="one of " + ", ".join(OPS),
            )
        bound = item.get("value")
        if isinstance(bound, bool) or not isinstance(bound, int | float):
            raise InputError(
                "constraint bound must be a number",
                path=source,
                field=f"{where}.value",
                value=bound,
                has_value=True,
                expected="a number",
            )
        constraints.append(
            Constraint(_metric(item.get("metric"), f"{where}.metric", source), op, float(bound))
        )
    ties = data.get("tie_breakers") or []
    ties = tuple(_metric(t, f"objective.tie_breakers[{i}]", source) for i, t in enumerate(ties))
    return Objective(
        name=str(data.get("name") or metric),
        metric=metric,
        direction=direction,
        constraints=tuple(constraints),
        tie_breakers=ties,
    )
