"""What a replay records: one record per barrier (a check, or a compaction attempt), the
events, the capsules and a summary. Lines use the conformance format's field names exactly."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from soba_bench.engine.outcome import COMPLETED


@dataclass(frozen=True)
class BarrierRecord:
    """One preflight barrier. ``attempt`` is None when no compaction was started."""

    entryIndex: int
    beforeEntryId: str | None
    flush: bool
    turn: int
    pendingTrigger: str | None
    effectiveTokens: float
    source: str
    hardLimit: float
    softLimit: float
    canProceed: bool
    attempt: dict[str, Any] | None = None
    overflow: bool = False  # a context_overflow recovery, not a preflight

    @property
    def kind(self) -> str:
        return "attempt" if self.attempt is not None else "check"

    def to_line(self) -> dict[str, Any]:
        if self.attempt is not None:
            return self.attempt
        return {
            "kind": "check",
            "entryIndex": self.entryIndex,
            "beforeEntryId": self.beforeEntryId,
            "flush": self.flush,
            "turn": self.turn,
            "pendingTrigger": self.pendingTrigger,
            "effectiveTokens": self.effectiveTokens,
            "source": self.source,
            "hardLimit": self.hardLimit,
            "softLimit": self.softLimit,
            "canProceed": self.canProceed,
        }


@dataclass
class ReplayTrace:
    """Everything one replay produced (a Python object; the CLI writes it as files)."""

    config_line: dict[str, Any]
    barriers: list[BarrierRecord] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    capsules: list[dict[str, Any]] = field(default_factory=list)
    # every attempt's outcome; a rejected draft is not kept (see keep_outcome)
    outcomes: list[Any] = field(default_factory=list)
    entries: list[Any] = field(default_factory=list)  # the replayed session's tree entries
    stats: dict[str, Any] = field(default_factory=dict)
    final_state: dict[str, Any] = field(default_factory=dict)

    @property
    def attempts(self) -> list[dict[str, Any]]:
        return [b.attempt for b in self.barriers if b.attempt is not None]

    def keep_outcome(self, outcome: Any) -> None:
        """Record an attempt's outcome. Drafts of attempts that appended nothing are
        dropped: each names every compacted entry id, and a compaction that fails at every
        barrier would otherwise hold one such list per attempt (quadratic memory, issue 18).
        The attempt's line already carries what the decisions file needs."""
        if outcome.status != COMPLETED and outcome.draft is not None:
            outcome = replace(outcome, draft=None)
        self.outcomes.append(outcome)

    def summary(self) -> dict[str, Any]:
        attempts = self.attempts
        return {
            "kind": "summary",
            **self.stats,
            "preflights": sum(1 for b in self.barriers if not b.overflow),
            "attempts": len(attempts),
            "byOutcome": dict(Counter(a["outcome"] for a in attempts)),
            "byTrigger": dict(Counter(a["trigger"] for a in attempts)),
            "completedByTrigger": dict(
                Counter(a["trigger"] for a in attempts if a["outcome"] == COMPLETED)
            ),
            "blockedRequests": sum(1 for b in self.barriers if not b.canProceed),
            "flushPreflights": sum(1 for b in self.barriers if b.flush),
            "capsules": len(self.capsules),
            "reclaimedTokens": sum(a["reclaimed"] for a in attempts if a["outcome"] == COMPLETED),
            **self.final_state,
        }

    def decision_lines(self) -> list[dict[str, Any]]:
        return [self.config_line, *self.attempts, self.summary()]

    def check_lines(self) -> list[dict[str, Any]]:
        return [self.config_line, *(b.to_line() for b in self.barriers), self.summary()]
