"""The search space: SOBA engine keys and the values each may take.

Config shape (``configs/tune/space/*.yaml``), SOBA's key names verbatim::

    params:
      keepRecentTokens: {low: 4000, high: 32000, step: 4000}   # ordered, discrete
      minSavingsRatio: {values: [0.1, 0.25, 0.4]}              # an explicit list

Every parameter has finitely many values, so the grid strategy enumerates exactly what TPE
samples from (TPE sees ranges as ordered, lists as categorical).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from soba_bench.errors import InputError
from soba_bench.sweep.jobspec import COMPACTION_KEYS

# What tuning may change: the compaction thresholds (the window is the preset's, and the
# three switches auto/compactOnTurnComplete/compactOnMilestone are SOBA behaviour, not knobs).
TUNABLE_KEYS = tuple(
    k
    for k in COMPACTION_KEYS
    if k not in ("auto", "compactOnTurnComplete", "compactOnMilestone", "backgroundTimeoutMs")
)
MAX_GRID = 100_000


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class Param:
    name: str
    values: tuple[float | int, ...]
    ordered: bool  # a {low, high, step} range (TPE treats it as ordered)
    low: float | int | None = None
    high: float | int | None = None
    step: float | int | None = None

    @property
    def is_int(self) -> bool:
        return all(isinstance(v, int) for v in self.values)

    def to_dict(self) -> dict[str, Any]:
        if self.ordered:
            return {"low": self.low, "high": self.high, "step": self.step}
        return {"values": list(self.values)}


def _range(low: Any, high: Any, step: Any) -> tuple[float | int, ...]:
    count = round((high - low) / step) + 1
    values = [low + i * step for i in range(count)]
    if all(isinstance(x, int) for x in (low, high, step)):
        return tuple(int(v) for v in values)
    return tuple(round(v, 10) for v in values)


def _param(name: str, spec: Any, source: str) -> Param:
    field = f"space.params.{name}"
    if name not in TUNABLE_KEYS:
        raise InputError(
            "not a tunable engine key",
            path=source,
            field=field,
            expected="one of " + ", ".join(TUNABLE_KEYS),
        )
    if isinstance(spec, Mapping) and "values" in spec:
        values = spec["values"]
        if not isinstance(values, list | tuple) or not values or not all(map(_number, values)):
            raise InputError(
                "values must be a non-empty list of numbers",
                path=source,
                field=f"{field}.values",
                value=values,
                has_value=True,
            )
        return Param(name, tuple(dict.fromkeys(values)), ordered=False)
    if isinstance(spec, Mapping) and {"low", "high", "step"} <= set(spec):
        low, high, step = spec["low"], spec["high"], spec["step"]
        if not all(map(_number, (low, high, step))) or step <= 0 or high < low:
            raise InputError(
                "a range needs numbers with low <= high and step > 0",
                path=source,
                field=field,
                value=dict(spec),
                has_value=True,
            )
        if abs((high - low) / step - round((high - low) / step)) > 1e-9:
            raise InputError(
                "high - low must be a multiple of step",
                path=source,
                field=field,
                value=dict(spec),
                has_value=True,
            )
        return Param(name, _range(low, high, step), True, low, high, step)
    raise InputError(
        "a search parameter needs {values: [...]} or {low, high, step}",
        path=source,
        field=field,
        value=spec,
        has_value=True,
    )


@dataclass(frozen=True)
class Space:
    params: tuple[Param, ...]

    @property
    def size(self) -> int:
        size = 1
        for p in self.params:
            size *= len(p.values)
        return size

    def grid(self) -> Iterator[dict[str, float | int]]:
        """Every point, in a fixed order (the first parameter varies slowest)."""
        names = [p.name for p in self.params]
        for combo in itertools.product(*(p.values for p in self.params)):
            yield dict(zip(names, combo, strict=True))

    def to_dict(self) -> dict[str, Any]:
        return {p.name: p.to_dict() for p in self.params}


def parse_space(data: Mapping[str, Any], source: str = "tune space") -> Space:
    """Validate a search-space config (see module doc)."""
    params = (data or {}).get("params") if isinstance(data, Mapping) else None
    if not isinstance(params, Mapping) or not params:
        raise InputError(
            "the search space names no parameter",
            path=source,
            field="space.params",
            expected="a mapping of engine keys to {values: [...]} or {low, high, step}",
        )
    space = Space(tuple(_param(str(k), v, source) for k, v in params.items()))
    if space.size > MAX_GRID:
        raise InputError(
            "the search space is too large",
            path=source,
            field="space.params",
            value=space.size,
            has_value=True,
            expected=f"at most {MAX_GRID} points",
        )
    return space
