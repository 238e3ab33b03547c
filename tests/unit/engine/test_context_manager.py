"""ContextManager: SOBA's context-manager.test.ts (test-scenarios section 4, items 1-26),
with the exact "[derived]" numbers.

Conventions of SOBA's test file: ``make_config`` is window 128000 / output 16384 with
keepRecentTokens 100 and safetyReserveTokens 1000 over the defaults, but a test that passes
its own compaction block replaces it entirely (unspecified keys go back to the defaults).
Calls use sys 10 / tools 5 and the fingerprint below. The model answers with
``DEFAULT_STATE`` unless a test says otherwise.
"""

from __future__ import annotations

import json
import math
import re
import threading
from typing import Any

import pytest

from soba_bench.engine.attempt import AbortSignal, RealClock, SimulatedReply, VirtualClock
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import CompactionConfig, EngineConfig
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.serializer import serialize_items
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy
from soba_bench.session import entries as E
from soba_bench.session.build_input import build_input
from soba_bench.session.entries import Entry
from tests.builders import assistant, capsule_line, function_call, function_output, user

FP = "test-fingerprint-123"
COMPAT_KEY = "openai::https://api.openai.com::gpt-4"
SESSION_ID = "session-under-test"
CHECKPOINT_ID = re.compile(r"^ck_[0-9a-f]{12}$")
WAIT = 5.0  # seconds a real-clock test waits for a thread before giving up


def state_json(**fields: Any) -> str:
    """A model reply with all eight portable-state keys (unspecified ones empty)."""
    state = {
        "goal": "",
        "constraints": [],
        "completed": [],
        "inProgress": [],
        "pending": [],
        "decisions": [],
        "blockers": [],
        "nextSteps": [],
    }
    state.update(fields)
    return json.dumps(state)


# SOBA's makeModelInvoker(): its capsule text with empty artifacts is 193 chars, 56 tokens.
DEFAULT_STATE = state_json(
    goal="Continue working on the task",
    completed=["Updated config"],
    pending=["Run tests"],
    nextSteps=["Deploy to staging"],
)
LATE_STATE = state_json(goal="Continue the task")


def prompt_builder(gen) -> str:
    """A stand-in for SOBA's summarizer prompt (the real one is a later issue): the
    conversation, the previous state when present, the custom instructions when given."""
    sections = [
        "Analyze the following conversation as data and extract a portable context state.",
        "Conversation:\n" + serialize_items(gen.source_items),
    ]
    if gen.previous_state:
        sections.append(
            "Previous context capsule state (carry this forward unless the conversation "
            "explicitly updates it):\n" + json.dumps(gen.previous_state)
        )
    if gen.custom_instructions:
        sections.append(f"Additional instructions: {gen.custom_instructions}")
    sections.append("Return only the JSON object, no markdown formatting.")
    return "\n\n".join(sections)


class VirtualModel:
    """A model on the virtual clock that records every prompt and attempt context."""

    def __init__(
        self, reply: str | None = DEFAULT_STATE, latency_ms: float = 0, error: str | None = None
    ) -> None:
        self.reply, self.latency_ms, self.error = reply, latency_ms, error
        self.prompts: list[str] = []
        self.contexts: list[Any] = []
        self.on_call = None  # optional hook run when the request is sent

    def __call__(self, prompt: str, ctx) -> str:
        self.prompts.append(prompt)
        self.contexts.append(ctx)
        if self.on_call is not None:
            self.on_call()
        return ctx.call_model(
            SimulatedReply(text=self.reply, latency_ms=self.latency_ms, error=self.error)
        )


class BlockingModel:
    """A model on the real clock whose reply waits until the test releases it (SOBA's
    ``deferredSummary``); the call runs in the attempt's worker thread."""

    def __init__(self, reply: str = LATE_STATE) -> None:
        self.reply = reply
        self.started = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()
        self.ctx = None
        self.prompts: list[str] = []

    def __call__(self, prompt: str, ctx) -> str:
        self.ctx = ctx
        self.prompts.append(prompt)

        def call() -> str:
            self.started.set()
            self.release.wait(WAIT)
            self.finished.set()
            return self.reply

        return ctx.call_model(call)


