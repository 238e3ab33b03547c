"""Compactors: the job-level ways of compacting a sweep job runs over each session, keyed by
a short stable name in one registry, :data:`COMPACTORS`. "Strategy" stays SOBA's word for the
capsule-writing slot inside the engine (:mod:`soba_bench.engine.strategies`); a compactor is
the whole policy around it. Users still pick one with the ``strategy`` config group
(``strategy=truncation``), and run records and report columns keep the ``strategy`` field, so
existing configs, result folders and notebooks read unchanged.

* ``soba``: SOBA's engine, replayed by the agent-loop simulator, with the job's summarizer
  writing the capsules (:mod:`soba_bench.compactors.soba`).
* rivals, replayed through the same walk, triggers and limits with the capsule step swapped
  (:mod:`soba_bench.compactors.rival`): ``observation_masking``, ``truncation``, ``none``
  and ``hybrid`` (masking, then a SOBA capsule when still over the soft limit).
* peers, other agents' own compaction policies on the same walk, their summaries written by
  the job's summarizer slot (:mod:`soba_bench.compactors.peer`): ``codex``,
  ``claude_code``, ``openhands``, ``gemini_cli``, ``pi`` and ``opencode``.

A compactor is one module here registering a function ``(session, CompactorContext) ->
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
class CompactorContext:
    """What a job hands a compactor for every session."""

    engine: EngineConfig
    options: ReplayOptions
    summarizer: str = "deterministic"
    summarizer_params: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)  # the compactor's own parameters


@dataclass
class SessionRun:
    """One session under one compactor: the replay trace and what wrote its capsules."""

    trace: ReplayTrace
    summarizer: dict[str, Any] = field(default_factory=dict)  # SummarizerSpec.record()


CompactorRun = Callable[[Session, CompactorContext], SessionRun]

COMPACTORS: Registry[CompactorRun] = Registry("compactor")


def get_compactor(name: str) -> CompactorRun:
    """A compactor by name; unknown names fail with the list of valid ones."""
    _load_builtins()
    return COMPACTORS.get(name)


def compactor_names() -> list[str]:
    _load_builtins()
    return COMPACTORS.names()


def _load_builtins() -> None:
    # Imported lazily: each module registers itself on import.
    from soba_bench.compactors import (  # noqa: F401
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
    "COMPACTORS",
    "CompactorContext",
    "CompactorRun",
    "SessionRun",
    "compactor_names",
    "get_compactor",
]
