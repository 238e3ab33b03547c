"""TriggerPolicy, validateCompactionConfig and config resolution (engine.md c, d.1, n),
ported from test-scenarios.md section 2 with SOBA's exact reason strings and messages."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from soba_bench.engine.config import (
    DEFAULT_COMPACTION,
    CompactionConfig,
    EngineConfig,
    build_engine_config,
    resolve_compaction,
    validate_compaction_config,
)
from soba_bench.engine.policy import TriggerPolicy
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.errors import ConfigError

HARD = 128_000 - 16_384 - 8_192  # 103_424
ROI_PASSING = dict(
    minTokensForAutoCompact=32_000,
    minReclaimableTokens=12_000,
    minSavingsRatio=0.25,
    keepRecentTokens=20_000,
    autoCompactThresholdRatio=0.3,
)

MSG_WINDOW = "contextWindow must be > 0"
MSG_OUTPUT = "maxOutputTokens must be > 0"
MSG_RESERVE = "safetyReserveTokens must be >= 0"
MSG_RATIO = "autoCompactThresholdRatio must be > 0 and < 1"
MSG_TIMEOUT = "timeoutMs must be > 0"
MSG_SUM = "maxOutputTokens + safetyReserveTokens must be < contextWindow"
MSG_KEEP = (
    "keepRecentTokens must be < hardLimit (contextWindow - maxOutputTokens - safetyReserveTokens)"
)


def snapshot(effective: float = 50_000, hard: float = HARD) -> ContextSnapshot:
    """SOBA's helper: effective 50000, sys 2000, tools 500, 128000/16384/8192."""
    return ContextSnapshot(
        source="estimated",
        providerInputTokens=0,
        estimatedTrailingTokens=effective,
        effectiveTokens=effective,
        historicalTokens=50_000,
        systemPromptTokens=2_000,
        toolSchemaTokens=500,
        contextWindow=128_000,
        maxOutputTokens=16_384,
        safetyReserveTokens=8_192,
        hardLimit=hard,
    )


def policy(**overrides) -> TriggerPolicy:
    """``new TriggerPolicy(partial)``: a partial config merged over the defaults."""
    return TriggerPolicy(replace(DEFAULT_COMPACTION, **overrides))


# ── 2.1 defaults ──────────────────────────────────────────────────────────────────


def test_trigger_1_default_compaction_config_is_sobas() -> None:
    assert DEFAULT_COMPACTION.to_dict() == {
        "auto": True,
        "compactOnTurnComplete": True,
        "compactOnMilestone": True,
        "minTokensForAutoCompact": 32_000,
        "minReclaimableTokens": 12_000,
        "minSavingsRatio": 0.25,
        "keepRecentTokens": 20_000,
        "safetyReserveTokens": 8_192,
        "autoCompactThresholdRatio": 0.8,
        "timeoutMs": 15_000,
    }
    assert CompactionConfig() == DEFAULT_COMPACTION
    assert EngineConfig().compaction == DEFAULT_COMPACTION
    assert TriggerPolicy().config == DEFAULT_COMPACTION


def test_trigger_1b_engine_config_keys_mirror_soba_one_to_one() -> None:
    names = [f.name for f in dataclasses.fields(CompactionConfig)]
    assert names == [
        "auto",
        "compactOnTurnComplete",
        "compactOnMilestone",
        "minTokensForAutoCompact",
        "minReclaimableTokens",
        "minSavingsRatio",
        "keepRecentTokens",
        "safetyReserveTokens",
        "autoCompactThresholdRatio",
        "timeoutMs",
        "backgroundTimeoutMs",
    ]
    top = [f.name for f in dataclasses.fields(EngineConfig)][:4]
    assert top == ["contextWindow", "maxOutputTokens", "systemPromptTokens", "toolSchemaTokens"]


def test_soft_limits_for_the_helper_snapshot() -> None:
    assert policy().soft_limit(snapshot()) == 82_739  # floor(103424 * 0.8)
    assert policy(autoCompactThresholdRatio=0.3).soft_limit(snapshot()) == 32_000
    # engine.md c: window 65000 / out 8000 / reserve 8192 -> 48808 / 39046.
    assert policy().soft_limit_for(48_808) == 39_046


# ── 2.2 hard limit ────────────────────────────────────────────────────────────────


