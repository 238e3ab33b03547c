"""Turning an engine attempt into a conformance ``attempt`` line."""

from __future__ import annotations

from typing import Any

from soba_bench.engine import events as ev
from soba_bench.engine.outcome import COMPLETED, CompactionOutcome

TERMINAL_EVENTS = (
    ev.COMPACTION_DONE,
    ev.COMPACTION_SKIPPED,
    ev.COMPACTION_FAILED,
    ev.COMPACTION_CANCELLED,
)


def attempt_line(
    *,
    seq: int,
    index: int,
    before_id: str | None,
    flush: bool,
    turn: int,
    pending: str | None,
    outcome: CompactionOutcome,
    required: bool,
    source: str,
    tokens_before: float,
    measured_after: float,
    can_proceed: bool,
    new_events: list[dict[str, Any]],
    wall_ms: float,
) -> dict[str, Any]:
    """One attempt line. Token numbers come from the attempt's own events, so a line says
    exactly what SOBA's events said (tokensAfter/reclaimed fall back to the re-measured
    context when no draft was produced)."""
    start = next(e for e in new_events if e["type"] == ev.COMPACTION_START)
    terminal = next(e for e in new_events if e["type"] in TERMINAL_EVENTS)
    completed = outcome.status == COMPLETED
    provenance = outcome.capsule.data["provenance"] if completed else None
    validation = outcome.validation
    metrics = outcome.metrics or {}
    ratio = metrics.get("savingsRatio")
    return {
        "kind": "attempt",
        "seq": seq,
        "entryIndex": index,
        "beforeEntryId": before_id,
        "flush": flush,
        "turn": turn,
        "trigger": outcome.trigger,
        "required": required,
        "pendingTrigger": pending,
        "outcome": outcome.status,
        "reason": outcome.reason,
        "source": source,
        "tokensBefore": tokens_before,
        "tokensAfter": terminal["tokensAfter"],
        "measuredTokensAfter": measured_after,
        "reclaimed": terminal["reclaimedTokens"],
        "savingsRatio": round(ratio, 6) if ratio is not None else None,
        "firstKeptEntryId": provenance["firstKeptEntryId"] if provenance else None,
        "firstCompactedEntryId": provenance["firstCompactedEntryId"] if provenance else None,
        "compactedItemCount": len(provenance["sourceEntryIds"]) if provenance else None,
        "strategy": outcome.strategy,
        "quality": outcome.quality,
        "checkpointId": outcome.checkpointId,
        "validationErrors": [f.code for f in validation.errors] if validation else [],
        "validationWarnings": [f.code for f in validation.warnings] if validation else [],
        "softLimit": start["softLimit"],
        "hardLimit": start["hardLimit"],
        "canProceed": can_proceed,
        "durationMs": outcome.durationMs,
        "generationDurationMs": metrics.get("generationDurationMs"),
        "wallMs": round(wall_ms, 3),
    }
