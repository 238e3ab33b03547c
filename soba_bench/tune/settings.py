"""A tuning run's settings, validated once: the window, the objective, the search space and
strategy, the split and the statistics (``configs/tune/default.yaml`` and its groups)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from soba_bench.errors import InputError
from soba_bench.tune.objective import Objective, parse_objective
from soba_bench.tune.search import SEARCHERS
from soba_bench.tune.space import Space, parse_space

WINDOW_KEYS = ("contextWindow", "maxOutputTokens", "systemPromptTokens", "toolSchemaTokens")


@dataclass(frozen=True)
class TuneSettings:
    window_name: str
    window: dict[str, int]  # SOBA's top-level keys the window preset sets
    objective: Objective
    space: Space
    strategy: str
    trials: int
    seed: int
    startup_trials: int
    held_out: float
    split_seed: int
    runner_ups: int
    resamples: int
    confidence: float
    source: dict[str, Any]  # the composed tune config, for the record
    # Keys taken out of the space because the summarizer makes them inert: key -> why.
    left_out: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "window": {"name": self.window_name, **self.window},
            "objective": self.objective.to_dict(),
            "space": self.space.to_dict(),
            "spaceSize": self.space.size,
            "search": {
                "strategy": self.strategy,
                "trials": self.trials,
                "seed": self.seed,
                "startupTrials": self.startup_trials,
            },
            "split": {"heldOut": self.held_out, "seed": self.split_seed},
            "statistics": {"resamples": self.resamples, "confidence": self.confidence},
            **({"leftOut": dict(self.left_out)} if self.left_out else {}),
        }


def _int(section: Mapping[str, Any], key: str, where: str, minimum: int = 0) -> int:
    value = section.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(
            "setting must be an integer",
            path="tune config",
            field=f"{where}.{key}",
            value=value,
            has_value=True,
            expected=f"an integer >= {minimum}",
        )
    return value


def _section(cfg: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = cfg.get(key)
    if not isinstance(value, Mapping):
        raise InputError("missing tune config section", path="tune config", field=key)
    return value


def parse_settings(cfg: Mapping[str, Any]) -> TuneSettings:
    """Validate a composed tune config (plain data)."""
    window = _section(cfg, "window")
    values = {k: window[k] for k in WINDOW_KEYS if k in window}
    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise InputError(
                "window size must be a positive integer",
                path="tune config",
                field=f"window.{key}",
                value=value,
                has_value=True,
            )
    if "contextWindow" not in values:
        raise InputError("the window preset sets no contextWindow", field="window.contextWindow")
    search = _section(cfg, "search")
    # Any config value until the registry accepts it (an unknown name fails with the valid ones).
    strategy: Any = search.get("strategy")
    SEARCHERS.get(strategy)
    split = _section(cfg, "split")
    held = split.get("held_out")
    if isinstance(held, bool) or not isinstance(held, int | float) or not 0 <= held < 1:
        raise InputError(
            "held-out fraction must be >= 0 and < 1",
            path="tune config",
            field="split.held_out",
            value=held,
            has_value=True,
        )
    report = _section(cfg, "report")
    confidence = report.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, float) or not 0 < confidence < 1:
        raise InputError(
            "confidence must be between 0 and 1",
            path="tune config",
            field="report.confidence",
            value=confidence,
            has_value=True,
        )
    return TuneSettings(
        window_name=str(window.get("name") or ""),
        window=values,
        objective=parse_objective(_section(cfg, "objective"), "tune config (objective)"),
        space=parse_space(_section(cfg, "space"), "tune config (space)"),
        strategy=strategy,
        trials=_int(search, "trials", "search", 1),
        seed=_int(search, "seed", "search"),
        startup_trials=_int(search, "startup_trials", "search", 1),
        held_out=float(held),
        split_seed=_int(split, "seed", "split"),
        runner_ups=_int(report, "runner_ups", "report"),
        resamples=_int(report, "resamples", "report", 1),
        confidence=confidence,
        source=dict(cfg),
    )