def test_trigger_2_hard_limit() -> None:
    above = policy().evaluate_hard_limit(snapshot(110_000))
    assert above.shouldCompact is True
    assert above.trigger == "hard_limit"
    assert above.reason == "Effective tokens (110000) exceed hard limit (103424)"

    below = policy().evaluate_hard_limit(snapshot(50_000))
    assert below.shouldCompact is False
    assert below.trigger is None
    assert below.reason == "Effective tokens within hard limit"

    assert policy().evaluate_hard_limit(snapshot(HARD)).shouldCompact is False
    assert policy(auto=False).evaluate_hard_limit(snapshot(110_000)).trigger == "hard_limit"

    decision = policy(keepRecentTokens=20_000).evaluate_hard_limit(snapshot(110_000))
    assert decision.estimatedReclaimableTokens == 90_000
    assert decision.estimatedSavingsRatio == pytest.approx(90_000 / 110_000)
    assert decision.estimatedSavingsRatio > 0.818


def test_trigger_2b_hard_limit_clamps_reclaimable_at_zero() -> None:
    decision = policy(keepRecentTokens=200_000).evaluate_hard_limit(snapshot(110_000))
    assert decision.shouldCompact is True
    assert decision.estimatedReclaimableTokens == 0
    assert decision.estimatedSavingsRatio == 0


# ── 2.3-2.7 turn complete ─────────────────────────────────────────────────────────


def test_trigger_3_turn_complete_roi_passes() -> None:
    decision = policy(**ROI_PASSING).evaluate_turn_complete(snapshot(50_000))
    assert decision.shouldCompact is True
    assert decision.trigger == "turn_complete"
    assert decision.estimatedReclaimableTokens == 30_000
    assert decision.estimatedSavingsRatio == 0.6
    assert decision.reason == "ROI check passed: 60% savings estimated"


def test_trigger_4_turn_complete_disabled() -> None:
    off = policy(auto=False).evaluate_turn_complete(snapshot())
    assert (off.shouldCompact, off.trigger, off.reason) == (False, None, "Auto-compact disabled")
    flag = policy(compactOnTurnComplete=False).evaluate_turn_complete(snapshot())
    assert (flag.shouldCompact, flag.reason) == (False, "Auto-compact disabled")


def test_trigger_5_below_soft_limit() -> None:
    decision = policy(minTokensForAutoCompact=32_000).evaluate_turn_complete(snapshot(20_000))
    assert decision.shouldCompact is False
    assert "soft limit" in decision.reason
    assert decision.reason == "Effective tokens (20000) below soft limit (82739)"
    assert decision.estimatedReclaimableTokens == 0


def test_trigger_6_below_min_reclaimable() -> None:
    cfg = {**ROI_PASSING, "minReclaimableTokens": 40_000}
    decision = policy(**cfg).evaluate_turn_complete(snapshot(50_000))
    assert decision.shouldCompact is False
    assert decision.trigger is None
    assert decision.reason == "Reclaimable tokens (30000) below minReclaimableTokens (40000)"
    assert decision.estimatedReclaimableTokens == 30_000


def test_trigger_7_below_min_savings_ratio() -> None:
    cfg = {**ROI_PASSING, "minReclaimableTokens": 1_000, "minSavingsRatio": 0.9}
    decision = policy(**cfg).evaluate_turn_complete(snapshot(50_000))
    assert decision.shouldCompact is False
    assert decision.reason == "Savings ratio (0.60) below minSavingsRatio (0.9)"


# ── 2.8 milestone, auto threshold ─────────────────────────────────────────────────


def test_trigger_8_milestone() -> None:
    decision = policy(**ROI_PASSING).evaluate_milestone(snapshot())
    assert (decision.shouldCompact, decision.trigger) == (True, "milestone")
    off = policy(auto=False).evaluate_milestone(snapshot())
    assert (off.shouldCompact, off.reason) == (False, "Milestone compact disabled")
    flag = policy(compactOnMilestone=False).evaluate_milestone(snapshot())
    assert (flag.shouldCompact, flag.reason) == (False, "Milestone compact disabled")