def make_config(
    window: float = 128_000, out: float = 16_384, compaction: CompactionConfig | None = None
) -> EngineConfig:
    if compaction is None:
        compaction = CompactionConfig(keepRecentTokens=100, safetyReserveTokens=1_000)
    return EngineConfig(contextWindow=window, maxOutputTokens=out, compaction=compaction)


def make_manager(
    config: EngineConfig | None = None,
    model=None,
    *,
    clock=None,
    memory: list | None = None,
    branch: LiveBranch | None = None,
) -> ContextManager:
    model = VirtualModel() if model is None else model
    return ContextManager(
        branch or LiveBranch(SESSION_ID),
        config or make_config(),
        chain=[PortableOnlyStrategy(model, prompt_builder), DeterministicStrategy()],
        clock=clock or VirtualClock(),
        compatibility_key=COMPAT_KEY,
        memory_sink=None if memory is None else memory.append,
    )


def fill_session(branch: LiveBranch, target_tokens: int) -> None:
    """SOBA's fillSession: ceil(N/100) pairs of 96/95-token messages (97/96 from i=10)."""
    for i in range(math.ceil(target_tokens * 3.5 / 350)):
        branch.append_item(user(f"User message {i}: " + "x" * 320))
        branch.append_item(assistant(f"Assistant response {i}: " + "y" * 310))


def capsules(branch: LiveBranch) -> list[dict[str, Any]]:
    return [e.data for e in branch.entries if e.kind == E.CONTEXT_CAPSULE]


def run_in_thread(fn):
    """Run ``fn`` as the agent loop would (its own thread); returns (thread, result box)."""
    box: dict[str, Any] = {}

    def target() -> None:
        box["result"] = fn()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, box


# ── preInferenceCheck ────────────────────────────────────────────────────────────
def test_1_pre_inference_proceeds_within_hard_limit() -> None:
    manager = make_manager()
    manager.branch.append_item(user("Hello"))
    manager.branch.append_item(assistant("Hi there"))
    result = manager.pre_inference_check(100, 50, FP)
    assert result["canProceed"] is True
    assert result["compactionPerformed"] is False
    assert capsules(manager.branch) == []


def test_2_hard_limit_blocks_and_compacts() -> None:
    config = make_config(500, 50, CompactionConfig(keepRecentTokens=50, safetyReserveTokens=10))
    manager = make_manager(config)
    fill_session(manager.branch, 600)
    assert manager.get_snapshot(10, 5, FP).effectiveTokens == 1161
    result = manager.pre_inference_check(10, 5, FP)
    assert result["compactionPerformed"] is True
    assert result["canProceed"] is True
    [capsule] = capsules(manager.branch)
    assert capsule["trigger"] == "hard_limit"
    assert (capsule["strategy"], capsule["quality"]) == ("portable_only", "portable")
    # Cut at index 11: only the last assistant message (95 tokens) is kept.
    ids = [e.id for e in manager.branch.entries[:12]]
    assert capsule["provenance"] == {
        "firstCompactedEntryId": ids[0],
        "firstKeptEntryId": ids[11],
        "sourceEntryIds": ids[:11],
    }
    metrics = capsule["metrics"]
    assert metrics["effectiveTokensBefore"] == 1161
    assert metrics["estimatedTokensAfter"] == 166  # 15 + 56 + 95
    assert metrics["reclaimedTokens"] == 995
    assert metrics["savingsRatio"] == 995 / 1161
    assert manager.get_snapshot(10, 5, FP).effectiveTokens == 166


def test_3_proceeds_after_compaction() -> None:
    config = make_config(500, 50, CompactionConfig(keepRecentTokens=200, safetyReserveTokens=10))
    manager = make_manager(config)
    fill_session(manager.branch, 600)
    assert manager.get_snapshot(30, 20, FP).effectiveTokens == 1196
    result = manager.pre_inference_check(30, 20, FP)
    assert result["compactionPerformed"] is True
    assert result["canProceed"] is True
    [capsule] = capsules(manager.branch)
    # Cut at index 9: assistant 4, user 5, assistant 5 (286 tokens) are kept.
    assert capsule["provenance"]["firstKeptEntryId"] == manager.branch.entries[9].id
    assert len(capsule["provenance"]["sourceEntryIds"]) == 9
    assert capsule["metrics"]["estimatedTokensAfter"] == 392  # 50 + 56 + 286
    assert manager.get_snapshot(30, 20, FP).effectiveTokens == 392


