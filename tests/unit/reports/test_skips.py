"""Skip categories, barrier decisions and fallback detection."""

from __future__ import annotations

import pandas as pd
import pytest

from soba_bench.engine.config import CompactionConfig
from soba_bench.engine.policy import TriggerPolicy
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.reports.frames import load_runs
from soba_bench.reports.skips import (
    BELOW_SOFT,
    NO_COMPACTION,
    NOTHING_BEFORE,
    ONCE_PER_TURN,
    OTHER,
    POST_ROI,
    RATIO_MIN,
    RECLAIMABLE_MIN,
    SKIP_CATEGORIES,
    barrier_decisions,
    fallback_kind,
    reason_mapping,
    skip_category,
)
from soba_bench.reports.tables import skip_rates


@pytest.mark.parametrize(
    ("reason", "category"),
    [
        ("Effective tokens (50000) below soft limit (69632)", BELOW_SOFT),
        ("Reclaimable tokens (8000) below minReclaimableTokens (12000)", RECLAIMABLE_MIN),
        ("No reclaimable context (estimatedTokensAfter >= effectiveTokensBefore)", RECLAIMABLE_MIN),
        ("Savings ratio (0.12) below minSavingsRatio (0.25)", RATIO_MIN),
        ("Actual reclaimed tokens (9000) below minReclaimableTokens (12000)", POST_ROI),
        ("Actual savings ratio (0.20) below minSavingsRatio (0.25)", POST_ROI),
        ("No reclaimable session history before a safe compaction boundary", NOTHING_BEFORE),
        ("No items to compact", NOTHING_BEFORE),
        ("Empty session — nothing to compact", NOTHING_BEFORE),
        ("Context overflow recovery already attempted for this turn.", ONCE_PER_TURN),
        ("Compaction completed using deterministic strategy", OTHER),
        (None, OTHER),
    ],
)
def test_reason_texts_map_to_categories(reason, category):
    assert skip_category(reason) == category


def _snapshot(effective: float) -> ContextSnapshot:
    fields = ContextSnapshot.__dataclass_fields__
    values = {name: 0 for name in fields}
    values.update(effectiveTokens=effective, hardLimit=87040)
    return ContextSnapshot(**values)


@pytest.mark.parametrize(
    ("effective", "category"),
    [(50_000, BELOW_SOFT), (75_000, RECLAIMABLE_MIN), (86_000, RATIO_MIN)],
)
def test_the_policy_s_own_reasons_map_to_their_category(effective, category):
    # Reasons produced by the engine's policy itself, not copies of its texts.
    config = CompactionConfig(minReclaimableTokens=60_000, minSavingsRatio=0.8)
    decision = TriggerPolicy(config).evaluate_auto_threshold(_snapshot(effective))
    assert not decision.shouldCompact
    assert skip_category(decision.reason) == category


def _checks(rows):
    base = {
        "job_id": "j",
        "session": "s",
        "kind": "check",
        "softLimit": 69632,
        "hardLimit": 87040,
        "keepRecentTokens": 20000,
        "minReclaimableTokens": 60000,
        "minSavingsRatio": 0.8,
        "auto": True,
    }
    return pd.DataFrame([{**base, **r} for r in rows])


def test_check_rows_reapply_the_soft_policy():
    frame = _checks(
        [
            {"turn": 1, "entryIndex": 1, "effectiveTokens": 50000},  # below soft
            {"turn": 1, "entryIndex": 2, "effectiveTokens": 75000},  # reclaimable 55000
            {"turn": 1, "entryIndex": 3, "effectiveTokens": 86000},  # ratio 0.767
            {
                "turn": 2,
                "entryIndex": 4,
                "kind": "attempt",
                "outcome": "skipped",
                "reason": "Actual savings ratio (0.50) below minSavingsRatio (0.8)",
                "required": False,
            },
            {"turn": 2, "entryIndex": 5, "effectiveTokens": 200000, "minSavingsRatio": 0.1},
            {"turn": 3, "entryIndex": 6, "effectiveTokens": 200000, "minSavingsRatio": 0.1},
            {
                "turn": 3,
                "entryIndex": 7,
                "kind": "attempt",
                "outcome": "completed",
                "required": True,
            },
            {"turn": 4, "entryIndex": 8, "kind": "attempt", "outcome": "stale"},
        ]
    )
    decisions = list(barrier_decisions(frame)["decision"])
    assert decisions == [
        BELOW_SOFT,
        RECLAIMABLE_MIN,
        RATIO_MIN,
        POST_ROI,
        ONCE_PER_TURN,  # a soft attempt already ran in turn 2
        OTHER,  # ROI passes and no soft attempt in turn 3: nothing explains it
        "compacted",
        "stale",
    ]


