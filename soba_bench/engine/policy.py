"""Trigger policy: hard and soft limits and the ROI check, with SOBA's reason strings
(engine.md c, d.1, g.1)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from soba_bench.engine.config import CompactionConfig
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.jscompat import js_number, js_round, js_to_fixed

HARD_LIMIT = "hard_limit"
CONTEXT_OVERFLOW = "context_overflow"
USER_REQUEST = "user_request"
AUTO_THRESHOLD = "auto_threshold"
TURN_COMPLETE = "turn_complete"
MILESTONE = "milestone"
PLAN_PIVOT = "plan_pivot"
TRIGGERS = (
    HARD_LIMIT,
    CONTEXT_OVERFLOW,
    USER_REQUEST,
    AUTO_THRESHOLD,
    TURN_COMPLETE,
    MILESTONE,
    PLAN_PIVOT,
)
SOFT_TRIGGERS = frozenset({AUTO_THRESHOLD, TURN_COMPLETE, MILESTONE, PLAN_PIVOT})


@dataclass(frozen=True)
class TriggerDecision:
    shouldCompact: bool
    trigger: str | None
    reason: str
    estimatedReclaimableTokens: float = 0
    estimatedSavingsRatio: float = 0


def _n(value: float) -> str:
    return js_number(value)


class TriggerPolicy:
    def __init__(self, config: CompactionConfig | None = None) -> None:
        self.config = config or CompactionConfig()

    def set_auto(self, enabled: bool) -> None:
        self.config = replace(self.config, auto=enabled)

    def soft_limit(self, snapshot: ContextSnapshot) -> float:
        return self.soft_limit_for(snapshot.hardLimit)

    def soft_limit_for(self, hard: float) -> float:
        return min(
            hard - 1,
            max(
                self.config.minTokensForAutoCompact,
                math.floor(hard * self.config.autoCompactThresholdRatio),
            ),
        )

    def _ratio(self, effective: float, reclaimable: float) -> float:
        return reclaimable / effective if effective > 0 else 0

    def evaluate_hard_limit(self, snapshot: ContextSnapshot) -> TriggerDecision:
        effective = snapshot.effectiveTokens
        if effective > snapshot.hardLimit:
            reclaimable = effective - self.config.keepRecentTokens
            return TriggerDecision(
                True,
                HARD_LIMIT,
                f"Effective tokens ({_n(effective)}) exceed hard limit ({_n(snapshot.hardLimit)})",
                max(0, reclaimable),
                max(0, self._ratio(effective, reclaimable)),
            )
        return TriggerDecision(False, None, "Effective tokens within hard limit")

    def evaluate_auto_threshold(self, snapshot: ContextSnapshot) -> TriggerDecision:
        if not self.config.auto:
            return TriggerDecision(False, None, "Auto-compact disabled")
        return self._evaluate_roi(snapshot, AUTO_THRESHOLD)

    def evaluate_turn_complete(self, snapshot: ContextSnapshot) -> TriggerDecision:
        if not self.config.auto or not self.config.compactOnTurnComplete:
            return TriggerDecision(False, None, "Auto-compact disabled")
        return self._evaluate_roi(snapshot, TURN_COMPLETE)

    def evaluate_milestone(self, snapshot: ContextSnapshot) -> TriggerDecision:
        # plan_pivot intents are evaluated here too; the controller keeps the pending label.
        if not self.config.auto or not self.config.compactOnMilestone:
            return TriggerDecision(False, None, "Milestone compact disabled")
        return self._evaluate_roi(snapshot, MILESTONE)

    def evaluate_user_request(self, snapshot: ContextSnapshot) -> TriggerDecision:
        effective = snapshot.effectiveTokens
        reclaimable = effective - self.config.keepRecentTokens
        if reclaimable <= 0:
            return TriggerDecision(
                False,
                None,
                "No reclaimable context (estimatedTokensAfter >= effectiveTokensBefore)",
            )
        return TriggerDecision(
            True,
            USER_REQUEST,
            "User requested compaction",
            reclaimable,
            self._ratio(effective, reclaimable),
        )

    def evaluate_context_overflow(self, snapshot: ContextSnapshot) -> TriggerDecision:
        effective = snapshot.effectiveTokens
        reclaimable = effective - self.config.keepRecentTokens
        return TriggerDecision(
            True,
            CONTEXT_OVERFLOW,
            "Provider returned context overflow error",
            max(0, reclaimable),
            max(0, self._ratio(effective, reclaimable)),
        )

    def _evaluate_roi(self, snapshot: ContextSnapshot, trigger: str) -> TriggerDecision:
        effective = snapshot.effectiveTokens
        soft = self.soft_limit(snapshot)
        if effective < soft:
            return TriggerDecision(
                False, None, f"Effective tokens ({_n(effective)}) below soft limit ({_n(soft)})"
            )
        reclaimable = effective - self.config.keepRecentTokens
        ratio = self._ratio(effective, reclaimable)
        cfg = self.config
        if reclaimable < cfg.minReclaimableTokens:
            return TriggerDecision(
                False,
                None,
                f"Reclaimable tokens ({_n(reclaimable)}) below minReclaimableTokens "
                f"({_n(cfg.minReclaimableTokens)})",
                reclaimable,
                ratio,
            )
        if ratio < cfg.minSavingsRatio:
            return TriggerDecision(
                False,
                None,
                f"Savings ratio ({js_to_fixed(ratio, 2)}) below minSavingsRatio "
                f"({_n(cfg.minSavingsRatio)})",
                reclaimable,
                ratio,
            )
        return TriggerDecision(
            True,
            trigger,
            f"ROI check passed: {js_round(ratio * 100)}% savings estimated",
            reclaimable,
            ratio,
        )