def test_4_watermark_invalidated_before_post_check() -> None:
    config = make_config(500, 50, CompactionConfig(keepRecentTokens=50, safetyReserveTokens=10))
    manager = make_manager(config)
    fill_session(manager.branch, 600)
    manager.record_provider_usage(500, manager.branch.leaf_id, FP)
    before = manager.get_snapshot(10, 5, FP)
    assert (before.source, before.effectiveTokens, before.hardLimit) == (
        "provider_usage",
        500,
        440,
    )
    result = manager.pre_inference_check(10, 5, FP)
    assert (result["canProceed"], result["compactionPerformed"]) == (True, True)
    assert result["outcome"].metrics["effectiveTokensBefore"] == 500
    assert result["outcome"].metrics["estimatedTokensAfter"] == 166
    assert result["outcome"].metrics["reclaimedTokens"] == 334
    post = manager.get_snapshot(10, 5, FP)
    assert post.source == "estimated"
    assert post.providerInputTokens == 0
    assert post.watermark is None
    assert post.effectiveTokens == 166 <= post.hardLimit


def _rollover_branch() -> LiveBranch:
    branch = LiveBranch(SESSION_ID)
    branch.append_item(user("Inspect the engine"), "e0")
    branch.append_item(assistant("Continuing engine inspection"), "e1")
    branch.append_item(
        function_call("old_batch", "read", json.dumps({"path": "old_batch.ts"})), "e2"
    )
    branch.append_item(function_output("old_batch", "x" * 4000), "e3")
    line = capsule_line(
        "e4",
        "e3",
        first_kept="e1",
        first_compacted="e0",
        checkpoint_id="ck_existing",
        goal="Inspect the engine",
        completed=["Mapped the entry point"],
        pending=["Map turn execution"],
        nextSteps=["Read turn modules"],
        readFiles=["src/engine/README.md"],
    )
    line.update(strategy="deterministic", quality="degraded")
    branch.append(Entry(E.CONTEXT_CAPSULE, line))
    for n, call_id in enumerate(["batch_1", "batch_2", "batch_3"]):
        args = json.dumps({"path": f"{call_id}.ts"})
        branch.append_item(function_call(call_id, "read", args), f"e{5 + 2 * n}")
        branch.append_item(function_output(call_id, "x" * 1200), f"e{6 + 2 * n}")
    return branch


def test_5_rolls_previous_capsule_forward_through_tool_batches() -> None:
    config = make_config(
        2_000, 400, CompactionConfig(keepRecentTokens=600, safetyReserveTokens=200)
    )
    manager = make_manager(config, VirtualModel("not-json"), branch=_rollover_branch())
    before = manager.get_snapshot(10, 5, FP)
    assert (before.source, before.effectiveTokens, before.hardLimit) == ("estimated", 2294, 1400)
    result = manager.pre_inference_check(10, 5, FP)
    assert (result["canProceed"], result["compactionPerformed"]) == (True, True)
    outcome = result["outcome"]
    assert outcome.trigger == "hard_limit"
    # Deterministic content through portable_only's internal fallback: slot name kept.
    assert (outcome.strategy, outcome.quality) == ("portable_only", "degraded")
    old, latest = capsules(manager.branch)
    assert old["checkpointId"] == "ck_existing"
    state, provenance = latest["portableState"], latest["provenance"]
    assert state["goal"] == "Inspect the engine"
    assert state["completed"] == ["Mapped the entry point"]
    assert state["pending"] == ["Map turn execution"]
    assert state["nextSteps"] == ["Read turn modules"]
    # The old ledger is not carried forward.
    assert latest["artifacts"]["readFiles"] == ["old_batch.ts", "batch_1.ts", "batch_2.ts"]
    assert provenance["firstKeptEntryId"] == "e9" != "e1"  # the batch_3 call
    assert provenance["sourceEntryIds"] == ["e1", "e2", "e3", "e5", "e6", "e7", "e8"]
    assert provenance["firstKeptEntryId"] not in provenance["sourceEntryIds"]
    assert latest["metrics"]["estimatedTokensAfter"] == 440  # 15 + 74 + 351
    assert manager.get_snapshot(10, 5, FP).effectiveTokens == 440
    items = build_input(manager.branch.entries).items
    call_ids = {i["call_id"] for i in items if i["type"] == "function_call"}
    outputs = [i for i in items if i["type"] == "function_call_output"]
    assert outputs and all(o["call_id"] in call_ids for o in outputs)


