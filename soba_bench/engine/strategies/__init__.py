"""Capsule strategies, one per module, and the registry of chain slots.

A chain is a list of slot names, e.g. ``["portable_only", "deterministic"]`` (SOBA's
production chain) or ``["deterministic"]`` (the conformance harness's). Model-backed slots
need an invoker and a prompt builder; they are passed to :func:`build_chain`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from soba_bench.engine.strategies.native_portable import NativeCompactor
    from soba_bench.engine.strategies.portable_only import ModelInvoker, PortableOnlyStrategy


def _deterministic(**_: Any) -> Strategy:
    from soba_bench.engine.strategies.deterministic import DeterministicStrategy

    return DeterministicStrategy()


def _portable(
    invoker: ModelInvoker | None = None,
    prompt_builder: Callable[[GenerationInput], str] | None = None,
    **_: Any,
) -> PortableOnlyStrategy:
    from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy

    if invoker is None or prompt_builder is None:
        raise ConfigError("strategy 'portable_only' needs a model invoker and a prompt builder")
    return PortableOnlyStrategy(invoker, prompt_builder)


def _native(
    invoker: ModelInvoker | None = None,
    prompt_builder: Callable[[GenerationInput], str] | None = None,
    compactor: NativeCompactor | None = None,
    **_: Any,
) -> Strategy:
    from soba_bench.engine.strategies.native_portable import NativePortableStrategy

    if compactor is None:
        raise ConfigError("strategy 'native_portable' needs a native compactor")
    return NativePortableStrategy(compactor, _portable(invoker, prompt_builder))


# Factories: keyword arguments (invoker, prompt_builder, compactor; others ignored) -> strategy.
STRATEGIES: Registry[Callable[..., Strategy]] = Registry("capsule strategy")
STRATEGIES.add(DETERMINISTIC, _deterministic)
STRATEGIES.add(PORTABLE_ONLY, _portable)
STRATEGIES.add(NATIVE_PORTABLE, _native)


def build_chain(names: Sequence[str], **plugins: Any) -> list[Strategy]:
    """Strategies for the named slots, in order (unknown names list the valid ones)."""
    return [STRATEGIES.get(name)(**plugins) for name in names]


__all__ = ["STRATEGIES", "Draft", "GenerationInput", "Strategy", "build_chain"]
