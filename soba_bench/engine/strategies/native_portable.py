"""The ``native_portable`` slot (engine.md i.4): a provider-native continuation plus a
portable state from the portable_only strategy. Native items are never inspected."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from soba_bench.engine.attempt import AttemptContext, whole_ms_between
from soba_bench.engine.strategies.base import (
    NATIVE_PORTABLE,
    Draft,
    GenerationInput,
    base_metrics,
    base_provenance,
)
from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy

if TYPE_CHECKING:
    from soba_bench.engine.variants import EngineVariant


class NativeCompactor(Protocol):
    """Returns a native continuation ``{provider, compatibilityKey, responseId?, items}``."""

    def __call__(self, gen: GenerationInput, ctx: AttemptContext) -> dict[str, Any]: ...


class NativePortableStrategy:
    name = NATIVE_PORTABLE

    def __init__(self, compactor: NativeCompactor, portable: PortableOnlyStrategy) -> None:
        self.compactor = compactor
        self.portable = portable

    def generate(self, gen: GenerationInput, ctx: AttemptContext, variant: EngineVariant) -> Draft:
        started = ctx.clock.now_ms()
        native = self.compactor(gen, ctx)
        portable = self.portable.generate(gen, ctx, variant)  # may degrade internally
        return Draft(
            strategy=NATIVE_PORTABLE,
            quality="native",
            portableState=portable.portableState,
            artifacts=portable.artifacts,
            activatedSkills=gen.activated_skills,
            provenance=base_provenance(gen),
            metrics=base_metrics(gen, whole_ms_between(started, ctx.clock.now_ms())),
            nativeContinuation=native,
        )