def test_6_empty_session_proceeds() -> None:
    config = make_config(100, 10, CompactionConfig(keepRecentTokens=5, safetyReserveTokens=1))
    manager = make_manager(config)
    assert manager.meter.hard_limit == 89
    result = manager.pre_inference_check(10, 5, FP)
    assert (result["canProceed"], result["compactionPerformed"]) == (True, False)
    assert capsules(manager.branch) == []


# ── handleContextOverflow ────────────────────────────────────────────────────────
def test_7_overflow_emergency_compaction_allows_retry() -> None:
    config = make_config(
        10_000, 2_000, CompactionConfig(keepRecentTokens=100, safetyReserveTokens=100)
    )
    manager = make_manager(config)
    fill_session(manager.branch, 1000)
    result = manager.handle_context_overflow(10, 5, FP)
    assert (result["recovered"], result["shouldRetry"]) == (True, True)
    outcome = result["outcome"]
    assert outcome.trigger == "context_overflow"
    assert outcome.required is True
    # 1925 is below the hard limit (7900): overflow compacts anyway.
    assert outcome.metrics["effectiveTokensBefore"] == 1925
    assert outcome.metrics["estimatedTokensAfter"] == 262  # 15 + 56 + 191
    [capsule] = capsules(manager.branch)
    assert capsule["provenance"]["firstKeptEntryId"] == manager.branch.entries[18].id


def test_8_overflow_recovers_below_hard_limit() -> None:
    config = make_config(500, 50, CompactionConfig(keepRecentTokens=200, safetyReserveTokens=10))
    manager = make_manager(config)
    fill_session(manager.branch, 1000)
    result = manager.handle_context_overflow(30, 20, FP)
    assert (result["recovered"], result["shouldRetry"]) == (True, True)
    metrics = result["outcome"].metrics
    assert metrics["effectiveTokensBefore"] == 1960
    assert metrics["estimatedTokensAfter"] == 392  # 50 + 56 + 286
    [capsule] = capsules(manager.branch)
    assert capsule["provenance"]["firstKeptEntryId"] == manager.branch.entries[17].id


def test_9_overflow_on_empty_session_fails() -> None:
    manager = make_manager()
    result = manager.handle_context_overflow(10, 5, FP)
    assert (result["recovered"], result["shouldRetry"]) == (False, False)
    assert result["outcome"].status == "skipped"
    assert result["error"] == "Empty session — nothing to compact"


# ── manualCompact ────────────────────────────────────────────────────────────────
def manual(manager: ContextManager, instructions: str | None = None, **kwargs):
    return manager.manual_compact(
        instructions, fingerprint=FP, system_prompt_tokens=10, tool_schema_tokens=5, **kwargs
    )


def test_10_manual_compact_completes() -> None:
    manager = make_manager(make_config(compaction=CompactionConfig(keepRecentTokens=100)))
    fill_session(manager.branch, 500)
    outcome = manual(manager)
    assert outcome.status == "completed"
    assert outcome.trigger == "user_request"
    assert CHECKPOINT_ID.match(outcome.checkpointId)
    assert (outcome.strategy, outcome.quality) == ("portable_only", "portable")
    assert outcome.reason == "Compaction completed using portable_only strategy"
    assert outcome.metrics["effectiveTokensBefore"] == 970
    assert outcome.metrics["estimatedTokensAfter"] == 262
    assert outcome.metrics["reclaimedTokens"] == 708
    [capsule] = capsules(manager.branch)
    assert capsule["provenance"]["firstKeptEntryId"] == manager.branch.entries[8].id


