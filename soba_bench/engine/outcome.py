"""Plans and outcomes of compaction attempts (engine.md e.1, e.2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.engine.validator import ValidationResult

COMPLETED = "completed"
SKIPPED = "skipped"
CANCELLED = "cancelled"
STALE = "stale"
FAILED = "failed"
STATUSES = (COMPLETED, SKIPPED, CANCELLED, STALE, FAILED)


@dataclass(frozen=True)
class CompactionPlan:
    operationId: str
    trigger: str
    snapshot: ContextSnapshot
    expectedLeafId: str | None
    required: bool
    estimatedReclaimableTokens: float = 0
    estimatedSavingsRatio: float = 0
    customInstructions: str | None = None


@dataclass(frozen=True)
class CompactionOutcome:
    status: str
    trigger: str
    reason: str
    operationId: str
    durationMs: float
    required: bool
    strategy: str | None = None
    quality: str | None = None
    checkpointId: str | None = None
    metrics: dict[str, Any] | None = None
    validation: ValidationResult | None = None
    error: str | None = None
    # Not in SOBA's outcome: the attempt's draft (None when none was produced) and the
    # appended capsule entry, so a trace can score rejected drafts too.
    draft: Any = field(default=None, repr=False, compare=False)
    capsule: Any = field(default=None, repr=False, compare=False)
    timeout_fallback: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = {
            "status": self.status,
            "trigger": self.trigger,
            "strategy": self.strategy,
            "quality": self.quality,
            "checkpointId": self.checkpointId,
            "metrics": self.metrics,
            "validation": self.validation.to_dict() if self.validation else None,
            "reason": self.reason,
            "operationId": self.operationId,
            "durationMs": self.durationMs,
            "required": self.required,
        }
        if self.error:
            data["error"] = self.error
        return data
