"""Edge scenarios of the model-backed path (test-scenarios section 11, items 9, 10, 11, 16,
20) and the engine variants' blocker-saturation deadlock."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from soba_bench.engine.attempt import AttemptContext, RealClock, SimulatedReply, VirtualClock
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import CompactionConfig, EngineConfig
from soba_bench.engine.controller import RequestMetrics
from soba_bench.engine.facade import Engine
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.engine.strategies.base import GenerationInput
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy
from soba_bench.engine.variants import DEFAULT_VARIANT, VARIANTS, get_variant
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry
from tests.builders import assistant, capsule_line, function_call, user

WAIT = 5.0
FP = "fp"


class Model:
    """A virtual-clock model; ``on_call`` runs when the request is sent."""

    def __init__(self, reply: str | None = None, latency_ms: float = 0, error: str | None = None):
        self.reply, self.latency_ms, self.error = reply, latency_ms, error
        self.prompts: list[str] = []
        self.on_call = None

    def __call__(self, prompt: str, ctx: AttemptContext) -> str:
        self.prompts.append(prompt)
        if self.on_call is not None:
            self.on_call()
        return ctx.call_model(
            SimulatedReply(text=self.reply, latency_ms=self.latency_ms, error=self.error)
        )


def chain(model) -> list:
    return [PortableOnlyStrategy(model, lambda gen: "summarize"), DeterministicStrategy()]


def fill(branch: LiveBranch, pairs: int, chars: int = 320) -> None:
    for i in range(pairs):
        branch.append_item(user(f"User message {i}: " + "x" * chars))
        branch.append_item(assistant(f"Assistant response {i}: " + "y" * chars))


def manager_with(model, branch: LiveBranch | None = None, clock=None, **compaction: Any):
    settings = {"keepRecentTokens": 100, **compaction}
    branch = branch or LiveBranch("edge")
    return ContextManager(
        branch,
        EngineConfig(compaction=CompactionConfig(**settings)),
        chain=chain(model),
        clock=clock or VirtualClock(),
    )


def capsules(branch: LiveBranch) -> list[dict]:
    return [e.data for e in branch.entries if e.kind == E.CONTEXT_CAPSULE]


# ── 11.9: a JSON array passes SOBA's object test ─────────────────────────────────
def test_11_9_array_reply_yields_an_all_default_portable_state() -> None:
    snapshot = ContextSnapshot(
        "estimated", 0, 500, 500, 500, 10, 5, 128_000, 16_384, 8_192, 103_424
    )
    branch = LiveBranch("edge")
    branch.append_item(user("the task"), "e1")
    gen = GenerationInput(
        session_id="edge",
        branch_index=branch,
        source_entry_ids=["e1"],
        source_items=[user("the task")],
        kept_items=[],
        first_compacted_entry_id="e1",
        first_kept_entry_id="root",
        trigger="user_request",
        snapshot=snapshot,
        activated_skills=[],
    )
    draft = chain(Model("[]"))[0].generate(
        gen, AttemptContext(VirtualClock(), 15_000), get_variant()
    )
    assert (draft.strategy, draft.quality) == ("portable_only", "portable")
    assert draft.portableState == {
        "goal": "Continue working",
        "constraints": [],
        "completed": [],
        "inProgress": [],
        "pending": [],
        "decisions": [],
        "blockers": [],
        "nextSteps": [],
    }


def test_11_9_array_reply_through_the_manager() -> None:
    manager = manager_with(Model("  [1, 2]  "))
    fill(manager.branch, 5)
    outcome = manager.manual_compact(system_prompt_tokens=10, tool_schema_tokens=5)
    assert (outcome.status, outcome.strategy, outcome.quality) == (
        "completed",
        "portable_only",
        "portable",
    )
    assert capsules(manager.branch)[0]["portableState"]["goal"] == "Continue working"


@pytest.mark.parametrize("reply", ["null", "0", '"text"', "true", "12"])
def test_11_9_non_object_json_falls_back(reply: str) -> None:
    manager = manager_with(Model(reply))
    fill(manager.branch, 5)
    outcome = manager.manual_compact(system_prompt_tokens=10, tool_schema_tokens=5)
    assert (outcome.strategy, outcome.quality) == ("portable_only", "degraded")


# ── 11.10: an empty goal falls through the chain; a model error does not ─────────
def test_11_10_empty_goal_falls_through_to_the_deterministic_slot() -> None:
    manager = manager_with(Model(json.dumps({"goal": "", "completed": ["x"]})))
    fill(manager.branch, 5)
    outcome = manager.manual_compact(system_prompt_tokens=10, tool_schema_tokens=5)
    assert outcome.status == "completed"
    assert (outcome.strategy, outcome.quality) == ("deterministic", "degraded")
    assert outcome.reason == "Compaction completed using deterministic strategy"
    [capsule] = capsules(manager.branch)
    assert (capsule["strategy"], capsule["quality"]) == ("deterministic", "degraded")
    assert capsule["portableState"]["goal"] == "User message 3: " + "x" * 320


def test_11_10_model_error_keeps_the_portable_only_label() -> None:
    manager = manager_with(Model(error="503 Service Unavailable"))
    fill(manager.branch, 5)
    outcome = manager.manual_compact(system_prompt_tokens=10, tool_schema_tokens=5)
    assert outcome.status == "completed"
    assert (outcome.strategy, outcome.quality) == ("portable_only", "degraded")
    assert outcome.reason == "Compaction completed using portable_only strategy"
    [capsule] = capsules(manager.branch)
    assert (capsule["strategy"], capsule["quality"]) == ("portable_only", "degraded")


# ── 11.11: soft trigger + timeout, the fallback misses the actual ROI ────────────
def _soft_timeout_engine() -> tuple[Engine, Model]:
    model = Model(json.dumps({"goal": "late"}), latency_ms=5_000)
    config = EngineConfig(
        contextWindow=10_000,
        maxOutputTokens=1_000,
        compaction=CompactionConfig(
            keepRecentTokens=100,
            safetyReserveTokens=100,
            minTokensForAutoCompact=1,
            autoCompactThresholdRatio=0.1,
            minReclaimableTokens=500,
            minSavingsRatio=0.1,
            timeoutMs=1_000,
        ),
    )
    engine = Engine.create(config, chain=chain(model), clock=VirtualClock())
    # The nearest message boundary keeps the big answer: only "task" is compacted.
    engine.branch.append_item(user("task"))
    engine.branch.append_item(assistant("z" * 10_500))
    return engine, model


def test_11_11_soft_timeout_fallback_skipped_by_actual_roi() -> None:
    engine, model = _soft_timeout_engine()
    result = engine.controller.preflight(RequestMetrics(10, 5, "turn_1", 1))
    assert (result.canProceed, result.compactionPerformed) == (True, False)
    assert result.plan.trigger == "auto_threshold"
    assert len(model.prompts) == 1
    outcome = result.outcome
    assert outcome.status == "skipped"
    assert outcome.reason == "Actual reclaimed tokens (0) below minReclaimableTokens (500)"
    assert outcome.timeout_fallback is True
    assert (outcome.strategy, outcome.quality) == ("deterministic", "degraded")
    assert outcome.durationMs == 1_000  # the deadline, on the virtual clock
    assert outcome.metrics["reclaimedTokens"] == 0
    assert engine.branch.capsule_count == 0
    types = [e["type"] for e in engine.events.events]
    assert types == ["compaction_start", "compaction_skipped"]
    assert engine.events.events[1]["strategy"] == "deterministic"


# ── 11.16: a stale outcome is surfaced as compaction_skipped ─────────────────────
@pytest.mark.parametrize("required", [False, True])
def test_11_16_stale_outcome_is_a_skipped_event(required: bool) -> None:
    model = Model(json.dumps({"goal": "g", "pending": ["p"]}), latency_ms=30)
    config = EngineConfig(
        contextWindow=4_000 if required else 100_000,
        maxOutputTokens=500,
        compaction=CompactionConfig(
            keepRecentTokens=100,
            safetyReserveTokens=100,
            minTokensForAutoCompact=1,
            minReclaimableTokens=100,
            minSavingsRatio=0.1,
            autoCompactThresholdRatio=0.01,
        ),
    )
    engine = Engine.create(config, chain=chain(model), clock=VirtualClock())
    fill(engine.branch, 20)  # 3850 tokens
    model.on_call = lambda: engine.branch.append_item(user("typed while compacting"))
    result = engine.controller.preflight(RequestMetrics(10, 5, "turn_1", 1))
    outcome = result.outcome
    assert result.plan.required is required
    assert outcome.status == "stale"
    assert outcome.reason == "Session leaf changed while capsule was being generated"
    assert engine.branch.capsule_count == 0
    events = engine.events.events
    skipped = events[1]
    assert skipped["type"] == "compaction_skipped"
    assert skipped["reason"] == outcome.reason
    # tokensAfter is the discarded draft's estimate, not the post-barrier measurement.
    assert skipped["tokensAfter"] == outcome.metrics["estimatedTokensAfter"]
    assert skipped["tokensAfter"] != result.post_snapshot.effectiveTokens
    assert skipped["reclaimedTokens"] == outcome.metrics["reclaimedTokens"] > 0
    assert (skipped["strategy"], skipped["quality"], skipped["checkpointId"]) == (
        "portable_only",
        None,
        None,
    )
    if required:  # a required barrier fails closed
        assert (result.canProceed, result.error) == (False, outcome.reason)
        assert [e["type"] for e in events] == [
            "compaction_start",
            "compaction_skipped",
            "context_error",
        ]
    else:  # a soft one is advisory
        assert (result.canProceed, result.compactionPerformed) == (True, False)
        assert len(events) == 2


# ── 11.20: plans run one at a time; the second is planned against an old leaf ────
def _two_plans(manager: ContextManager):
    snap = manager.get_snapshot(10, 5, FP)
    return (
        manager.create_plan("hard_limit", snap, True),
        manager.create_plan("hard_limit", snap, True),
    )


def test_11_20_second_plan_is_stale_after_the_first_appended_virtual() -> None:
    model = Model(json.dumps({"goal": "g", "pending": ["p"]}), latency_ms=50)
    manager = manager_with(model)
    fill(manager.branch, 10)
    first_plan, second_plan = _two_plans(manager)
    assert first_plan.operationId.endswith(":1") and second_plan.operationId.endswith(":2")
    first = manager.execute_plan(first_plan)
    second = manager.execute_plan(second_plan)
    assert first.status == "completed"
    assert second.status == "stale"
    assert second.reason == "Session leaf changed before capsule generation"
    assert second.metrics is None and second.strategy is None
    assert len(model.prompts) == 1  # no generation for the stale plan
    assert manager.last_outcome is second
    assert len(capsules(manager.branch)) == 1


def test_11_20_second_plan_waits_for_the_first_real() -> None:
    started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def model(prompt: str, ctx: AttemptContext) -> str:
        calls.append(1)

        def call() -> str:
            started.set()
            release.wait(WAIT)
            return json.dumps({"goal": "g", "pending": ["p"]})

        return ctx.call_model(call)

    manager = ContextManager(
        LiveBranch("edge"),
        EngineConfig(compaction=CompactionConfig(keepRecentTokens=100)),
        chain=chain(model),
        clock=RealClock(),
    )
    fill(manager.branch, 10)
    first_plan, second_plan = _two_plans(manager)
    results: dict[str, Any] = {}
    first = threading.Thread(target=lambda: results.update(a=manager.execute_plan(first_plan)))
    first.start()
    assert started.wait(WAIT)
    second = threading.Thread(target=lambda: results.update(b=manager.execute_plan(second_plan)))
    second.start()
    second.join(0.1)
    assert second.is_alive() and "b" not in results  # queued behind the first plan
    assert calls == [1]
    release.set()
    first.join(WAIT)
    second.join(WAIT)
    assert results["a"].status == "completed"
    assert results["b"].status == "stale"
    assert results["b"].reason == "Session leaf changed before capsule generation"
    assert calls == [1]
    assert len(capsules(manager.branch)) == 1


def test_11_20_second_plan_skipped_when_nothing_is_left_to_compact() -> None:
    # Only tool items, all compacted: the first capsule keeps nothing ("root"), so the
    # second plan's window is empty and an earlier skip wins over the stale check.
    manager = manager_with(
        Model(json.dumps({"goal": "g", "pending": ["p"]})), keepRecentTokens=5_000
    )
    for n in range(3):
        manager.branch.append_item(function_call(f"c{n}", "read", json.dumps({"path": f"{n}.py"})))
        manager.branch.append_item(
            {"type": "function_call_output", "call_id": f"c{n}", "output": "o" * 700}
        )
    first_plan, second_plan = _two_plans(manager)
    first = manager.execute_plan(first_plan)
    second = manager.execute_plan(second_plan)
    assert first.status == "completed"
    assert capsules(manager.branch)[0]["provenance"]["firstKeptEntryId"] == "root"
    assert (second.status, second.reason) == ("skipped", "No items to compact")


# ── engine variants: the blocker-saturation deadlock ─────────────────────────────
OLD_BLOCKERS = [f"Old blocker {n}: flaky network" for n in range(10)]
FAILURE = "Error: build failed: cannot find module 'left-pad'"
FAILURE_OUTPUT = FAILURE + "\n" + "trace " * 1_700


def _saturated_engine(variant: str) -> Engine:
    config = EngineConfig(
        contextWindow=4_000,
        maxOutputTokens=500,
        compaction=CompactionConfig(keepRecentTokens=200, safetyReserveTokens=100),
    )
    engine = Engine.create(
        config, chain=[DeterministicStrategy()], variant=variant, clock=VirtualClock()
    )
    branch = engine.branch
    branch.append_item(user("Fix the build"), "e0")
    branch.append_item(assistant("Working on it"), "e1")
    line = capsule_line(
        "c1",
        "e1",
        first_kept="e1",
        first_compacted="e0",
        checkpoint_id="ck_0123456789ab",
        goal="Fix the build",
        blockers=OLD_BLOCKERS,
    )
    branch.append(Entry(E.CONTEXT_CAPSULE, line))
    branch.append_item(function_call("b1", "bash", json.dumps({"command": "bun run build"})), "e2")
    branch.append_item(
        {
            "type": "local_shell_call_output",
            "call_id": "b1",
            "output": FAILURE_OUTPUT,
            "status": "failed",
        },
        "e3",
    )
    branch.append_item(assistant("Investigating the failure " + "w" * 2_000), "e4")
    branch.append_item(user("Please continue " + "u" * 900), "e5")
    return engine


def test_variants_registry() -> None:
    assert VARIANTS.names() == [
        "soba-0.6.14",
        "soba-0.6.14+extended-redaction",
        "soba-0.6.14+newest-blockers",
    ]
    assert get_variant().name == DEFAULT_VARIANT == "soba-0.6.14"
    assert get_variant().newest_blockers_first is False
    assert get_variant().extended_redaction is False  # SOBA's own sanitizer rules only
    assert get_variant("soba-0.6.14+extended-redaction").extended_redaction is True
    assert get_variant("soba-0.6.14+newest-blockers").newest_blockers_first is True


def test_default_variant_deadlocks_on_saturated_blockers() -> None:
    engine = _saturated_engine("soba-0.6.14")
    metrics = RequestMetrics(10, 5, "turn_1", 1)
    assert engine.manager.get_snapshot(10, 5, "turn_1").effectiveTokens > 3_400  # hard limit
    for _ in range(2):  # hard-limit attempts are not limited per turn: it fails every time
        result = engine.controller.preflight(metrics)
        assert result.plan.trigger == "hard_limit"
        assert (result.canProceed, result.compactionPerformed) == (False, False)
        outcome = result.outcome
        assert outcome.status == "failed"
        assert [e.code for e in outcome.validation.errors] == ["lost_blocker"]
        quoted = FAILURE_OUTPUT[:100]  # the validator quotes the first 100 characters
        assert outcome.reason == f'Validation failed: Active blocker lost in capsule: "{quoted}"'
        assert result.error == outcome.reason
        # The cap kept the ten oldest blockers and dropped the new failure.
        assert outcome.draft.portableState["blockers"] == OLD_BLOCKERS
    assert engine.branch.capsule_count == 1  # only the old capsule
    types = [e["type"] for e in engine.events.events]
    assert types == ["compaction_start", "compaction_failed", "context_error"] * 2


def test_newest_blockers_variant_completes() -> None:
    engine = _saturated_engine("soba-0.6.14+newest-blockers")
    result = engine.controller.preflight(RequestMetrics(10, 5, "turn_1", 1))
    assert (result.canProceed, result.compactionPerformed) == (True, True)
    assert result.outcome.status == "completed"
    capsule = engine.branch.last_capsule.data
    blockers = capsule["portableState"]["blockers"]
    assert len(blockers) == 10
    assert blockers[0].startswith(FAILURE)
    assert blockers[1:] == OLD_BLOCKERS[:9]
    assert capsule["provenance"]["sourceEntryIds"] == ["e1", "e2", "e3", "e4"]
    assert capsule["provenance"]["firstKeptEntryId"] == "e5"
    assert result.post_snapshot.effectiveTokens <= result.post_snapshot.hardLimit