def test_11_manual_compact_noop_without_reclaimable_context() -> None:
    manager = make_manager(make_config(compaction=CompactionConfig(keepRecentTokens=50_000)))
    manager.branch.append_item(user("Hi"))
    outcome = manual(manager)
    assert outcome.status == "skipped"
    assert "No reclaimable" in outcome.reason
    assert outcome.reason == (
        "No reclaimable context (estimatedTokensAfter >= effectiveTokensBefore)"
    )
    assert (outcome.durationMs, outcome.required, outcome.metrics) == (0, False, None)
    assert manager.get_snapshot(10, 5, FP).effectiveTokens == 16
    assert capsules(manager.branch) == []


def test_12_custom_instructions_reach_the_prompt() -> None:
    model = VirtualModel(state_json(goal="Focus on API refactoring"))
    manager = make_manager(make_config(compaction=CompactionConfig(keepRecentTokens=100)), model)
    fill_session(manager.branch, 500)
    outcome = manual(manager, "Focus on API refactoring")
    assert outcome.status == "completed"
    [prompt] = model.prompts
    assert "Additional instructions: Focus on API refactoring" in prompt
    assert capsules(manager.branch)[0]["portableState"]["goal"] == "Focus on API refactoring"


def test_13_capsule_entry_created() -> None:
    manager = make_manager(make_config(compaction=CompactionConfig(keepRecentTokens=100)))
    fill_session(manager.branch, 500)
    manual(manager)
    [capsule] = capsules(manager.branch)
    assert capsule["trigger"] == "user_request"
    assert capsule["portableState"]["goal"] == "Continue working on the task"
    assert CHECKPOINT_ID.match(capsule["checkpointId"])
    assert capsule["parentId"] == manager.branch.entries[-2].id


def test_14_memory_mirror_on_explicit_compact() -> None:
    writes: list[dict] = []
    manager = make_manager(
        make_config(compaction=CompactionConfig(keepRecentTokens=100)), memory=writes
    )
    fill_session(manager.branch, 500)
    outcome = manual(manager)
    assert outcome.status == "completed"
    [write] = writes
    assert write["id"] == f"mem_{outcome.checkpointId}"
    assert write["type"] == "discovery"
    assert write["context"]["sessionId"] == SESSION_ID
    assert {"context-capsule", "checkpoint", "user_request"} <= set(write["tags"])
    assert f"Context capsule: {outcome.checkpointId}" in write["detail"]


def test_15_degraded_capsule_not_mirrored() -> None:
    writes: list[dict] = []
    manager = make_manager(
        make_config(compaction=CompactionConfig(keepRecentTokens=100)),
        VirtualModel("not-json"),
        memory=writes,
    )
    fill_session(manager.branch, 500)
    outcome = manual(manager)
    assert outcome.status == "completed"
    assert outcome.quality == "degraded"
    assert outcome.strategy == "portable_only"
    assert writes == []
    assert len(capsules(manager.branch)) == 1


def test_16_automatic_capsule_not_mirrored() -> None:
    writes: list[dict] = []
    compaction = CompactionConfig(
        keepRecentTokens=100, minReclaimableTokens=100, minSavingsRatio=0.1
    )
    manager = make_manager(make_config(compaction=compaction), memory=writes)
    fill_session(manager.branch, 1000)
    outcome = manager.compact_scheduled("auto_threshold", manager.get_snapshot(10, 5, FP))
    assert outcome.status == "completed"
    assert (outcome.trigger, outcome.required) == ("auto_threshold", False)
    assert len(capsules(manager.branch)) == 1
    assert writes == []
    metrics = outcome.metrics
    assert metrics["effectiveTokensBefore"] == 1925
    assert metrics["estimatedTokensAfter"] == 262
    assert metrics["reclaimedTokens"] == 1663
    assert metrics["savingsRatio"] == pytest.approx(0.864, abs=5e-4)
    assert metrics["savingsRatio"] == 1663 / 1925


