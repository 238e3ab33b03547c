"""The probe scorer's settings: which answerer and judge, how many probes, the model endpoint
and response cache for model-backed ones, and the input budget. Built from ``KEY=VALUE``
parameters (``soba-bench score RUN --scorer probes --param answerer=local``) or a Hydra
``scorer.params`` mapping; bad values fail here, once, naming the parameter."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from soba_bench.errors import InputError
from soba_bench.models.cache import normalize_mode

# Input budgets (tokens) when none is set: a small local model has a small context and reads
# ~50-110 tokens/s on two cores; the extractive answerer reads everything.
AUTO_BUDGET = {"extractive": None, "local": 1500, "model": 24000}


@dataclass(frozen=True)
class ProbeConfig:
    answerer: str = "extractive"
    judge: str = "lexical"
    max_probes: int | None = None  # per moment; None or 0: every probe
    seed: int = 0
    budget: int | None = None  # input tokens shown to the answerer; None: AUTO_BUDGET
    cache: str = "read-write"  # read-write | read-only | off (model-backed answers, verdicts)
    cache_path: str | None = None  # None: the default response cache
    base_url: str | None = None  # model: required; local: a running server (else started)
    model: str | None = None  # model: required; local: a LOCAL_MODELS name
    api_key_env: str | None = None
    max_answer_tokens: int = 160
    timeout_s: float = 900.0
    # SOBA's input and the comparison views at the same moments, as configs/scorer/probes.yaml
    strategies: tuple[str, ...] = ("soba", "none", "truncation", "observation_masking")

    def __post_init__(self) -> None:
        from soba_bench.scoring.probes.answerers import ANSWERERS
        from soba_bench.scoring.probes.judges import JUDGES

        ANSWERERS.get(self.answerer)
        JUDGES.get(self.judge)
        object.__setattr__(self, "cache", normalize_mode(self.cache))
        for name in ("max_probes", "budget"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise InputError(
                    "must be a whole number >= 0", field=name, value=value, has_value=True
                )
        if self.max_answer_tokens < 1:
            raise InputError(
                "must be >= 1",
                field="max_answer_tokens",
                value=self.max_answer_tokens,
                has_value=True,
            )

    @property
    def model_free(self) -> bool:
        return self.answerer == "extractive" and self.judge == "lexical"

    def input_budget(self) -> int | None:
        return self.budget if self.budget is not None else AUTO_BUDGET.get(self.answerer)

    def describe(self) -> dict[str, Any]:
        """For records: the settings, never a key (``api_key_env`` only names a variable)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)} | {
            "strategies": list(self.strategies)
        }

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None) -> ProbeConfig:
        """A config from loose parameters (strings from the command line are converted)."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in (params or {}).items():
            if key not in fields:
                raise InputError(
                    "unknown probe parameter", field=key, expected=", ".join(sorted(fields))
                )
            values[key] = _convert(key, value, cls.__dataclass_fields__[key].default)
        return cls(**values)


def _convert(key: str, value: Any, default: Any) -> Any:
    if key == "strategies":
        items = value.split(",") if isinstance(value, str) else list(value)
        return tuple(str(i).strip() for i in items if str(i).strip())
    if not isinstance(value, str):
        return value
    if value.lower() in ("none", "null", ""):
        return None
    if key in ("max_probes", "budget", "seed", "max_answer_tokens"):
        try:
            return int(value)
        except ValueError:
            raise InputError(
                "must be a whole number", field=key, value=value, has_value=True
            ) from None
    if key == "timeout_s":
        try:
            return float(value)
        except ValueError:
            raise InputError("must be a number", field=key, value=value, has_value=True) from None
    return value


DEFAULT_PROBES = ProbeConfig()
