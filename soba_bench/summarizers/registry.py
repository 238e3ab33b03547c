"""The summarizer registry: how a run gets its capsule strategy chain by name."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from soba_bench.engine.attempt import RealClock, VirtualClock
from soba_bench.engine.strategies.base import Strategy
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.errors import ConfigError
from soba_bench.registry import Registry


@dataclass(frozen=True)
class SummarizerSpec:
    """Everything a replay needs from a summarizer, and what its run record says about it."""

    name: str
    chain: Sequence[Strategy]
    clock: VirtualClock | RealClock | None = None  # None: the engine's default virtual clock
    prompt_id: str | None = None  # prompt name + hash of its text, for model strategies
    details: dict[str, Any] = field(default_factory=dict)  # model, endpoint, latency model...

    def record(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "promptId": self.prompt_id,
            "chain": [s.name for s in self.chain],
            **self.details,
        }


SUMMARIZERS: Registry[Callable[..., SummarizerSpec]] = Registry("summarizer")


@SUMMARIZERS.register("deterministic")
def deterministic() -> SummarizerSpec:
    """SOBA's deterministic strategy only (the conformance harness's chain): no model, no
    parameters (a parameter given to it is a mistake and fails, naming the summarizer)."""
    return SummarizerSpec("deterministic", [DeterministicStrategy()])


def check_summarizer_params(name: str, params: Mapping[str, Any]) -> None:
    """Fail on a name ``name``'s factory does not take, listing the ones it does (a factory
    with ``**kwargs`` takes any). Called where a config is validated and again on build."""
    accepted = inspect.signature(SUMMARIZERS.get(name)).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in accepted):
        return
    names = [p.name for p in accepted]
    unknown = sorted(set(params) - set(names))
    if unknown:
        raise ConfigError(
            f"summarizer {name!r} has no parameter {', '.join(unknown)}; "
            + (f"it takes {', '.join(names)}" if names else "it takes no parameters")
        )


def build_summarizer(name: str = "deterministic", **params: Any) -> SummarizerSpec:
    """A summarizer by name; unknown names fail with the list of valid ones, unknown
    parameters with the list of the ones that summarizer takes."""
    check_summarizer_params(name, params)
    return SUMMARIZERS.get(name)(**params)


# The model-backed summarizers ("model", "local") and the planted-defect stand-in ("planted")
# register themselves on import; imported last because they use SUMMARIZERS and
# SummarizerSpec from above.
from soba_bench.summarizers import model_backed as _model_backed  # noqa: E402, F401
from soba_bench.summarizers import planted as _planted  # noqa: E402, F401