def test_auto_threshold_same_roi_and_its_own_label() -> None:
    decision = policy(**ROI_PASSING).evaluate_auto_threshold(snapshot())
    assert (decision.shouldCompact, decision.trigger) == (True, "auto_threshold")
    assert decision.reason == "ROI check passed: 60% savings estimated"
    off = policy(**ROI_PASSING, auto=False).evaluate_auto_threshold(snapshot())
    assert (off.shouldCompact, off.reason) == (False, "Auto-compact disabled")
    # compactOnTurnComplete / compactOnMilestone do not gate the auto threshold.
    flags = policy(**ROI_PASSING, compactOnTurnComplete=False, compactOnMilestone=False)
    assert flags.evaluate_auto_threshold(snapshot()).shouldCompact is True


# ── 2.9 user request, 2.10 overflow ───────────────────────────────────────────────


def test_trigger_9_user_request() -> None:
    yes = policy(auto=False).evaluate_user_request(snapshot(25_000))
    assert (yes.shouldCompact, yes.trigger, yes.reason) == (
        True,
        "user_request",
        "User requested compaction",
    )
    assert yes.estimatedReclaimableTokens == 5_000
    assert yes.estimatedSavingsRatio == 0.2

    no = policy(keepRecentTokens=20_000).evaluate_user_request(snapshot(15_000))
    assert (no.shouldCompact, no.trigger) == (False, None)
    assert no.reason == "No reclaimable context (estimatedTokensAfter >= effectiveTokensBefore)"
    assert no.estimatedReclaimableTokens == 0

    equal = policy(keepRecentTokens=20_000).evaluate_user_request(snapshot(20_000))
    assert equal.shouldCompact is False


def test_trigger_10_context_overflow() -> None:
    decision = policy(auto=False).evaluate_context_overflow(snapshot(50_000))
    assert (decision.shouldCompact, decision.trigger) == (True, "context_overflow")
    assert "overflow" in decision.reason
    assert decision.reason == "Provider returned context overflow error"
    assert decision.estimatedReclaimableTokens == 30_000


# ── 2.11 setAuto ──────────────────────────────────────────────────────────────────


def test_trigger_11_set_auto() -> None:
    p = policy(auto=True, autoCompactThresholdRatio=0.3)
    assert p.evaluate_turn_complete(snapshot()).shouldCompact is True
    p.set_auto(False)
    assert p.evaluate_turn_complete(snapshot()).shouldCompact is False
    assert p.evaluate_hard_limit(snapshot(110_000)).shouldCompact is True

    q = policy(auto=False, autoCompactThresholdRatio=0.3)
    assert q.evaluate_turn_complete(snapshot()).shouldCompact is False
    q.set_auto(True)
    assert q.evaluate_turn_complete(snapshot()).shouldCompact is True


# ── 2.12 validateCompactionConfig ─────────────────────────────────────────────────


def test_trigger_12_defaults_are_valid() -> None:
    assert validate_compaction_config(DEFAULT_COMPACTION, 128_000, 16_384) == []


def test_trigger_12_window_and_output_must_be_positive() -> None:
    window = validate_compaction_config(DEFAULT_COMPACTION, 0, 16_384)
    assert window == [MSG_WINDOW]
    output = validate_compaction_config(DEFAULT_COMPACTION, 128_000, 0)
    assert output == [MSG_OUTPUT]


def test_trigger_12_output_plus_reserve_must_fit_the_window() -> None:
    cfg = replace(DEFAULT_COMPACTION, safetyReserveTokens=10_000)
    errors = validate_compaction_config(cfg, 128_000, 120_000)
    assert any("safetyReserveTokens" in e for e in errors)
    # Exactly the sum rule: the keep rule is skipped because hardLimit (-2000) <= 0.
    assert errors == [MSG_SUM]


def test_trigger_12_keep_must_be_below_hard_limit() -> None:
    cfg = replace(DEFAULT_COMPACTION, keepRecentTokens=110_000)
    assert validate_compaction_config(cfg, 128_000, 16_384) == [MSG_KEEP]


def test_trigger_12_negative_reserve() -> None:
    cfg = replace(DEFAULT_COMPACTION, safetyReserveTokens=-1)
    assert validate_compaction_config(cfg, 128_000, 16_384) == [MSG_RESERVE]


