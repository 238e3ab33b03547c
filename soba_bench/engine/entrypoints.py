"""The manager's other entry points (engine.md d.4, d.6, l.4): ``/compact``, scheduled
compaction, the older hard-limit and overflow checks that hosts and SOBA's own tests call
directly, and the sidebar numbers. A mixin of :class:`ContextManager`, kept apart so the
attempt itself (plans, checks, outcomes) reads on its own."""

from __future__ import annotations

from typing import Any

from soba_bench.engine import outcome as O
from soba_bench.engine.attempt import AbortSignal
from soba_bench.engine.outcome import CompactionOutcome
from soba_bench.engine.policy import CONTEXT_OVERFLOW, HARD_LIMIT, USER_REQUEST
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.jscompat import js_number

MANUAL_SYSTEM_PROMPT_TOKENS = 1000  # /compact hard-codes these (engine.md b.2)
MANUAL_TOOL_SCHEMA_TOKENS = 500


class ManagerEntryPoints:
    def manual_compact(
        self,
        custom_instructions: str | None = None,
        *,
        fingerprint: str | None = None,
        signal: AbortSignal | None = None,
        system_prompt_tokens: float = MANUAL_SYSTEM_PROMPT_TOKENS,
        tool_schema_tokens: float = MANUAL_TOOL_SCHEMA_TOKENS,
    ) -> CompactionOutcome:
        """``manualCompact``: straight to the manager, no soft ROI minima. The non-session
        tokens default to the 1000/500 that the ``/compact`` command hard-codes; SOBA's
        manager takes them as arguments (its own tests pass 10/5)."""
        fp = fingerprint or f"manual_compact_{self.clock.epoch_ms()}"
        snap = self._measure(system_prompt_tokens, tool_schema_tokens, fp)
        decision = self.policy.evaluate_user_request(snap)
        if not decision.shouldCompact:
            return CompactionOutcome(
                status=O.SKIPPED,
                trigger=USER_REQUEST,
                reason=decision.reason,
                operationId=self._operation_id(),
                durationMs=0,
                required=False,
            )
        plan = self.create_plan(
            USER_REQUEST,
            snap,
            False,
            decision.estimatedReclaimableTokens,
            decision.estimatedSavingsRatio,
            custom_instructions or None,
        )
        return self.execute_plan(plan, signal)

    def compact_scheduled(self, trigger: str, snapshot: ContextSnapshot) -> CompactionOutcome:
        """No pre-generation ROI, only the post-generation gate."""
        return self.execute_plan(self.create_plan(trigger, snapshot, False))

    def _required(self, trigger: str, sys_tokens: float, tool_tokens: float, fingerprint: str):
        snap = self._measure(sys_tokens, tool_tokens, fingerprint)
        decide = (
            self.policy.evaluate_hard_limit
            if trigger == HARD_LIMIT
            else self.policy.evaluate_context_overflow
        )
        decision = decide(snap)
        if not decision.shouldCompact:
            return None, None
        plan = self.create_plan(
            trigger, snap, True, decision.estimatedReclaimableTokens, decision.estimatedSavingsRatio
        )
        outcome = self.execute_plan(plan)
        post = (
            self._measure(sys_tokens, tool_tokens, fingerprint)
            if outcome.status == O.COMPLETED
            else None
        )
        return outcome, post

    def pre_inference_check(
        self, sys_tokens: float, tool_tokens: float, fingerprint: str
    ) -> dict[str, Any]:
        """The older hard-limit-only entry point (d.6)."""
        outcome, post = self._required(HARD_LIMIT, sys_tokens, tool_tokens, fingerprint)
        if outcome is None:
            return {"canProceed": True, "compactionPerformed": False}
        if outcome.status != O.COMPLETED:
            return {
                "canProceed": False,
                "compactionPerformed": False,
                "error": outcome.reason,
                "outcome": outcome,
            }
        if post.effectiveTokens > post.hardLimit:
            return {
                "canProceed": False,
                "compactionPerformed": True,
                "outcome": outcome,
                "error": f"Post-compaction effective tokens ({js_number(post.effectiveTokens)})"
                f" still exceed hard limit ({js_number(post.hardLimit)}). "
                "Compaction freed insufficient context.",
            }
        return {"canProceed": True, "compactionPerformed": True, "outcome": outcome}

    def handle_context_overflow(
        self, sys_tokens: float, tool_tokens: float, fingerprint: str
    ) -> dict[str, Any]:
        """Always one required context_overflow plan, no per-turn limit (d.6)."""
        outcome, post = self._required(CONTEXT_OVERFLOW, sys_tokens, tool_tokens, fingerprint)
        if outcome.status != O.COMPLETED:
            return {
                "recovered": False,
                "shouldRetry": False,
                "outcome": outcome,
                "error": outcome.reason,
            }
        if post.effectiveTokens > post.hardLimit:
            return {
                "recovered": False,
                "shouldRetry": False,
                "outcome": outcome,
                "error": "Emergency compaction freed insufficient context. Post-compaction: "
                f"{js_number(post.effectiveTokens)}, hard limit: "
                f"{js_number(post.hardLimit)}",
            }
        return {"recovered": True, "shouldRetry": True, "outcome": outcome}

    def debug_info(self) -> dict[str, Any]:
        """The sidebar numbers (engine.md l.4)."""
        snap = self.last_snapshot
        last = self.last_outcome
        if last is not None:
            last_compact = {
                "status": last.status,
                "trigger": last.trigger,
                "checkpointId": last.checkpointId,
                "durationMs": last.durationMs,
                "reclaimedTokens": (last.metrics or {}).get("reclaimedTokens", 0),
            }
        else:
            capsule = self.branch.last_capsule
            last_compact = (
                None
                if capsule is None
                else {
                    "status": O.COMPLETED,
                    "trigger": capsule.data["trigger"],
                    "checkpointId": capsule.data["checkpointId"],
                    "durationMs": capsule.data["metrics"].get("generationDurationMs"),
                    "reclaimedTokens": capsule.data["metrics"].get("reclaimedTokens"),
                }
            )
        hard = self.meter.hard_limit
        return {
            "source": "provider_usage" if self.meter.watermark else "estimated",
            "safetyReserveTokens": self.meter.safety_reserve_tokens,
            "maxOutputTokens": self.meter.max_output_tokens,
            "contextWindow": self.meter.context_window,
            "hardLimit": hard,
            "effectiveTokens": snap.effectiveTokens if snap else 0,
            "softLimit": self.policy.soft_limit_for(snap.hardLimit if snap else hard),
            "lastCompact": last_compact,
        }
