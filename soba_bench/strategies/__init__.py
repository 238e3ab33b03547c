"""Compaction strategies a sweep job runs over each session, keyed by a short stable name
(the ``strategy`` config group, run records, report columns).

* ``soba``: SOBA's engine, replayed by the agent-loop simulator, with the job's summarizer
  writing the capsules (:mod:`soba_bench.strategies.soba`).
* rivals, replayed through the same walk, triggers and limits with the capsule step swapped
  (:mod:`soba_bench.strategies.rival`): ``observation_masking``, ``truncation``, ``none``
  and ``hybrid`` (masking, then a SOBA capsule when still over the soft limit).
* peers, other agents' own compaction policies on the same walk, their summaries written by
  the job's summarizer slot (:mod:`soba_bench.strategies.peer`): ``codex``,
  ``claude_code``, ``openhands``, ``gemini_cli``, ``pi`` and ``opencode``.

A strategy is one module here registering a function ``(session, StrategyContext) ->
SessionRun``; its trace must offer what the job writes (entries, barriers, capsules, events,
summary).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from soba_bench.engine.config import EngineConfig
from soba_bench.registry import Registry
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.trace import ReplayTrace
from soba_bench.session.model import Session


@dataclass(frozen=True)
class StrategyContext:
    """What a job hands a strategy for every session."""

    engine: EngineConfig
    options: ReplayOptions
    summarizer: str = "deterministic"
    summarizer_params: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)  # the strategy's own parameters


@dataclass
class SessionRun:
    """One session under one strategy: the replay trace and what wrote its capsules."""

    trace: ReplayTrace
    summarizer: dict[str, Any] = field(default_factory=dict)  # SummarizerSpec.record()


Strategy = Callable[[Session, StrategyContext], SessionRun]

STRATEGIES: Registry[Strategy] = Registry("strategy")


def get_strategy(name: str) -> Strategy:
    """A strategy by name; unknown names fail with the list of valid ones."""
    _load_builtins()
    return STRATEGIES.get(name)


def strategy_names() -> list[str]:
    _load_builtins()
    return STRATEGIES.names()


def _load_builtins() -> None:
    # Imported lazily: each module registers itself on import.
    from soba_bench.strategies import (  # noqa: F401
        claude_code,
        codex,
        gemini_cli,
        hybrid,
        none,
        observation_masking,
        opencode,
        openhands,
        pi,
        soba,
        truncation,
    )


__all__ = [
    "STRATEGIES",
    "SessionRun",
    "Strategy",
    "StrategyContext",
    "get_strategy",
    "strategy_names",
]