def test_auto_disabled_and_the_none_strategy():
    frame = _checks(
        [
            {
                "turn": 1,
                "entryIndex": 1,
                "effectiveTokens": 200000,
                "minSavingsRatio": 0.1,
                "auto": False,
            },
            {
                "turn": 1,
                "entryIndex": 2,
                "effectiveTokens": 200000,
                "minSavingsRatio": 0.1,
                "jobStrategy": "none",
            },
        ]
    )
    frame.loc[0, "jobStrategy"] = "soba"
    assert list(barrier_decisions(frame)["decision"]) == ["auto_disabled", NO_COMPACTION]


def test_fallback_kinds():
    attempts = pd.DataFrame(
        [
            {
                "summarizer": "local",
                "strategy": "deterministic",
                "outcome": "completed",
                "reason": "Compaction model timed out after 15000ms; completed using "
                "deterministic fallback",
            },
            {
                "summarizer": "local",
                "strategy": "deterministic",
                "outcome": "failed",
                "reason": "Compaction model timed out after 15000ms; deterministic fallback "
                "validation failed: too big",
            },
            {
                "summarizer": "local",
                "strategy": "deterministic",
                "outcome": "completed",
                "reason": "Compaction completed using deterministic strategy",
            },
            {
                "summarizer": "local",
                "strategy": "portable_only",
                "outcome": "completed",
                "reason": "Compaction completed using portable_only strategy",
            },
            {
                "summarizer": "deterministic",
                "strategy": "deterministic",
                "outcome": "completed",
                "reason": "Compaction completed using deterministic strategy",
            },
        ]
    )
    assert list(fallback_kind(attempts)) == ["timeout", "timeout", "model_error", None, None]


def test_every_category_has_a_documented_rule():
    mapped = {row["category"] for row in reason_mapping()}
    from soba_bench.reports.skips import LABELS

    assert {LABELS[c] for c in SKIP_CATEGORIES} <= mapped


def test_a_real_run_shows_every_soft_policy_category(runs):
    rs = load_runs(runs.single)
    decided = barrier_decisions(rs.barriers, rs.jobs)
    counts = decided["decision"].value_counts()
    for category in (BELOW_SOFT, RECLAIMABLE_MIN, RATIO_MIN, POST_ROI, ONCE_PER_TURN):
        assert counts.get(category, 0) > 0, category
    assert counts.get(OTHER, 0) == 0
    # skipped attempts in the table are exactly the post-generation ROI misses here
    attempts = rs.attempts
    assert counts[POST_ROI] == int((attempts["outcome"] == "skipped").sum())
    table = skip_rates(rs)
    row = table.iloc[0]
    assert row["barriers"] == len(rs.barriers)
    shares = [row[f"{label} %"] for label in ("below soft limit", "once-per-turn")]
    assert all(0 < s < 100 for s in shares)


def test_observation_masking_skips_have_a_category():
    """Masking has skip reasons of its own (nothing left to mask); they must land in a named
    category, not in 'other'. (Truncation and the hybrid skip only for SOBA's ROI reasons.)"""
    from tests.unit.compactors.helpers import run, small_engine, tool_session

    # Huge user messages keep the input over the limit once every old output is masked.
    session = tool_session(30, output_chars=2000, user_chars=3000)
    trace = run("observation_masking", session, small_engine())
    skipped = [a["reason"] for a in trace.attempts if a["outcome"] == "skipped"]
    assert any(r.startswith("Every tool output but the newest") for r in skipped)
    assert [r for r in skipped if skip_category(r) == OTHER] == []