# ── actual soft ROI ──────────────────────────────────────────────────────────────
def test_17_actual_soft_roi_skips_append() -> None:
    writes: list[dict] = []
    compaction = CompactionConfig(
        keepRecentTokens=100, minReclaimableTokens=500, minSavingsRatio=0.25
    )
    model = VirtualModel(state_json(goal="g" * 20_000))
    manager = make_manager(make_config(compaction=compaction), model, memory=writes)
    fill_session(manager.branch, 1000)
    outcome = manager.compact_scheduled("auto_threshold", manager.get_snapshot(10, 5, FP))
    assert outcome.status == "skipped"
    assert re.search(r"Actual (reclaimed tokens|savings ratio)", outcome.reason)
    assert outcome.reason == "Actual reclaimed tokens (0) below minReclaimableTokens (500)"
    # The capsule alone is 5736 tokens: 15 + 5736 + 191 = 5942 > 1925.
    assert outcome.metrics["estimatedTokensAfter"] == 5942
    assert outcome.metrics["reclaimedTokens"] == 0
    assert (outcome.strategy, outcome.quality) == ("portable_only", "portable")
    assert capsules(manager.branch) == []
    assert writes == []


# ── policy passthroughs ──────────────────────────────────────────────────────────
def test_18_turn_complete_low_roi() -> None:
    manager = make_manager()
    manager.branch.append_item(user("Hello"))
    snapshot = manager.get_snapshot(10, 5, FP)
    assert (snapshot.effectiveTokens, snapshot.hardLimit) == (17, 110_616)
    assert manager.policy.soft_limit(snapshot) == 88_492
    decision = manager.policy.evaluate_turn_complete(snapshot)
    assert decision.shouldCompact is False
    assert decision.reason == "Effective tokens (17) below soft limit (88492)"


def test_19_turn_complete_and_milestone_disabled() -> None:
    auto_off = make_manager(
        make_config(compaction=CompactionConfig(auto=False, keepRecentTokens=100))
    )
    fill_session(auto_off.branch, 5000)
    snapshot = auto_off.get_snapshot(10, 5, FP)
    turn = auto_off.policy.evaluate_turn_complete(snapshot)
    milestone = auto_off.policy.evaluate_milestone(snapshot)
    assert (turn.shouldCompact, turn.reason) == (False, "Auto-compact disabled")
    assert (milestone.shouldCompact, milestone.reason) == (False, "Milestone compact disabled")

    no_milestone = make_manager(
        make_config(compaction=CompactionConfig(compactOnMilestone=False, keepRecentTokens=100))
    )
    fill_session(no_milestone.branch, 5000)
    decision = no_milestone.policy.evaluate_milestone(no_milestone.get_snapshot(10, 5, FP))
    assert (decision.shouldCompact, decision.reason) == (False, "Milestone compact disabled")


# ── recordProviderUsage ──────────────────────────────────────────────────────────
def test_20_record_provider_usage_updates_watermark() -> None:
    manager = make_manager()
    manager.branch.append_item(user("Hello"))
    manager.record_provider_usage(5000, manager.branch.leaf_id, FP)
    snapshot = manager.get_snapshot(10, 5, FP)
    assert snapshot.source == "provider_usage"
    assert snapshot.providerInputTokens == 5000
    assert snapshot.watermark.requestFingerprint == FP
    assert snapshot.effectiveTokens == 5000


# ── transactional append safety (virtual and real clocks) ────────────────────────
def test_21_leaf_change_during_generation_is_stale_virtual() -> None:
    model = VirtualModel(LATE_STATE, latency_ms=1_000)
    manager = make_manager(model=model)
    fill_session(manager.branch, 1000)
    # The session moves on while the request is in flight.
    model.on_call = lambda: manager.branch.append_item(user("new leaf"))
    outcome = manual(manager)
    assert len(model.prompts) == 1
    assert outcome.status == "stale"
    assert outcome.reason == "Session leaf changed while capsule was being generated"
    assert (outcome.strategy, outcome.quality, outcome.checkpointId) == (
        "portable_only",
        None,
        None,
    )
    assert outcome.metrics["estimatedTokensAfter"] > 0  # the discarded draft's estimate
    assert capsules(manager.branch) == []


def test_21_leaf_change_during_generation_is_stale_real() -> None:
    model = BlockingModel()
    manager = make_manager(model=model, clock=RealClock())
    fill_session(manager.branch, 1000)
    thread, box = run_in_thread(lambda: manual(manager))
    assert model.started.wait(WAIT)
    manager.branch.append_item(user("new leaf"))
    model.release.set()
    thread.join(WAIT)
    assert not thread.is_alive()
    outcome = box["result"]
    assert outcome.status == "stale"
    assert outcome.reason == "Session leaf changed while capsule was being generated"
    assert capsules(manager.branch) == []


