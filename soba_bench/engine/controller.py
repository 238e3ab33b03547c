"""The context controller: pending intents, the preflight barrier, overflow recovery
(engine.md d.2, d.3, d.5, e.3) and the events they emit (l.1)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from soba_bench.engine import events as ev
from soba_bench.engine import outcome as O
from soba_bench.engine.attempt import AbortSignal
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan
from soba_bench.engine.policy import CONTEXT_OVERFLOW, TURN_COMPLETE, TriggerDecision
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.errors import HarnessFault
from soba_bench.jscompat import js_number

_PRIORITY = {TURN_COMPLETE: 1, "milestone": 2, "plan_pivot": 2}


@dataclass(frozen=True)
class RequestMetrics:
    systemPromptTokens: float
    toolSchemaTokens: float
    requestFingerprint: str
    turnIndex: int | None = None

    @property
    def turn_key(self) -> Any:
        return self.turnIndex if self.turnIndex is not None else self.requestFingerprint


@dataclass(frozen=True)
class BarrierResult:
    canProceed: bool
    compactionPerformed: bool
    error: str | None = None
    outcome: CompactionOutcome | None = None
    # Not part of SOBA's result: what the barrier measured, for traces and reports.
    snapshot: Any = None
    post_snapshot: Any = None
    plan: CompactionPlan | None = None


@dataclass(frozen=True)
class RecoveryResult:
    recovered: bool
    shouldRetry: bool
    error: str | None = None
    outcome: CompactionOutcome | None = None
    snapshot: Any = None
    post_snapshot: Any = None
    plan: CompactionPlan | None = None


class ContextController:
    """Holds at most one pending intent; no work happens until the next barrier."""

    def __init__(
        self,
        manager: ContextManager | None,
        *,
        emit: Callable[[dict[str, Any]], None] | None = None,
        auto_compact_enabled: Callable[[], bool] | None = None,
    ) -> None:
        self.manager = manager
        self.emit = emit or (lambda event: None)
        self.auto_compact_enabled = auto_compact_enabled or (lambda: True)
        self.pending: dict[str, Any] | None = None
        self.last_soft_attempt_turn: Any = None
        self._overflow_turns: set[Any] = set()

    # ── intents ─────────────────────────────────────────────────────────────────
    @property
    def pending_trigger(self) -> str | None:
        return self.pending["trigger"] if self.pending else None

    def _mark(self, trigger: str, reason: str | None = None) -> None:
        if self.pending is None or _PRIORITY[trigger] >= _PRIORITY[self.pending["trigger"]]:
            self.pending = {"trigger": trigger, "reason": reason}

    def schedule_turn_complete(self, response_status: str | None, error_count: int) -> bool:
        """After a turn: mark turn_complete iff completed cleanly (no ROI at record time)."""
        if (
            self.manager is None
            or response_status != "completed"
            or error_count != 0
            or not self.auto_compact_enabled()
        ):
            return False
        self._mark(TURN_COMPLETE)
        return True

    def schedule_latest_milestone(self, checkpoint_events: list[dict[str, Any]]) -> bool:
        """After a tool batch: the last milestone/plan_pivot checkpoint becomes pending."""
        latest = next(
            (
                e
                for e in reversed(checkpoint_events)
                if e.get("kind") in ("milestone", "plan_pivot")
            ),
            None,
        )
        if latest is None or self.manager is None or not self.auto_compact_enabled():
            return False
        self._mark(latest["kind"], latest.get("reason"))
        return True

    # ── the barrier ─────────────────────────────────────────────────────────────
    def _configured(self) -> ContextManager:
        """The manager, on the paths that run only after checking that there is one."""
        if self.manager is None:
            raise HarnessFault("the controller has no context manager")
        return self.manager

    def _snapshot(self, metrics: RequestMetrics) -> ContextSnapshot:
        return self._configured().get_snapshot(
            metrics.systemPromptTokens, metrics.toolSchemaTokens, metrics.requestFingerprint
        )

    def preflight(
        self, metrics: RequestMetrics, signal: AbortSignal | None = None
    ) -> BarrierResult:
        """``performPreInferenceCheck``: the barrier before every model request."""
        if self.manager is None:
            return BarrierResult(True, False)
        policy = self.manager.policy
        snapshot = self._snapshot(metrics)
        hard = policy.evaluate_hard_limit(snapshot)
        decision: TriggerDecision | None = hard if hard.shouldCompact else None
        trigger = decision.trigger if decision else None
        required = hard.shouldCompact
        key = metrics.turn_key
        if isinstance(key, int):
            self._overflow_turns = {
                t for t in self._overflow_turns if not isinstance(t, int) or t == key
            }
        auto = self.auto_compact_enabled()
        if not required and not auto:
            self.pending = None
        if not required and auto and self.last_soft_attempt_turn != key:
            pending, self.pending = self.pending, None  # consumed, even if it fails ROI
            if pending is not None:
                decision = (
                    policy.evaluate_turn_complete(snapshot)
                    if pending["trigger"] == TURN_COMPLETE
                    else policy.evaluate_milestone(snapshot)
                )
                if decision.shouldCompact:
                    trigger = pending["trigger"]
            if decision is None or not decision.shouldCompact:
                decision = policy.evaluate_auto_threshold(snapshot)
                trigger = decision.trigger
        if decision is None or not decision.shouldCompact or not trigger:
            return BarrierResult(True, False, snapshot=snapshot)
        if not required:
            self.last_soft_attempt_turn = key
        plan = self.manager.create_plan(
            trigger,
            snapshot,
            required,
            decision.estimatedReclaimableTokens,
            decision.estimatedSavingsRatio,
        )
        outcome, post = self._run(plan, metrics, signal)
        limit = post.hardLimit
        if outcome.status == O.COMPLETED and post.effectiveTokens <= limit:
            return BarrierResult(
                True, True, outcome=outcome, snapshot=snapshot, post_snapshot=post, plan=plan
            )
        if not required and post.effectiveTokens <= limit:
            # A soft barrier is advisory: it warns through its terminal event and goes on.
            return BarrierResult(
                True, False, outcome=outcome, snapshot=snapshot, post_snapshot=post, plan=plan
            )
        if outcome.status == O.COMPLETED:
            error = (
                f"Post-compaction effective tokens ({js_number(post.effectiveTokens)}) still "
                f"exceed hard limit ({js_number(limit)})."
            )
        else:
            error = outcome.reason
        self._context_error(error, post.effectiveTokens, limit)
        return BarrierResult(
            False, outcome.status == O.COMPLETED, error, outcome, snapshot, post, plan
        )

    def recover_context_overflow(
        self, metrics: RequestMetrics, signal: AbortSignal | None = None
    ) -> RecoveryResult:
        """One emergency compaction per turn after a provider context_overflow error."""
        if self.manager is None:
            return RecoveryResult(False, False, "Context manager is not configured.")
        key = metrics.turn_key
        if key in self._overflow_turns:
            error = "Context overflow recovery already attempted for this turn."
            self._context_error(error, 0, 0)
            return RecoveryResult(False, False, error)
        self._overflow_turns.add(key)
        snapshot = self._snapshot(metrics)
        decision = self.manager.policy.evaluate_context_overflow(snapshot)
        plan = self.manager.create_plan(
            CONTEXT_OVERFLOW,
            snapshot,
            True,
            decision.estimatedReclaimableTokens,
            decision.estimatedSavingsRatio,
        )
        outcome, post = self._run(plan, metrics, signal)
        seen: dict[str, Any] = {"snapshot": snapshot, "post_snapshot": post, "plan": plan}
        if outcome.status == O.COMPLETED and post.effectiveTokens <= post.hardLimit:
            return RecoveryResult(True, True, outcome=outcome, **seen)
        if outcome.status == O.COMPLETED:
            error = (
                "Emergency compaction freed insufficient context. Post-compaction: "
                f"{js_number(post.effectiveTokens)}, hard limit: {js_number(post.hardLimit)}"
            )
        else:
            error = outcome.reason
        self._context_error(error, post.effectiveTokens, post.hardLimit)
        return RecoveryResult(False, False, error, outcome, **seen)

    def record_provider_usage(
        self, input_tokens: float | None, fingerprint: str, through_entry_id: str | None = None
    ) -> None:
        """After a model response: its reported input tokens become the meter's watermark
        (a response without usage records nothing)."""
        if self.manager is None or input_tokens is None:
            return
        self.manager.record_provider_usage(input_tokens, through_entry_id, fingerprint)

    def effective_context_tokens(self, metrics: RequestMetrics) -> float | None:
        try:
            return self._snapshot(metrics).effectiveTokens if self.manager else None
        except Exception:
            return None

    # ── events ──────────────────────────────────────────────────────────────────
    def _run(
        self, plan: CompactionPlan, metrics: RequestMetrics, signal: AbortSignal | None
    ) -> tuple[CompactionOutcome, ContextSnapshot]:
        self._emit_start(plan)
        outcome = self._configured().execute_plan(plan, signal)
        post = self._snapshot(metrics)
        self._emit_outcome(plan, outcome, post.effectiveTokens)
        return outcome, post

    def _now(self) -> int:
        return self._configured().clock.epoch_ms()

    def _emit_start(self, plan: CompactionPlan) -> None:
        snap = plan.snapshot
        self.emit(
            {
                "type": ev.COMPACTION_START,
                "timestamp": self._now(),
                "operationId": plan.operationId,
                "trigger": plan.trigger,
                "reason": ev.legacy_reason(plan.trigger),
                "tokensBefore": snap.effectiveTokens,
                "effectiveTokens": snap.effectiveTokens,
                "softLimit": self._configured().policy.soft_limit(snap),
                "hardLimit": snap.hardLimit,
                "required": plan.required,
                "source": snap.source,
                "checkpointId": None,
                "quality": None,
                "strategy": None,
                "durationMs": 0,
                "reclaimedTokens": 0,
            }
        )

    def _emit_outcome(
        self, plan: CompactionPlan, outcome: CompactionOutcome, measured_after: float
    ) -> None:
        snap = plan.snapshot
        metrics = outcome.metrics
        after = metrics["estimatedTokensAfter"] if metrics else measured_after
        reclaimed = metrics["reclaimedTokens"] if metrics else max(0, snap.effectiveTokens - after)
        soft = self._configured().policy.soft_limit(snap)
        common = {
            "timestamp": self._now(),
            "operationId": plan.operationId,
            "trigger": plan.trigger,
        }
        if outcome.status == O.COMPLETED:
            self.emit(
                {
                    "type": ev.COMPACTION_DONE,
                    **common,
                    "reason": ev.legacy_reason(plan.trigger),
                    "tokensBefore": snap.effectiveTokens,
                    "tokensAfter": after,
                    "tokensSaved": reclaimed,
                    "reclaimedTokens": reclaimed,
                    "strategy": outcome.strategy or "unknown",
                    "quality": outcome.quality,
                    "checkpointId": outcome.checkpointId,
                    "durationMs": outcome.durationMs,
                    "softLimit": soft,
                    "hardLimit": snap.hardLimit,
                    "required": plan.required,
                }
            )
            return
        kind = {O.CANCELLED: ev.COMPACTION_CANCELLED, O.FAILED: ev.COMPACTION_FAILED}.get(
            outcome.status, ev.COMPACTION_SKIPPED
        )  # skipped and stale
        self.emit(
            {
                "type": kind,
                **common,
                "reason": outcome.reason,
                "tokensBefore": snap.effectiveTokens,
                "tokensAfter": after,
                "reclaimedTokens": reclaimed,
                "durationMs": outcome.durationMs,
                "softLimit": soft,
                "hardLimit": snap.hardLimit,
                "required": plan.required,
                "checkpointId": None,
                "quality": None,
                "strategy": outcome.strategy,
            }
        )

    def _context_error(self, error: str, effective: float, hard_limit: float) -> None:
        self.emit(
            {
                "type": ev.CONTEXT_ERROR,
                "timestamp": self._now(),
                "error": error,
                "effectiveTokens": effective,
                "hardLimit": hard_limit,
                "recoveryAttempted": True,
            }
        )
