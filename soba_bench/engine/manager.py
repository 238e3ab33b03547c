"""The context manager: plans, strictly sequential execution, and every outcome with SOBA's
reason texts (engine.md e.1, e.2, d.4, d.6), and its other entry points: ``/compact``,
scheduled compaction, the older hard-limit and overflow checks that hosts and SOBA's own tests
call directly, and the sidebar numbers (d.4, d.6, l.4). The only append is the capsule at
step 12."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Sequence
from typing import Any

from soba_bench.engine import outcome as O
from soba_bench.engine.attempt import (
    AbortSignal,
    AttemptContext,
    Interrupted,
    RealClock,
    VirtualClock,
    reason_message,
    reason_text,
)
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.compactor import SOBA_CAPSULES, Attempt, Compactor
from soba_bench.engine.config import EngineConfig
from soba_bench.engine.cutpoint import ListSlice, SplitIndex, find_cut_point
from soba_bench.engine.generator import CapsuleGenerator, GenerationAborted, GenerationResult
from soba_bench.engine.memory import capsule_to_memory, should_mirror
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan
from soba_bench.engine.policy import CONTEXT_OVERFLOW, HARD_LIMIT, USER_REQUEST, TriggerPolicy
from soba_bench.engine.snapshot import ContextMeter, ContextSnapshot
from soba_bench.engine.span import SpanDigest
from soba_bench.engine.strategies.base import GenerationInput, Strategy
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.engine.variants import EngineVariant, get_variant
from soba_bench.errors import HarnessFault
from soba_bench.jscompat import js_number, js_to_fixed

log = logging.getLogger("soba_bench.engine.manager")

MANUAL_SYSTEM_PROMPT_TOKENS = 1000  # /compact hard-codes these (engine.md b.2)
MANUAL_TOOL_SCHEMA_TOKENS = 500


class ContextManager:
    """Owns the meter, the policy and the generator for one branch."""

    # True: an attempt reads only the entries that joined its span since the last attempt
    # (engine/span.py). False: the reference path, every attempt re-reads its whole span as
    # SOBA does; same outcomes, kept for the property tests that compare the two.
    incremental_spans = True
    # True (with incremental_spans): the deterministic capsule's state, ledger and size are
    # remembered between attempts while their inputs are unchanged (engine/capsule_memo.py).
    # False: rebuilt at every attempt; same outcomes, kept for the tests that compare both.
    memoize_capsules = True

    def __init__(
        self,
        branch: LiveBranch,
        config: EngineConfig,
        *,
        chain: Sequence[Strategy] | None = None,
        variant: EngineVariant | str | None = None,
        clock: VirtualClock | RealClock | None = None,
        compatibility_key: str | None = None,
        memory_sink: Callable[[dict[str, Any]], Any] | None = None,
        seed: int = 0,
        compactor: Compactor | None = None,
    ) -> None:
        self.branch = branch
        # The step of each attempt that changes the model input (engine/compactor.py);
        # SOBA's capsule step unless a job-level compactor replaces it.
        self.compactor = compactor or SOBA_CAPSULES
        self.config = config
        self.compaction = config.compaction
        if variant is None:
            variant = get_variant()
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.meter = ContextMeter(
            config.contextWindow,
            config.maxOutputTokens,
            config.compaction.safetyReserveTokens,
            compatibility_key,
        )
        self.policy = TriggerPolicy(config.compaction)
        self.generator = CapsuleGenerator(
            chain or [DeterministicStrategy()], self.variant, branch.meter
        )
        self.clock = clock or VirtualClock()
        self.memory_sink = memory_sink
        self.last_outcome: CompactionOutcome | None = None
        self.last_snapshot: ContextSnapshot | None = None
        self._sequence = 0
        self._lock = threading.Lock()
        self._rng = random.Random(seed)
        self._span: SpanDigest | None = None
        self._splits: SplitIndex | None = None

    # ── measuring ───────────────────────────────────────────────────────────────
    def get_snapshot(
        self, sys_tokens: float, tool_tokens: float, fingerprint: str, additional: float = 0
    ) -> ContextSnapshot:
        snap = self.meter.snapshot(self.branch, fingerprint, sys_tokens, tool_tokens, additional)
        self.last_snapshot = snap
        return snap

    def _measure(self, sys_tokens: float, tool_tokens: float, fingerprint: str) -> ContextSnapshot:
        # The manager's own entry points measure without caching: only getSnapshot (the
        # controller's path) feeds the sidebar's last snapshot, as in SOBA.
        return self.meter.snapshot(self.branch, fingerprint, sys_tokens, tool_tokens)

    def record_provider_usage(
        self, input_tokens: float, through_entry_id: str | None, fingerprint: str
    ) -> None:
        self.meter.record_provider_usage(input_tokens, through_entry_id, fingerprint)

    def update_model_limits(self, context_window: float, output_reserve: float) -> None:
        window = max(1, int(context_window))
        largest = max(1, window - self.meter.safety_reserve_tokens - 1)
        reserve = min(max(1, int(output_reserve)), largest)
        if window == self.meter.context_window and reserve == self.meter.max_output_tokens:
            return
        self.meter.update_limits(window, reserve)
        self.last_snapshot = None

    # ── plans ───────────────────────────────────────────────────────────────────
    def _operation_id(self) -> str:
        self._sequence += 1
        return f"{self.branch.session_id}:compact:{self.clock.epoch_ms()}:{self._sequence}"

    def create_plan(
        self,
        trigger: str,
        snapshot: ContextSnapshot,
        required: bool,
        reclaimable: float = 0,
        ratio: float = 0,
        custom_instructions: str | None = None,
    ) -> CompactionPlan:
        return CompactionPlan(
            self._operation_id(),
            trigger,
            snapshot,
            self.branch.leaf_id,
            required,
            reclaimable,
            ratio,
            custom_instructions,
        )

    def execute_plan(
        self, plan: CompactionPlan, signal: AbortSignal | None = None
    ) -> CompactionOutcome:
        """Plans run strictly one at a time per manager (a second caller waits)."""
        with self._lock:
            outcome = self._perform(plan, signal)
            self.last_outcome = outcome
            return outcome

    # ── the attempt ─────────────────────────────────────────────────────────────
    def outcome(
        self, plan: CompactionPlan, status: str, ctx: AttemptContext, reason: str, **values: Any
    ) -> CompactionOutcome:
        """An attempt's outcome: ``values`` plus the plan's trigger, id and requirement and
        the attempt's duration (the one place outcomes are built)."""
        return CompactionOutcome(
            status=status,
            trigger=plan.trigger,
            reason=reason,
            operationId=plan.operationId,
            durationMs=ctx.elapsed_ms(),
            required=plan.required,
            **values,
        )

    def _perform(self, plan: CompactionPlan, signal: AbortSignal | None) -> CompactionOutcome:
        timeout = self.compaction.timeoutMs
        ctx = AttemptContext(self.clock, timeout, signal)
        try:
            return self._attempt(plan, ctx)
        finally:
            ctx.close()

    def _attempt(self, plan: CompactionPlan, ctx: AttemptContext) -> CompactionOutcome:
        if ctx.aborted:
            return self.outcome(plan, O.CANCELLED, ctx, "Compaction cancelled before generation")
        branch = self.branch
        if len(branch) == 0:
            return self.outcome(plan, O.SKIPPED, ctx, "Empty session — nothing to compact")
        return self.compactor.compact(Attempt(self, plan, ctx))

    def capsule_attempt(self, plan: CompactionPlan, ctx: AttemptContext) -> CompactionOutcome:
        """SOBA's capsule step on the branch as it now is: cut point, a capsule from the
        strategy chain (deterministic fallback on a model deadline), validation, actual ROI,
        append."""
        branch = self.branch
        start = branch.effective_window_start()
        window = ListSlice(branch.entries, start)  # no copy: attempts repeat per barrier
        if not any(e.item is not None for e in window):
            return self.outcome(plan, O.SKIPPED, ctx, "No items to compact")
        splits = self._split_index(start)
        cut = find_cut_point(
            window,
            self.compaction.keepRecentTokens,
            lambda i: branch.item_tokens(start + i),
            branch.tool_positions,
            start,
            branch.token_sums,
            splits,
        )
        span = self._span_digest(start, start + cut)
        if span is not None:
            span.split_index = splits
        if span is not None:
            # views, not copies: the digest's lists only grow, and a capsule copies its ids
            source_ids: Sequence[str] = ListSlice(span.ids)
            source_items: Sequence[dict[str, Any]] = ListSlice(span.items)
        else:
            compacted = [e for e in window[:cut] if e.item is not None]
            source_ids = [
                e.id for e in compacted if e.id is not None
            ]  # every replayed entry has one
            source_items = [e.item for e in compacted if e.item is not None]
        kept = [e for e in window[cut:] if e.item is not None]
        if not source_items:
            return self.outcome(
                plan,
                O.SKIPPED,
                ctx,
                "No reclaimable session history before a safe compaction boundary",
            )
        previous = branch.last_capsule
        gen = GenerationInput(
            session_id=branch.session_id,
            branch_index=branch,
            source_entry_ids=source_ids,
            source_items=source_items,
            kept_items=[e.item for e in kept if e.item is not None],
            first_compacted_entry_id=source_ids[0],
            first_kept_entry_id=kept[0].id if kept else "root",
            trigger=plan.trigger,
            snapshot=plan.snapshot,
            activated_skills=branch.active_skill_refs(),
            previous_state=previous.data.get("portableState") if previous else None,
            custom_instructions=plan.customInstructions,
            compatibility_key=self.meter.compatibility_key,
            span=span,
        )
        kept_tokens = branch.tokens_from(start + cut)
        try:
            if branch.leaf_id != plan.expectedLeafId:
                return self.outcome(
                    plan, O.STALE, ctx, "Session leaf changed before capsule generation"
                )
            result, fallback = self.generate(gen, ctx, plan.required, kept_tokens)
            return self._conclude(plan, ctx, result, fallback)
        except HarnessFault:
            raise  # not SOBA's failure to record: the replay itself cannot go on
        except Exception as exc:  # SOBA's catch-all: cancelled if aborted, else failed
            return self.failure(plan, ctx, exc, "Capsule generation failed")

    def generate(
        self, gen: GenerationInput, ctx: AttemptContext, required: bool, kept_tokens: int
    ) -> tuple[GenerationResult, bool]:
        """A draft from the strategy chain, and whether it is the deterministic fallback
        (taken when a model deadline passes; an external abort still raises)."""
        try:
            result = self.generator.generate(gen, ctx, self.branch, required, kept_tokens)
        except (Interrupted, GenerationAborted):
            # A provider deadline is a model failure, not a reason to drop the barrier;
            # a real (external) abort still appends nothing.
            if not ctx.timed_out or ctx.externally_aborted:
                raise
            result = self.generator.generate_deterministic(
                gen, ctx, self.branch, required, kept_tokens
            )
            return result, True
        return result, False

    def failure(
        self, plan: CompactionPlan, ctx: AttemptContext, exc: Exception, reason: str
    ) -> CompactionOutcome:
        """SOBA's catch-all for an attempt that raised: cancelled if aborted, else failed
        with ``reason``."""
        if ctx.aborted:
            return self.outcome(
                plan, O.CANCELLED, ctx, reason_message(ctx.reason), error=_error_text(exc)
            )
        log.warning("%s: %s", reason, exc)
        return self.outcome(plan, O.FAILED, ctx, reason, error=_error_text(exc))

    def _split_index(self, start: int) -> SplitIndex | None:
        """The window's split index, grown to the branch end (None on the reference path)."""
        if not self.incremental_spans:
            return None
        index = self._splits
        if index is None or index.entries is not self.branch.entries or index.low != start:
            index = self._splits = SplitIndex(self.branch.entries, start)
        index.extend_to(len(self.branch.entries))
        return index

    def _span_digest(self, start: int, stop: int) -> SpanDigest | None:
        """The digest of ``entries[start:stop]``, grown from the previous attempt's when the
        span only gained entries at its end (None on the reference path, or when an item
        makes an extraction throw: then the reference path reproduces SOBA's failure)."""
        if not self.incremental_spans:
            return None
        span = self._span
        if span is None or not span.matches(self.branch, start, stop):
            span = self._span = SpanDigest(
                self.branch, start, self.branch.last_capsule_index, memoize=self.memoize_capsules
            )
        span.extend_to(stop)
        return None if span.broken else span

    def _conclude(
        self, plan: CompactionPlan, ctx: AttemptContext, result: GenerationResult, fallback: bool
    ) -> CompactionOutcome:
        draft, validation = result.draft, result.validation
        if ctx.externally_aborted or (ctx.aborted and not fallback):
            external = ctx.external if ctx.externally_aborted else None
            reason = external.reason if external is not None else ctx.reason
            return self.outcome(plan, O.CANCELLED, ctx, reason_message(reason), draft=draft)
        common = dict(
            strategy=result.strategy_used,
            metrics=draft.metrics,
            validation=validation,
            draft=draft,
            timeout_fallback=fallback,
        )
        if self.branch.leaf_id != plan.expectedLeafId:
            return self.outcome(
                plan,
                O.STALE,
                ctx,
                "Session leaf changed while capsule was being generated",
                **common,
            )
        common["quality"] = draft.quality
        timeout = js_number(self.compaction.timeoutMs)
        if not validation.valid:
            messages = "; ".join(e.message for e in validation.errors)
            if plan.required and fallback:
                reason = (
                    f"Compaction model timed out after {timeout}ms; deterministic fallback "
                    f"validation failed: {messages}"
                )
            else:
                reason = f"Validation failed: {messages}"
            return self.outcome(plan, O.FAILED, ctx, reason, **common)
        roi_failure = self.soft_roi_failure(plan, draft.metrics)
        if roi_failure:
            return self.outcome(plan, O.SKIPPED, ctx, roi_failure, **common)
        fields = self.capsule_fields(plan, result)
        checkpoint_id = fields["checkpointId"]
        capsule = self.branch.append_capsule(fields)
        # The watermark measured the request before this capsule; the post-check must not
        # reuse it.
        self.meter.invalidate_watermark()
        self._mirror(capsule.data)
        reason = (
            (
                f"Compaction model timed out after {timeout}ms; completed using deterministic "
                "fallback"
            )
            if fallback
            else f"Compaction completed using {result.strategy_used} strategy"
        )
        return self.outcome(
            plan, O.COMPLETED, ctx, reason, checkpointId=checkpoint_id, capsule=capsule, **common
        )

    def capsule_fields(
        self,
        plan: CompactionPlan,
        result: GenerationResult,
        provenance: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A capsule entry's fields for ``result`` in SOBA's order, under a new checkpoint
        id (``provenance`` replaces the draft's when given)."""
        draft = result.draft
        fields = {
            "checkpointId": self._new_checkpoint_id(),
            "trigger": plan.trigger,
            "strategy": result.strategy_used,
            "quality": draft.quality,
            "portableState": draft.portableState,
            "artifacts": draft.artifacts,
            "activatedSkills": draft.activatedSkills,
        }
        if draft.nativeContinuation is not None:
            fields["nativeContinuation"] = draft.nativeContinuation
        if provenance is None:
            ids = draft.provenance.get("sourceEntryIds")
            if isinstance(ids, ListSlice):  # the capsule keeps its own list (it is written out)
                draft.provenance = {**draft.provenance, "sourceEntryIds": list(ids)}
            provenance = draft.provenance
        fields["provenance"] = provenance
        fields["metrics"] = draft.metrics
        return fields

    def soft_roi_failure(self, plan: CompactionPlan, metrics: dict[str, Any]) -> str | None:
        """Why a soft attempt's actual reclaim fails SOBA's ROI rules, or None."""
        if plan.required or plan.trigger == USER_REQUEST:
            return None
        cfg = self.compaction
        if metrics["reclaimedTokens"] < cfg.minReclaimableTokens:
            return (
                f"Actual reclaimed tokens ({js_number(metrics['reclaimedTokens'])}) below "
                f"minReclaimableTokens ({js_number(cfg.minReclaimableTokens)})"
            )
        if metrics["savingsRatio"] < cfg.minSavingsRatio:
            return (
                f"Actual savings ratio ({js_to_fixed(metrics['savingsRatio'], 2)}) below "
                f"minSavingsRatio ({js_number(cfg.minSavingsRatio)})"
            )
        return None

    def _new_checkpoint_id(self) -> str:
        existing = self.branch.checkpoint_ids
        for _ in range(100):
            candidate = f"ck_{self._rng.getrandbits(48):012x}"
            if candidate not in existing:
                return candidate
        return f"ck_{self.clock.epoch_ms():x}"[:15].ljust(15, "0")

    def _mirror(self, capsule: dict[str, Any]) -> None:
        if self.memory_sink is None or not should_mirror(capsule):
            return
        try:
            self.memory_sink(capsule_to_memory(capsule, self.branch.session_id))
        except Exception as exc:  # memory mirrors are advisory
            log.warning("memory mirror failed: %s", exc)

    # The entry points hosts call besides the agent loop's triggers (engine.md d.4, d.6, l.4).

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

    def _required(
        self, trigger: str, sys_tokens: float, tool_tokens: float, fingerprint: str
    ) -> CompactionOutcome | None:
        """One required plan if the trigger's policy asks for it, else None."""
        snap = self._measure(sys_tokens, tool_tokens, fingerprint)
        decide = (
            self.policy.evaluate_hard_limit
            if trigger == HARD_LIMIT
            else self.policy.evaluate_context_overflow
        )
        decision = decide(snap)
        if not decision.shouldCompact:
            return None
        plan = self.create_plan(
            trigger, snap, True, decision.estimatedReclaimableTokens, decision.estimatedSavingsRatio
        )
        return self.execute_plan(plan)

    def pre_inference_check(
        self, sys_tokens: float, tool_tokens: float, fingerprint: str
    ) -> dict[str, Any]:
        """The older hard-limit-only entry point (d.6)."""
        outcome = self._required(HARD_LIMIT, sys_tokens, tool_tokens, fingerprint)
        if outcome is None:
            return {"canProceed": True, "compactionPerformed": False}
        if outcome.status != O.COMPLETED:
            return {
                "canProceed": False,
                "compactionPerformed": False,
                "error": outcome.reason,
                "outcome": outcome,
            }
        post = self._measure(sys_tokens, tool_tokens, fingerprint)
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
        outcome = self._required(CONTEXT_OVERFLOW, sys_tokens, tool_tokens, fingerprint)
        if outcome is None:
            # evaluate_context_overflow always asks for a plan; reaching this is our bug.
            raise HarnessFault("the context_overflow policy declined a required plan")
        if outcome.status != O.COMPLETED:
            return {
                "recovered": False,
                "shouldRetry": False,
                "outcome": outcome,
                "error": outcome.reason,
            }
        post = self._measure(sys_tokens, tool_tokens, fingerprint)
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
        last_compact: dict[str, Any] | None
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


def _error_text(exc: BaseException) -> str:
    return reason_text(exc.reason) if isinstance(exc, Interrupted) else str(exc)