def test_trigger_12_every_violation_is_reported_in_order() -> None:
    cfg = replace(DEFAULT_COMPACTION, safetyReserveTokens=-1, keepRecentTokens=200_000)
    errors = validate_compaction_config(cfg, 0, 0)
    assert len(errors) > 1
    # hardLimit = 0 - 0 - (-1) = 1 > 0, so the keep rule applies too.
    assert errors == [MSG_WINDOW, MSG_OUTPUT, MSG_RESERVE, MSG_KEEP]


def test_all_seven_rules_in_sobas_order() -> None:
    cfg = replace(
        DEFAULT_COMPACTION,
        safetyReserveTokens=-5,
        autoCompactThresholdRatio=0,
        timeoutMs=float("nan"),
    )
    assert validate_compaction_config(cfg, -1, -1) == [
        MSG_WINDOW,
        MSG_OUTPUT,
        MSG_RESERVE,
        MSG_RATIO,
        MSG_TIMEOUT,
        MSG_KEEP,  # hardLimit = -1 - (-1) - (-5) = 5 > 0
    ]
    both = replace(DEFAULT_COMPACTION, keepRecentTokens=5_000)
    assert validate_compaction_config(both, 10_000, 9_000) == [MSG_SUM]
    assert validate_compaction_config(both, 20_000, 9_000) == [MSG_KEEP]  # hard 2808
    assert validate_compaction_config(both, 20_000, 4_000) == []  # hard 7808


def test_unvalidated_keys_are_accepted() -> None:
    cfg = replace(
        DEFAULT_COMPACTION,
        minTokensForAutoCompact=-1,
        minReclaimableTokens=-1,
        minSavingsRatio=7,
        keepRecentTokens=-100,
    )
    assert validate_compaction_config(cfg, 128_000, 16_384) == []


# ── config resolution (engine.md n) ───────────────────────────────────────────────


def test_build_engine_config_defaults_and_resolution() -> None:
    config = build_engine_config({"contextWindow": 128_000, "maxOutputTokens": 16_384})
    assert config.compaction == DEFAULT_COMPACTION
    assert config.hardLimit == HARD
    assert config.to_dict()["compaction"] == DEFAULT_COMPACTION.to_dict()


def test_auto_adapt_keep_recent_tokens() -> None:
    """test-scenarios 11.19: hard 7808 -> keep floor(0.85 * 7808) = 6636, then valid."""
    config = build_engine_config(
        {"contextWindow": 32_000, "maxOutputTokens": 16_000, "compaction": {}}
    )
    assert config.hardLimit == 7_808
    assert config.compaction.keepRecentTokens == 6_636
    assert config.compactionRequested.keepRecentTokens == 20_000
    direct = resolve_compaction(DEFAULT_COMPACTION, 32_000, 16_000)
    assert direct.keepRecentTokens == 6_636


def test_auto_adapt_keeps_at_least_one_token() -> None:
    resolved = resolve_compaction(DEFAULT_COMPACTION, 8_195, 1)
    assert resolved.keepRecentTokens == 1  # hard 2 -> max(1, floor(1.7))
    # With hard 1 the adapted keep (1) still equals the hard limit, as in SOBA.
    with pytest.raises(ConfigError, match=r"^Invalid compaction config: keepRecentTokens"):
        resolve_compaction(DEFAULT_COMPACTION, 8_194, 1)


def test_auto_adapt_skipped_for_non_positive_hard_limit() -> None:
    with pytest.raises(ConfigError) as info:
        resolve_compaction(DEFAULT_COMPACTION, 10_000, 2_000)
    assert str(info.value) == f"Invalid compaction config: {MSG_SUM}"


def test_invalid_config_message_joins_errors() -> None:
    with pytest.raises(ConfigError) as info:
        build_engine_config(
            {
                "contextWindow": 128_000,
                "maxOutputTokens": 16_384,
                "compaction": {"autoCompactThresholdRatio": 1.0, "timeoutMs": 0},
            }
        )
    assert str(info.value) == f"Invalid compaction config: {MSG_RATIO}; {MSG_TIMEOUT}"


def test_background_timeout_alias_used_only_without_timeout() -> None:
    alias = build_engine_config({"compaction": {"backgroundTimeoutMs": 5_000}})
    assert alias.compaction.timeoutMs == 5_000
    both = build_engine_config({"compaction": {"backgroundTimeoutMs": 5_000, "timeoutMs": 700}})
    assert both.compaction.timeoutMs == 700
    assert build_engine_config({}).compaction.timeoutMs == 15_000
