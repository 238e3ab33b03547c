"""Extra edge scenarios derived from SOBA's code (test-scenarios.md section 11, items 1-8,
12-15 and 17-19): behaviour SOBA's own tests do not pin, with the numbers the ported
algorithms give."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import (
    DEFAULT_COMPACTION,
    CompactionConfig,
    EngineConfig,
    build_engine_config,
    resolve_compaction,
    validate_compaction_config,
)
from soba_bench.engine.controller import RequestMetrics
from soba_bench.engine.cutpoint import find_cut_point
from soba_bench.engine.facade import Engine
from soba_bench.engine.failures import tool_failure_output
from soba_bench.engine.policy import TriggerPolicy
from soba_bench.engine.snapshot import ESTIMATED, PROVIDER_USAGE, ContextMeter, ContextSnapshot
from soba_bench.meter.soba import estimate_item, estimate_items
from soba_bench.session.build_input import build_input
from soba_bench.session.entries import Entry
from tests.builders import assistant, capsule_line, chain, function_call, function_output, user

# A small model: hard 3400, soft min(3399, max(100, floor(3400 * 0.5))) = 1700.
SMALL = EngineConfig(
    contextWindow=4000,
    maxOutputTokens=500,
    systemPromptTokens=10,
    toolSchemaTokens=5,
    compaction=replace(
        DEFAULT_COMPACTION,
        minTokensForAutoCompact=100,
        autoCompactThresholdRatio=0.5,
        keepRecentTokens=200,
        minReclaimableTokens=100,
        minSavingsRatio=0.1,
        safetyReserveTokens=100,
    ),
)


def metrics(turn: int) -> RequestMetrics:
    return RequestMetrics(10, 5, f"turn_{turn}", turn)


def entries_of(items: list[dict[str, Any]]) -> list[Entry]:
    return [Entry(line["type"], line) for line in chain(items)]


def read_pair(call_id: str, output: str) -> list[dict[str, Any]]:
    return [
        function_call(call_id, "read", f'{{"path":"{call_id}.ts"}}'),
        function_output(call_id, output),
    ]


def shell(call_id: str, exit_code: int, output: str) -> list[dict[str, Any]]:
    return [
        {"type": "local_shell_call", "call_id": call_id, "command": "bun test"},
        {
            "type": "local_shell_call_output",
            "call_id": call_id,
            "output": output,
            "exit_code": exit_code,
        },
    ]


def fill(engine: Engine, pairs: int, prefix: str = "") -> None:
    """Pairs of 96-token messages ("u0 " + 330 chars -> ceil(333 / 3.5))."""
    for i in range(pairs):
        engine.branch.append_item(user(f"{prefix}u{i} " + "x" * 330))
        engine.branch.append_item(assistant(f"{prefix}a{i} " + "y" * 330))


def event_types(engine: Engine) -> list[str]:
    return [event["type"] for event in engine.events.events]


# ── 1, 2: cut points ──────────────────────────────────────────────────────────────


def test_edge_1_nearest_message_boundary_wins_over_the_keep_target() -> None:
    batches = [*read_pair("b1", "x" * 7000), *read_pair("b2", "x" * 7000)]
    batches += read_pair("b3", "x" * 700)
    with_assistant = entries_of([user("task"), assistant("working"), *batches])
    cut = find_cut_point(with_assistant, 600)
    assert cut == 1
    kept = estimate_items([e.item for e in with_assistant[cut:]])
    assert kept == 4223  # far more than keepRecentTokens

    without = entries_of([user("task"), *batches])
    cut = find_cut_point(without, 600)
    assert cut == 5  # the batch fallback keeps only b3
    assert without[cut].item["call_id"] == "b3"
    assert estimate_items([e.item for e in without[cut:]]) == 207


def test_edge_2_tool_pair_before_the_first_message_is_compacted() -> None:
    entries = entries_of([*read_pair("c1", "out"), user("question"), assistant("answer")])
    total = estimate_items([e.item for e in entries])
    assert total < 20_000
    assert find_cut_point(entries, 20_000) == 2


# ── 3: soft limit capped below the hard limit ─────────────────────────────────────


def test_edge_3_soft_limit_is_hard_minus_one_when_the_floor_is_higher() -> None:
    config = build_engine_config({"contextWindow": 36_192, "maxOutputTokens": 8_000})
    assert config.hardLimit == 20_000
    assert config.compaction.keepRecentTokens == 17_000  # auto-adapted
    policy = TriggerPolicy(config.compaction)
    assert policy.soft_limit_for(20_000) == 19_999

    def snap(effective: int) -> ContextSnapshot:
        return ContextSnapshot(
            ESTIMATED, 0, effective, effective, 0, 0, 0, 36_192, 8_000, 8_192, 20_000
        )

    below = policy.evaluate_auto_threshold(snap(19_998))
    assert below.reason == "Effective tokens (19998) below soft limit (19999)"
    eligible = policy.evaluate_auto_threshold(snap(19_999))
    # Eligible: past the soft-limit check, then stopped by the reclaimable minimum.
    assert eligible.reason == "Reclaimable tokens (2999) below minReclaimableTokens (12000)"
    relaxed = TriggerPolicy(
        replace(config.compaction, minReclaimableTokens=1_000, minSavingsRatio=0.1)
    )
    passed = relaxed.evaluate_auto_threshold(snap(19_999))
    assert (passed.shouldCompact, passed.reason) == (
        True,
        "ROI check passed: 15% savings estimated",
    )
    # A non-positive hard limit gives a negative soft limit: everything is "above" it.
    assert policy.soft_limit_for(0) == -1


# ── 4, 5, 6: pending intents at the barrier ───────────────────────────────────────


def test_edge_4_plan_pivot_with_milestones_off_runs_as_auto_threshold() -> None:
    config = replace(SMALL, compaction=replace(SMALL.compaction, compactOnMilestone=False))
    engine = Engine.create(config)
    fill(engine, 10)
    assert engine.controller.schedule_latest_milestone(
        [{"kind": "milestone", "reason": "m"}, {"kind": "plan_pivot", "reason": "pivot"}]
    )
    assert engine.controller.pending_trigger == "plan_pivot"
    result = engine.controller.preflight(metrics(2))
    assert (result.canProceed, result.compactionPerformed) == (True, True)
    assert result.snapshot.effectiveTokens == 1935
    assert result.outcome.status == "completed"
    assert result.outcome.trigger == "auto_threshold"
    assert engine.branch.last_capsule.data["trigger"] == "auto_threshold"
    assert engine.controller.pending is None
    assert event_types(engine) == ["compaction_start", "compaction_done"]
    assert engine.events.events[0]["trigger"] == "auto_threshold"


def test_edge_4b_plan_pivot_with_milestones_on_keeps_its_label() -> None:
    engine = Engine.create(SMALL)
    fill(engine, 10)
    engine.controller.schedule_latest_milestone([{"kind": "plan_pivot", "reason": "pivot"}])
    result = engine.controller.preflight(metrics(2))
    assert result.outcome.trigger == "plan_pivot"


def test_edge_5_one_soft_attempt_per_turn_keeps_a_later_intent_for_the_next_turn() -> None:
    engine = Engine.create(SMALL)
    controller = engine.controller
    fill(engine, 10)
    assert controller.schedule_turn_complete("completed", 0)
    first = controller.preflight(metrics(2))
    assert first.outcome.status == "completed"
    assert first.outcome.trigger == "turn_complete"
    assert controller.pending is None

    fill(engine, 8, prefix="t2")  # enough for the ROI check to pass again
    controller.schedule_latest_milestone([{"kind": "milestone", "reason": "mid-turn"}])
    again = controller.preflight(metrics(2))
    assert again.snapshot.effectiveTokens >= 1700
    assert (again.canProceed, again.compactionPerformed, again.outcome) == (True, False, None)
    assert controller.pending_trigger == "milestone"  # not consumed
    assert engine.branch.capsule_count == 1

    third = controller.preflight(metrics(3))
    assert third.outcome.status == "completed"
    assert third.outcome.trigger == "milestone"
    assert controller.pending is None
    assert engine.branch.capsule_count == 2


def test_edge_6_auto_disabled_below_the_hard_limit_discards_the_intent() -> None:
    engine = Engine.create(SMALL)
    controller = engine.controller
    fill(engine, 10)
    controller.schedule_turn_complete("completed", 0)
    controller.auto_compact_enabled = lambda: False
    assert controller.schedule_turn_complete("completed", 0) is False
    off = controller.preflight(metrics(2))
    assert (off.canProceed, off.compactionPerformed, off.outcome) == (True, False, None)
    assert controller.pending is None
    assert event_types(engine) == []

    controller.auto_compact_enabled = lambda: True
    on = controller.preflight(metrics(3))
    assert on.outcome.trigger == "auto_threshold"  # the turn_complete intent is gone


# ── 7, 8, 15: validation failures of the deterministic draft ──────────────────────


def fail_then_pass_engine(padding: int) -> Engine:
    engine = Engine.create(SMALL)
    for item in [
        user("run the tests " + "p" * padding),
        *shell("s1", 1, "1 test failed"),
        *shell("s2", 0, "all tests passed"),
        assistant("ok"),
        user("next step " + "q" * 700),
    ]:
        engine.branch.append_item(item)
    return engine


def test_edge_7_fail_then_pass_required_plan_fails_closed() -> None:
    engine = fail_then_pass_engine(11_550)  # 3300 tokens of padding: above the hard limit
    result = engine.controller.preflight(metrics(1))
    assert result.snapshot.effectiveTokens > 3400
    outcome = result.outcome
    assert (outcome.trigger, outcome.required, outcome.status) == ("hard_limit", True, "failed")
    assert outcome.strategy == "deterministic"
    assert outcome.draft.artifacts["verificationStatus"] == "passed"
    assert outcome.draft.portableState["blockers"] == ["1 test failed"]
    assert [e.code for e in outcome.validation.errors] == ["lost_failed_verification"]
    assert outcome.reason == "Validation failed: Failed verification status lost in capsule"
    assert (result.canProceed, result.compactionPerformed) == (False, False)
    assert result.error == outcome.reason
    assert event_types(engine) == ["compaction_start", "compaction_failed", "context_error"]
    assert engine.branch.capsule_count == 0


def test_edge_7_fail_then_pass_soft_plan_fails_but_the_barrier_continues() -> None:
    engine = fail_then_pass_engine(6_300)  # 1800 tokens: between soft and hard limits
    result = engine.controller.preflight(metrics(1))
    assert 1700 <= result.snapshot.effectiveTokens <= 3400
    outcome = result.outcome
    assert (outcome.trigger, outcome.required, outcome.status) == (
        "auto_threshold",
        False,
        "failed",
    )
    assert outcome.reason == "Validation failed: Failed verification status lost in capsule"
    assert (result.canProceed, result.compactionPerformed, result.error) == (True, False, None)
    assert event_types(engine) == ["compaction_start", "compaction_failed"]
    assert engine.branch.capsule_count == 0


OLD_BLOCKERS = [f"Old blocker {i}" for i in range(10)]


def engine_with_full_blocker_list(
    source: list[dict[str, Any]], variant: str = "soba-0.6.14"
) -> Engine:
    config = EngineConfig(compaction=replace(DEFAULT_COMPACTION, keepRecentTokens=50))
    engine = Engine.create(config, variant=variant)
    engine.branch.append_item(user("old task"), "e0")
    engine.branch.append_item(assistant("kept reply"), "e1")
    capsule = capsule_line(
        "cap", "e1", first_kept="e1", first_compacted="e0", blockers=OLD_BLOCKERS
    )
    engine.branch.append(Entry("context_capsule", capsule))
    for item in [user("continue"), *source, assistant("z" * 200), user("next " + "y" * 200)]:
        engine.branch.append_item(item)
    return engine


def test_edge_8_blocker_cap_drops_a_new_failure_and_trips_lost_blocker() -> None:
    failing = [
        function_call("c1", "bash", '{"command":"cat secret"}'),
        function_output("c1", "boom: permission denied", status="failed"),
    ]
    engine = engine_with_full_blocker_list(failing)
    outcome = engine.manager.manual_compact()
    assert outcome.trigger == "user_request"
    assert outcome.status == "failed"
    assert outcome.draft.portableState["blockers"] == OLD_BLOCKERS
    assert [e.code for e in outcome.validation.errors] == ["lost_blocker"]
    assert (
        outcome.reason
        == 'Validation failed: Active blocker lost in capsule: "boom: permission denied"'
    )
    assert engine.branch.capsule_count == 1


def test_edge_8b_newest_blockers_variant_keeps_the_new_failure() -> None:
    failing = [
        function_call("c1", "bash", '{"command":"cat secret"}'),
        function_output("c1", "boom: permission denied", status="failed"),
    ]
    engine = engine_with_full_blocker_list(failing, variant="soba-0.6.14+newest-blockers")
    outcome = engine.manager.manual_compact()
    assert outcome.status == "completed"
    assert outcome.capsule.data["portableState"]["blockers"][0] == "boom: permission denied"


def test_edge_15_two_validation_errors_are_joined_with_semicolons() -> None:
    engine = engine_with_full_blocker_list(
        [*shell("s1", 1, "1 test failed"), *shell("s2", 0, "ok")]
    )
    outcome = engine.manager.manual_compact()
    assert outcome.status == "failed"
    assert [e.code for e in outcome.validation.errors] == [
        "lost_blocker",
        "lost_failed_verification",
    ]
    assert outcome.reason == (
        'Validation failed: Active blocker lost in capsule: "1 test failed"; '
        "Failed verification status lost in capsule"
    )


# ── 12, 13: measuring ─────────────────────────────────────────────────────────────


def test_edge_12_first_kept_not_on_branch_build_input_vs_meter() -> None:
    branch = LiveBranch()
    branch.append_item(user("Old request"), "c")
    branch.append(Entry("context_capsule", capsule_line("cap", "c", first_kept="gone")))
    branch.append_item(assistant("Fresh tail after the capsule"), "fresh")
    items = list(build_input(branch.entries).items)
    assert len(items) == 1 and items[0]["role"] == "system"  # capsule only, no tail
    snap = ContextMeter(128_000, 16_384, 8_192).snapshot(branch, "fp", 0, 0)
    assert snap.effectiveTokens == estimate_items(items) + 8  # + the item after the capsule
    assert branch.effective_window_start() == 2


def test_edge_13_watermark_valid_only_within_its_turn() -> None:
    engine = Engine.create(EngineConfig())
    engine.branch.append_item(user("Hello there"))
    engine.branch.append_item(assistant("Looking"))
    engine.manager.record_provider_usage(5000, engine.branch.leaf_id, "turn_3")
    fresh = function_output("c1", "fresh tool output")
    engine.branch.append_item(function_call("c1", "read", "{}"))
    engine.branch.append_item(fresh)
    trailing = 3 + estimate_item(fresh)

    iteration_2 = engine.controller.preflight(RequestMetrics(100, 50, "turn_3", 3))
    assert iteration_2.snapshot.source == PROVIDER_USAGE
    assert iteration_2.snapshot.effectiveTokens == 5000 + trailing  # no sys/tools added

    next_turn = engine.controller.preflight(RequestMetrics(100, 50, "turn_4", 4))
    assert next_turn.snapshot.source == ESTIMATED
    all_items = [e.item for e in engine.branch.entries]
    assert next_turn.snapshot.effectiveTokens == 150 + estimate_items(all_items)


# ── 14: /compact and the policy no-op ─────────────────────────────────────────────


@pytest.mark.parametrize(("output_chars", "session_tokens"), [(64_732, 18_500), (64_733, 18_501)])
def test_edge_14_manual_compact_reclaimable_boundary(
    output_chars: int, session_tokens: int
) -> None:
    engine = Engine.create(EngineConfig())  # keepRecentTokens 20000
    items = [*read_pair("c0", "x" * output_chars), user("go"), assistant("ok")]
    items[0] = function_call("c0", "read", "{}")
    for item in items:
        engine.branch.append_item(item)
    assert estimate_items(items) == session_tokens
    outcome = engine.manager.manual_compact()
    assert outcome.trigger == "user_request"
    if session_tokens == 18_500:  # 1000 + 500 + 18500 = 20000: nothing reclaimable
        assert outcome.status == "skipped"
        assert outcome.reason == (
            "No reclaimable context (estimatedTokensAfter >= effectiveTokensBefore)"
        )
        assert outcome.durationMs == 0
        assert engine.branch.capsule_count == 0
    else:
        assert outcome.status == "completed"
        capsule = engine.branch.last_capsule.data
        assert capsule["provenance"]["firstKeptEntryId"] == engine.branch.entries[2].id
        assert outcome.metrics["effectiveTokensBefore"] == 20_001


# ── 17: tool failure heuristic ────────────────────────────────────────────────────


def test_edge_17_tool_failure_heuristic() -> None:
    coloured = function_output("c", "\x1b[31mError: boom\x1b[0m")
    assert tool_failure_output(coloured) == "\x1b[31mError: boom\x1b[0m"
    assert tool_failure_output(function_output("c", "errors: 0")) is None
    assert tool_failure_output(function_output("c", "  \n  FATAL thing")) == "  \n  FATAL thing"


def test_deterministic_goal_joins_user_blocks_like_array_join() -> None:
    from soba_bench.engine.strategies.deterministic import deterministic_state

    message = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": None}, {"type": "input_text", "text": "Fix it"}],
    }
    assert deterministic_state([message], None, None)["goal"] == "\nFix it"


# ── 18, 19: configuration ─────────────────────────────────────────────────────────


def test_edge_18_ratio_and_timeout_rules() -> None:
    ratio = replace(DEFAULT_COMPACTION, autoCompactThresholdRatio=1.0)
    assert validate_compaction_config(ratio, 128_000, 16_384) == [
        "autoCompactThresholdRatio must be > 0 and < 1"
    ]
    timeout = replace(DEFAULT_COMPACTION, timeoutMs=0)
    assert validate_compaction_config(timeout, 128_000, 16_384) == ["timeoutMs must be > 0"]


def test_edge_19_resolve_auto_adapts_keep_recent_tokens() -> None:
    resolved = resolve_compaction(CompactionConfig(), 32_000, 16_000)
    assert resolved.keepRecentTokens == 6_636  # floor(0.85 * 7808)
    assert validate_compaction_config(resolved, 32_000, 16_000) == []
