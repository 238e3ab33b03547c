"""Capsule strategies, one per module, and the registry of chain slots.

A chain is a list of slot names, e.g. ``["portable_only", "deterministic"]`` (SOBA's
production chain) or ``["deterministic"]`` (the conformance harness's). Model-backed slots
need an invoker and a prompt builder; they are passed to :func:`build_chain`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from soba_bench.engine.strategies.base import (
    DETERMINISTIC,
    NATIVE_PORTABLE,
    PORTABLE_ONLY,
    Draft,
    GenerationInput,
    Strategy,
)
from soba_bench.errors import ConfigError
from soba_bench.registry import Registry


def _deterministic(**_: Any) -> Strategy:
    from soba_bench.engine.strategies.deterministic import DeterministicStrategy

    return DeterministicStrategy()


def _portable(invoker=None, prompt_builder=None, **_: Any) -> Strategy:
    from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy

    if invoker is None or prompt_builder is None:
        raise ConfigError("strategy 'portable_only' needs a model invoker and a prompt builder")
    return PortableOnlyStrategy(invoker, prompt_builder)


def _native(invoker=None, prompt_builder=None, compactor=None, **_: Any) -> Strategy:
    from soba_bench.engine.strategies.native_portable import NativePortableStrategy

    if compactor is None:
        raise ConfigError("strategy 'native_portable' needs a native compactor")
    return NativePortableStrategy(compactor, _portable(invoker, prompt_builder))


STRATEGIES: Registry = Registry("capsule strategy")
STRATEGIES.add(DETERMINISTIC, _deterministic)
STRATEGIES.add(PORTABLE_ONLY, _portable)
STRATEGIES.add(NATIVE_PORTABLE, _native)


def build_chain(names: Sequence[str], **plugins: Any) -> list[Strategy]:
    """Strategies for the named slots, in order (unknown names list the valid ones)."""
    return [STRATEGIES.get(name)(**plugins) for name in names]


__all__ = ["STRATEGIES", "Draft", "GenerationInput", "Strategy", "build_chain"]
