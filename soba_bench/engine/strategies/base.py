"""The strategy interface: what a capsule strategy gets and what it returns (engine.md i).

A strategy turns the compacted span into a draft (portable state, artifact ledger, skills,
provenance). The generator measures and validates drafts and walks the fallback chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from soba_bench.engine.attempt import AttemptContext
    from soba_bench.engine.snapshot import ContextSnapshot
    from soba_bench.engine.span import SpanDigest
    from soba_bench.engine.variants import EngineVariant

NATIVE_PORTABLE = "native_portable"
PORTABLE_ONLY = "portable_only"
DETERMINISTIC = "deterministic"


@dataclass(frozen=True)
class GenerationInput:
    session_id: str
    branch_index: Any  # LiveBranch: membership and order of branch entry ids
    source_entry_ids: Sequence[str]  # a list, or a ListSlice view of the span (no copy)
    source_items: Sequence[dict[str, Any]]
    kept_items: list[dict[str, Any]]
    first_compacted_entry_id: str
    first_kept_entry_id: str | None  # an Entry.id, or "root" when nothing is kept
    trigger: str
    snapshot: ContextSnapshot
    activated_skills: list[dict[str, Any]]
    previous_state: dict[str, Any] | None = None
    custom_instructions: str | None = None
    compatibility_key: str | None = None
    # The engine's SpanDigest of source_items (None: strategies read the span themselves).
    span: SpanDigest | None = None


@dataclass
class Draft:
    """A capsule draft. Mutable on purpose: the generator fills in the metrics, as SOBA's
    ``_calculateMetrics`` does; nothing else changes it after the strategy returns."""

    strategy: str
    quality: str
    portableState: dict[str, Any]
    artifacts: dict[str, Any]
    activatedSkills: list[dict[str, Any]]
    provenance: dict[str, Any]
    metrics: dict[str, Any]
    nativeContinuation: dict[str, Any] | None = None
    notes: dict[str, Any] = field(default_factory=dict)  # e.g. model latency; never persisted


class Strategy(Protocol):
    """One slot of the chain. ``name`` is what SOBA records as the capsule's strategy."""

    name: str

    def generate(
        self, gen: GenerationInput, ctx: AttemptContext, variant: EngineVariant
    ) -> Draft: ...


def base_metrics(gen: GenerationInput, duration_ms: float = 0) -> dict[str, Any]:
    # Key order as SOBA writes it; the generator fills the three zeros.
    return {
        "effectiveTokensBefore": gen.snapshot.effectiveTokens,
        "estimatedTokensAfter": 0,
        "reclaimedTokens": 0,
        "savingsRatio": 0,
        "generationDurationMs": duration_ms,
    }


def base_provenance(gen: GenerationInput) -> dict[str, Any]:
    return {
        "firstCompactedEntryId": gen.first_compacted_entry_id,
        "firstKeptEntryId": gen.first_kept_entry_id,
        "sourceEntryIds": gen.source_entry_ids,
    }