def test_22_abort_returns_cancelled_virtual() -> None:
    model = VirtualModel(LATE_STATE, latency_ms=60_000)
    manager = make_manager(model=model)
    fill_session(manager.branch, 1000)
    signal = AbortSignal()
    signal.schedule_abort(100, "test cancellation")  # after the request was sent
    outcome = manual(manager, signal=signal)
    assert len(model.prompts) == 1
    assert outcome.status == "cancelled"
    assert outcome.reason == "Compaction cancelled"  # a string reason is not an Error
    assert outcome.error == "test cancellation"
    assert model.contexts[0].aborted and not model.contexts[0].timed_out
    manager.clock.advance(120_000)  # the reply would have arrived by now
    assert capsules(manager.branch) == []


def test_22_abort_returns_cancelled_real() -> None:
    model = BlockingModel()
    manager = make_manager(model=model, clock=RealClock())
    fill_session(manager.branch, 1000)
    signal = AbortSignal()
    thread, box = run_in_thread(lambda: manual(manager, signal=signal))
    assert model.started.wait(WAIT)
    signal.abort("test cancellation")
    thread.join(WAIT)
    assert not thread.is_alive()
    outcome = box["result"]
    assert outcome.status == "cancelled"
    assert (outcome.reason, outcome.error) == ("Compaction cancelled", "test cancellation")
    model.release.set()  # the provider answers late
    assert model.finished.wait(WAIT)
    assert capsules(manager.branch) == []
    assert manager.branch.entries[-1].kind == E.ITEM


def _assert_timeout_fallback(manager: ContextManager, outcome, timeout_ms: int) -> None:
    assert outcome.status == "completed"
    assert (outcome.strategy, outcome.quality) == ("deterministic", "degraded")
    assert "timed out" in outcome.reason
    assert outcome.reason == (
        f"Compaction model timed out after {timeout_ms}ms; completed using deterministic fallback"
    )
    assert outcome.timeout_fallback is True
    [capsule] = capsules(manager.branch)
    assert capsule["strategy"] == "deterministic"


def test_23_timeout_falls_back_to_deterministic_virtual() -> None:
    model = VirtualModel(LATE_STATE, latency_ms=10**9)  # never resolves in time
    manager = make_manager(
        make_config(compaction=CompactionConfig(keepRecentTokens=100, timeoutMs=5)), model
    )
    fill_session(manager.branch, 1000)
    outcome = manual(manager)
    _assert_timeout_fallback(manager, outcome, 5)
    assert model.contexts[0].aborted and model.contexts[0].timed_out
    [capsule] = capsules(manager.branch)
    assert capsule["portableState"]["goal"] == "User message 8: " + "x" * 320
    assert outcome.metrics["estimatedTokensAfter"] == 324  # 15 + 118 + 191
    manager.clock.advance(10**10)  # the late reply changes nothing
    assert len(capsules(manager.branch)) == 1


def test_23_timeout_falls_back_to_deterministic_real() -> None:
    model = BlockingModel()
    manager = make_manager(
        make_config(compaction=CompactionConfig(keepRecentTokens=100, timeoutMs=50)),
        model,
        clock=RealClock(),
    )
    fill_session(manager.branch, 1000)
    outcome = manual(manager)
    _assert_timeout_fallback(manager, outcome, 50)
    assert model.ctx.aborted and model.ctx.timed_out
    assert outcome.metrics["estimatedTokensAfter"] == 324
    model.release.set()
    assert model.finished.wait(WAIT)
    assert len(capsules(manager.branch)) == 1


def _preflight_timeout_config(timeout_ms: int) -> EngineConfig:
    return make_config(
        500,
        50,
        CompactionConfig(keepRecentTokens=50, safetyReserveTokens=10, timeoutMs=timeout_ms),
    )


