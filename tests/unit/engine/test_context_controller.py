"""The context controller: SOBA's context-controller.test.ts (test-scenarios 10.1) with the
events asserted field by field (engine.md l.1), first against a fake manager as SOBA's test
does, then end to end through a real engine."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from soba_bench.engine import events as ev
from soba_bench.engine.attempt import AbortSignal, SimulatedReply, VirtualClock
from soba_bench.engine.config import CompactionConfig, EngineConfig
from soba_bench.engine.controller import ContextController, RequestMetrics
from soba_bench.engine.facade import Engine
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan
from soba_bench.engine.policy import TriggerPolicy
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy
from soba_bench.session import entries as E
from soba_bench.session.capsule_text import capsule_text
from tests.builders import assistant, user

WAIT = 5.0
START_FIELDS = {
    "type",
    "timestamp",
    "operationId",
    "trigger",
    "reason",
    "tokensBefore",
    "effectiveTokens",
    "softLimit",
    "hardLimit",
    "required",
    "source",
    "checkpointId",
    "quality",
    "strategy",
    "durationMs",
    "reclaimedTokens",
}
DONE_FIELDS = {
    "type",
    "timestamp",
    "operationId",
    "trigger",
    "reason",
    "tokensBefore",
    "tokensAfter",
    "tokensSaved",
    "reclaimedTokens",
    "strategy",
    "quality",
    "checkpointId",
    "durationMs",
    "softLimit",
    "hardLimit",
    "required",
}
TERMINAL_FIELDS = (DONE_FIELDS - {"tokensSaved"}) | set()
ERROR_FIELDS = {"type", "timestamp", "error", "effectiveTokens", "hardLimit", "recoveryAttempted"}


# ── a fake manager, as in SOBA's test ────────────────────────────────────────────
def snapshot(effective: float) -> ContextSnapshot:
    return ContextSnapshot(
        source="estimated",
        providerInputTokens=0,
        estimatedTrailingTokens=effective,
        effectiveTokens=effective,
        historicalTokens=int(effective),
        systemPromptTokens=10,
        toolSchemaTokens=5,
        contextWindow=1_200,
        maxOutputTokens=100,
        safetyReserveTokens=100,
        hardLimit=1_000,
    )


def outcome(status: str, required: bool = False) -> CompactionOutcome:
    done = status == "completed"
    return CompactionOutcome(
        status=status,
        trigger="hard_limit" if required else "turn_complete",
        reason=status,
        operationId="op_1",
        durationMs=20,
        required=required,
        strategy="deterministic" if done else None,
        quality="degraded" if done else None,
        checkpointId="ctx_1" if done else None,
        metrics={
            "effectiveTokensBefore": 900,
            "estimatedTokensAfter": 300,
            "reclaimedTokens": 600,
            "savingsRatio": 2 / 3,
            "generationDurationMs": 20,
        }
        if done
        else None,
    )


class FakeManager:
    def __init__(self, effective: float = 900, execute=None) -> None:
        self.policy = TriggerPolicy(
            CompactionConfig(
                minTokensForAutoCompact=1,
                minReclaimableTokens=1,
                minSavingsRatio=0,
                keepRecentTokens=100,
                autoCompactThresholdRatio=0.8,
            )
        )
        self.clock = VirtualClock(1_700_000_000_000)
        self.effective = effective
        self.execute = execute or (lambda plan, signal: outcome("completed"))
        self.plans: list[CompactionPlan] = []
        self.executed: list[CompactionPlan] = []
        self.snapshots: list[tuple] = []

    def get_snapshot(self, sys_tokens, tool_tokens, fingerprint, additional=0) -> ContextSnapshot:
        self.snapshots.append((sys_tokens, tool_tokens, fingerprint))
        return snapshot(self.effective)

    def create_plan(self, trigger, snap, required, reclaimable=0, ratio=0, custom=None):
        plan = CompactionPlan(
            f"op_{len(self.plans) + 1}", trigger, snap, "leaf", required, reclaimable, ratio
        )
        self.plans.append(plan)
        return plan

    def execute_plan(self, plan, signal=None) -> CompactionOutcome:
        self.executed.append(plan)
        return self.execute(plan, signal)


def metrics(turn: int) -> RequestMetrics:
    return RequestMetrics(10, 5, f"turn_{turn}", turn)


def controller_for(manager, **kwargs) -> tuple[ContextController, list[dict]]:
    events: list[dict] = []
    return ContextController(manager, emit=events.append, **kwargs), events


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def test_1_start_is_emitted_before_generation_and_the_barrier_waits() -> None:
    release = threading.Event()
    started = threading.Event()

    def execute(plan, signal):
        started.set()
        assert release.wait(WAIT)
        return outcome("completed")

    manager = FakeManager(execute=execute)
    controller, events = controller_for(manager)
    assert controller.schedule_turn_complete("completed", 0) is True
    box: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: box.update(r=controller.preflight(metrics(2))))
    thread.start()
    assert started.wait(WAIT)
    assert types(events) == ["compaction_start"]
    assert thread.is_alive()  # the barrier is still pending
    release.set()
    thread.join(WAIT)
    result = box["r"]
    assert (result.canProceed, result.compactionPerformed) == (True, True)
    assert types(events) == ["compaction_start", "compaction_done"]
    start, done = events
    assert set(start) == START_FIELDS
    assert start == {
        "type": "compaction_start",
        "timestamp": 1_700_000_000_000,
        "operationId": "op_1",
        "trigger": "turn_complete",
        "reason": "pre_inference",
        "tokensBefore": 900,
        "effectiveTokens": 900,
        "softLimit": 800,
        "hardLimit": 1_000,
        "required": False,
        "source": "estimated",
        "checkpointId": None,
        "quality": None,
        "strategy": None,
        "durationMs": 0,
        "reclaimedTokens": 0,
    }
    assert set(done) == DONE_FIELDS
    assert {k: v for k, v in done.items() if k != "timestamp"} == {
        "type": "compaction_done",
        "operationId": "op_1",
        "trigger": "turn_complete",
        "reason": "pre_inference",
        "tokensBefore": 900,
        "tokensAfter": 300,
        "tokensSaved": 600,
        "reclaimedTokens": 600,
        "strategy": "deterministic",
        "quality": "degraded",
        "checkpointId": "ctx_1",
        "durationMs": 20,
        "softLimit": 800,
        "hardLimit": 1_000,
        "required": False,
    }
    plan = manager.plans[0]
    assert (plan.trigger, plan.required, plan.estimatedReclaimableTokens) == (
        "turn_complete",
        False,
        800,
    )
    assert plan.estimatedSavingsRatio == 800 / 900


def test_2_hard_limit_failure_fails_closed() -> None:
    manager = FakeManager(1_100, lambda plan, signal: outcome("failed", True))
    controller, events = controller_for(manager)
    result = controller.preflight(metrics(1))
    assert result.canProceed is False
    assert result.compactionPerformed is False
    assert result.error == "failed"
    assert types(events) == ["compaction_start", "compaction_failed", "context_error"]
    start, failed, error = events
    assert (start["trigger"], start["required"], start["tokensBefore"]) == (
        "hard_limit",
        True,
        1100,
    )
    assert set(failed) == TERMINAL_FIELDS
    assert {k: v for k, v in failed.items() if k != "timestamp"} == {
        "type": "compaction_failed",
        "operationId": "op_1",
        "trigger": "hard_limit",
        "reason": "failed",
        "tokensBefore": 1_100,
        "tokensAfter": 1_100,  # no metrics: the post-barrier measurement
        "reclaimedTokens": 0,
        "durationMs": 20,
        "softLimit": 800,
        "hardLimit": 1_000,
        "required": True,
        "checkpointId": None,
        "quality": None,
        "strategy": None,
    }
    assert set(error) == ERROR_FIELDS
    assert {k: v for k, v in error.items() if k != "timestamp"} == {
        "type": "context_error",
        "error": "failed",
        "effectiveTokens": 1_100,
        "hardLimit": 1_000,
        "recoveryAttempted": True,
    }


def test_3_soft_failure_continues_once_per_turn() -> None:
    manager = FakeManager(execute=lambda plan, signal: outcome("failed"))
    controller, events = controller_for(manager)
    controller.schedule_turn_complete("completed", 0)
    first = controller.preflight(metrics(2))
    second = controller.preflight(metrics(2))
    assert (first.canProceed, first.compactionPerformed) == (True, False)
    assert first.outcome.status == "failed"
    assert (second.canProceed, second.compactionPerformed, second.outcome) == (True, False, None)
    assert len(manager.executed) == 1
    assert types(events) == ["compaction_start", "compaction_failed"]
    assert events[1]["required"] is False
    # The next turn may try again (auto_threshold, the intent was consumed).
    third = controller.preflight(metrics(3))
    assert third.outcome.status == "failed"
    assert [p.trigger for p in manager.executed] == ["turn_complete", "auto_threshold"]


def test_4_milestone_and_plan_pivot_outrank_turn_complete() -> None:
    controller, _ = controller_for(FakeManager())
    controller.schedule_turn_complete("completed", 0)
    checkpoints = [
        {"kind": "milestone", "reason": "checkpoint"},
        {"kind": "plan_pivot", "reason": "pivot"},
    ]
    assert controller.schedule_latest_milestone(checkpoints) is True
    controller.schedule_turn_complete("completed", 0)
    assert controller.pending_trigger == "plan_pivot"
    assert controller.pending == {"trigger": "plan_pivot", "reason": "pivot"}


def test_4_pending_intent_is_consumed_once() -> None:
    manager = FakeManager()
    controller, _ = controller_for(manager)
    controller.schedule_latest_milestone([{"kind": "plan_pivot", "reason": "pivot"}])
    controller.preflight(metrics(2))
    assert controller.pending_trigger is None
    assert manager.executed[0].trigger == "plan_pivot"


def test_5_auto_off_disables_soft_intents_but_not_the_hard_barrier() -> None:
    manager = FakeManager(1_100, lambda plan, signal: outcome("failed", True))
    controller, events = controller_for(manager, auto_compact_enabled=lambda: False)
    assert controller.schedule_turn_complete("completed", 0) is False
    assert controller.schedule_latest_milestone([{"kind": "milestone", "reason": "m"}]) is False
    assert controller.pending_trigger is None
    assert controller.preflight(metrics(1)).canProceed is False
    assert len(manager.executed) == 1
    assert manager.executed[0].trigger == "hard_limit"
    assert types(events)[-1] == "context_error"


def test_6_overflow_recovery_once_per_turn() -> None:
    manager = FakeManager(execute=lambda plan, signal: outcome("completed", True))
    controller, events = controller_for(manager)
    first = controller.recover_context_overflow(metrics(4))
    second = controller.recover_context_overflow(metrics(4))
    assert (first.recovered, first.shouldRetry) == (True, True)
    assert (second.recovered, second.shouldRetry) == (False, False)
    assert len(manager.executed) == 1
    assert manager.executed[0].trigger == "context_overflow"
    assert types(events) == ["compaction_start", "compaction_done", "context_error"]
    assert events[0]["reason"] == events[1]["reason"] == "overflow_recovery"
    assert {k: v for k, v in events[2].items() if k != "timestamp"} == {
        "type": "context_error",
        "error": "Context overflow recovery already attempted for this turn.",
        "effectiveTokens": 0,
        "hardLimit": 0,
        "recoveryAttempted": True,
    }
    # A later numeric turn forgets the marker at its next preflight.
    controller.preflight(metrics(5))
    assert controller.recover_context_overflow(metrics(4)).shouldRetry is True


def test_7_exposes_measured_context() -> None:
    manager = FakeManager()
    controller, _ = controller_for(manager)
    assert controller.effective_context_tokens(metrics(1)) == 900
    assert manager.snapshots[-1] == (10, 5, "turn_1")

    class Broken(FakeManager):
        def get_snapshot(self, *args, **kwargs):
            raise RuntimeError("meter failed")

    assert ContextController(Broken()).effective_context_tokens(metrics(1)) is None
    assert ContextController(None).effective_context_tokens(metrics(1)) is None


def test_no_manager_always_proceeds() -> None:
    controller = ContextController(None)
    result = controller.preflight(metrics(1))
    assert (result.canProceed, result.compactionPerformed) == (True, False)
    assert controller.schedule_turn_complete("completed", 0) is False
    recovery = controller.recover_context_overflow(metrics(1))
    assert (recovery.recovered, recovery.error) == (False, "Context manager is not configured.")


@pytest.mark.parametrize(
    ("status", "event_type"),
    [
        ("cancelled", "compaction_cancelled"),
        ("skipped", "compaction_skipped"),
        ("stale", "compaction_skipped"),
    ],
)
def test_terminal_event_type_per_status(status: str, event_type: str) -> None:
    manager = FakeManager(execute=lambda plan, signal: outcome(status))
    controller, events = controller_for(manager)
    controller.schedule_turn_complete("completed", 0)
    result = controller.preflight(metrics(2))
    assert (result.canProceed, result.compactionPerformed) == (True, False)
    assert types(events) == ["compaction_start", event_type]
    assert events[1]["reason"] == status
    assert set(events[1]) == TERMINAL_FIELDS


def test_completed_but_still_over_the_limit_fails_closed() -> None:
    manager = FakeManager(1_100, lambda plan, signal: outcome("completed", True))
    controller, events = controller_for(manager)
    result = controller.preflight(metrics(1))
    assert (result.canProceed, result.compactionPerformed) == (False, True)
    assert result.error == "Post-compaction effective tokens (1100) still exceed hard limit (1000)."
    assert types(events) == ["compaction_start", "compaction_done", "context_error"]
    assert events[2]["error"] == result.error


# ── end to end through a real engine ─────────────────────────────────────────────
MARKER = "GOAL-MARKER-7f3a"


def fill(engine: Engine, pairs: int, chars: int = 700) -> None:
    for i in range(pairs):
        engine.branch.append_item(user(f"{MARKER} request {i} " + "x" * chars))
        engine.branch.append_item(assistant(f"reply {i} " + "y" * chars))


def engine_with(chain=None, **compaction: Any) -> Engine:
    settings = dict(
        keepRecentTokens=300,
        safetyReserveTokens=100,
        minTokensForAutoCompact=1,
        minReclaimableTokens=100,
        minSavingsRatio=0.1,
    )
    settings.update(compaction)
    config = EngineConfig(
        contextWindow=3_000, maxOutputTokens=400, compaction=CompactionConfig(**settings)
    )
    return Engine.create(config, chain=chain or [DeterministicStrategy()], clock=VirtualClock())


def assert_no_capsule_content(engine: Engine) -> None:
    """l.3: events carry numbers, ids, labels and reasons - never state or capsule text."""
    dumped = json.dumps(engine.events.events, ensure_ascii=False)
    assert MARKER not in dumped
    assert "SOBA Context Capsule" not in dumped
    for entry in engine.branch.entries:
        if entry.kind == E.CONTEXT_CAPSULE:
            assert capsule_text(entry.data)[:60] not in dumped
            assert json.dumps(entry.data["portableState"]) not in dumped
    for event in engine.events.events:
        assert set(event) <= ev.ALLOWED_FIELDS
        assert "portableState" not in event and "artifacts" not in event


def test_engine_hard_limit_done_event_matches_the_capsule() -> None:
    engine = engine_with()
    fill(engine, 7)  # 7 * (208 + 203) + 15 = 2892 > 2500
    result = engine.controller.preflight(metrics(1))
    assert (result.canProceed, result.compactionPerformed) == (True, True)
    [start, done] = engine.events.events
    capsule = engine.branch.last_capsule.data
    snap = result.snapshot
    assert start["tokensBefore"] == snap.effectiveTokens > snap.hardLimit == 2_500
    assert start["softLimit"] == 2_000  # floor(2500 * 0.8)
    assert (start["trigger"], start["required"], start["source"]) == (
        "hard_limit",
        True,
        "estimated",
    )
    assert start["operationId"] == done["operationId"] == result.outcome.operationId
    assert start["operationId"].startswith("session:compact:")
    assert done["checkpointId"] == capsule["checkpointId"] == result.outcome.checkpointId
    assert done["tokensAfter"] == capsule["metrics"]["estimatedTokensAfter"]
    assert done["tokensSaved"] == done["reclaimedTokens"] == capsule["metrics"]["reclaimedTokens"]
    assert (done["strategy"], done["quality"]) == ("deterministic", "degraded")
    assert done["durationMs"] == result.outcome.durationMs
    assert done["tokensAfter"] == result.post_snapshot.effectiveTokens
    assert_no_capsule_content(engine)


def test_engine_soft_post_generation_skip_event() -> None:
    def model(prompt, ctx):
        return ctx.call_model(
            SimulatedReply(text=json.dumps({"goal": MARKER * 2_000}), latency_ms=40)
        )

    chain = [PortableOnlyStrategy(model, lambda gen: "prompt"), DeterministicStrategy()]
    engine = engine_with(chain)
    fill(engine, 5)  # 2070 tokens: above the soft limit (2000), below the hard one (2500)
    engine.controller.schedule_turn_complete("completed", 0)
    result = engine.controller.preflight(metrics(2))
    assert (result.canProceed, result.compactionPerformed) == (True, False)
    assert result.outcome.status == "skipped"
    assert result.outcome.reason == ("Actual reclaimed tokens (0) below minReclaimableTokens (100)")
    [start, skipped] = engine.events.events
    assert (start["trigger"], skipped["trigger"]) == ("turn_complete", "turn_complete")
    assert skipped["type"] == "compaction_skipped"
    assert skipped["reason"] == result.outcome.reason
    assert skipped["tokensAfter"] == result.outcome.metrics["estimatedTokensAfter"]
    assert skipped["reclaimedTokens"] == 0
    assert (skipped["strategy"], skipped["quality"], skipped["checkpointId"]) == (
        "portable_only",
        None,
        None,
    )
    assert skipped["durationMs"] == 40  # simulated model latency
    assert engine.branch.capsule_count == 0
    assert_no_capsule_content(engine)


def test_engine_cancelled_hard_barrier_emits_cancelled_and_context_error() -> None:
    engine = engine_with()
    fill(engine, 7)
    signal = AbortSignal()
    signal.abort()
    result = engine.controller.preflight(metrics(1), signal)
    assert (result.canProceed, result.compactionPerformed) == (False, False)
    assert result.outcome.reason == "Compaction cancelled before generation"
    assert types(engine.events.events) == [
        "compaction_start",
        "compaction_cancelled",
        "context_error",
    ]
    cancelled, error = engine.events.events[1:]
    assert cancelled["reason"] == error["error"] == "Compaction cancelled before generation"
    assert cancelled["tokensAfter"] == error["effectiveTokens"] == result.snapshot.effectiveTokens
    assert engine.branch.capsule_count == 0


def test_engine_overflow_recovery_events() -> None:
    engine = engine_with()
    fill(engine, 3)  # below the hard limit: overflow compacts anyway
    recovery = engine.controller.recover_context_overflow(metrics(1))
    assert (recovery.recovered, recovery.shouldRetry) == (True, True)
    start, done = engine.events.events
    assert (start["trigger"], start["reason"], start["required"]) == (
        "context_overflow",
        "overflow_recovery",
        True,
    )
    assert done["type"] == "compaction_done"
    assert done["checkpointId"] == engine.branch.last_capsule.data["checkpointId"]
    assert_no_capsule_content(engine)