def test_24_required_preflight_timeout_uses_fallback_virtual() -> None:
    model = VirtualModel(LATE_STATE, latency_ms=10**9)
    manager = make_manager(_preflight_timeout_config(5), model)
    fill_session(manager.branch, 600)
    result = manager.pre_inference_check(10, 5, FP)
    assert (result["canProceed"], result["compactionPerformed"]) == (True, True)
    outcome = result["outcome"]
    assert (outcome.status, outcome.strategy, outcome.required) == (
        "completed",
        "deterministic",
        True,
    )
    assert model.contexts[0].aborted
    assert outcome.metrics["estimatedTokensAfter"] == 228  # 15 + 118 + 95
    manager.clock.advance(10**10)
    assert len(capsules(manager.branch)) == 1


def test_24_required_preflight_timeout_uses_fallback_real() -> None:
    model = BlockingModel()
    manager = make_manager(_preflight_timeout_config(50), model, clock=RealClock())
    fill_session(manager.branch, 600)
    result = manager.pre_inference_check(10, 5, FP)
    assert (result["canProceed"], result["compactionPerformed"]) == (True, True)
    outcome = result["outcome"]
    assert (outcome.status, outcome.strategy) == ("completed", "deterministic")
    assert model.ctx.aborted and model.ctx.timed_out
    assert outcome.metrics["estimatedTokensAfter"] == 228
    model.release.set()
    assert model.finished.wait(WAIT)
    assert len(capsules(manager.branch)) == 1


# ── unrelated errors, config access ──────────────────────────────────────────────
def test_25_no_compaction_below_hard_limit() -> None:
    manager = make_manager()
    fill_session(manager.branch, 500)
    assert manager.get_snapshot(10, 5, FP).effectiveTokens == 970
    result = manager.pre_inference_check(10, 5, FP)
    assert (result["canProceed"], result["compactionPerformed"]) == (True, False)
    assert capsules(manager.branch) == []
    assert manager.last_outcome is None


def test_26_policy_and_meter_access() -> None:
    manager = make_manager()
    assert manager.policy is not None
    assert manager.meter is not None
    assert manager.meter.hard_limit == 110_616


def test_26_manager_entry_points_do_not_feed_the_sidebar_snapshot() -> None:
    """Only getSnapshot caches the sidebar's snapshot; preInferenceCheck, manualCompact and
    handleContextOverflow measure without caching (engine.md l.4)."""
    config = make_config(500, 50, CompactionConfig(keepRecentTokens=50, safetyReserveTokens=10))
    manager = make_manager(config)
    fill_session(manager.branch, 600)
    assert manager.debug_info()["lastCompact"] is None
    result = manager.pre_inference_check(10, 5, FP)
    manual(manager)
    manager.handle_context_overflow(10, 5, FP)
    info = manager.debug_info()
    assert manager.last_snapshot is None
    assert info["effectiveTokens"] == 0
    assert (info["hardLimit"], info["softLimit"]) == (440, 439)
    assert info["lastCompact"]["status"] == manager.last_outcome.status
    assert result["outcome"].status == "completed"
    snapshot = manager.get_snapshot(10, 5, FP)
    assert manager.debug_info()["effectiveTokens"] == snapshot.effectiveTokens


def test_22_abort_already_due_on_the_virtual_clock_cancels_before_generation() -> None:
    model = VirtualModel()
    manager = make_manager(model=model, clock=VirtualClock(1_000))
    fill_session(manager.branch, 1000)
    signal = AbortSignal()
    signal.schedule_abort(500)  # the turn was aborted before the attempt started
    outcome = manual(manager, signal=signal)
    assert (outcome.status, outcome.reason) == (
        "cancelled",
        "Compaction cancelled before generation",
    )
    assert model.prompts == []
    assert capsules(manager.branch) == []


def test_22_abort_without_reason_reports_the_abort_error() -> None:
    model = VirtualModel(LATE_STATE, latency_ms=60_000)
    manager = make_manager(model=model)
    fill_session(manager.branch, 1000)
    signal = AbortSignal()
    signal.schedule_abort(100)
    outcome = manual(manager, signal=signal)
    # abort() without a reason aborts with an AbortError, which is an Error.
    assert (outcome.status, outcome.reason) == ("cancelled", "This operation was aborted")
    assert outcome.error == "This operation was aborted"
