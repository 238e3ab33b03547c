"""ContextMeter (engine.md b.3, b.4), ported from test-scenarios.md section 1
(SOBA's ``tests/core/compaction/context-meter.test.ts``) with the derived exact numbers."""

from __future__ import annotations

import pytest

from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.snapshot import ESTIMATED, PROVIDER_USAGE, ContextMeter, Watermark
from soba_bench.meter.soba import estimate_items
from soba_bench.session.build_input import build_input
from soba_bench.session.entries import Entry
from tests.builders import assistant, capsule_line, chain, system, user


def meter() -> ContextMeter:
    return ContextMeter(128_000, 16_384, 8_192)


def branch_of(texts: list[str]) -> LiveBranch:
    """SOBA's helper: user messages e0, e1, ... chained by parentId."""
    lines = chain([user(t) for t in texts])
    return LiveBranch(entries=[Entry(line["type"], line) for line in lines])


def portable_capsule_session() -> LiveBranch:
    branch = LiveBranch()
    branch.append_item(user("Old request that is now compacted"), "c")
    branch.append_item(assistant("Recent retained context"), "k")
    branch.append(
        Entry(
            "context_capsule",
            capsule_line(
                "cap",
                "k",
                first_kept="k",
                first_compacted="c",
                goal="Continue the compacted task",
                constraints=["Keep the capsule in the measured request"],
                completed=["Read the old request"],
                pending=["Finish the task"],
                nextSteps=["Use recent context"],
                readFiles=["src/example.ts"],
            ),
        )
    )
    branch.append_item(assistant("Fresh tail after the capsule"), "fresh")
    return branch


def native_capsule_session() -> LiveBranch:
    branch = LiveBranch()
    branch.append_item(user("Old native request"), "c")
    branch.append_item(assistant("Native retained tail"), "k")
    line = capsule_line(
        "cap",
        "k",
        first_kept="k",
        first_compacted="c",
        checkpoint_id="ck_abcdef123456",
        goal="Continue natively",
        native={
            "provider": {
                "adapterId": "test",
                "endpointOrigin": "https://example.test",
                "model": "native",
            },
            "compatibilityKey": "native-key",
            "items": [system("Opaque compatible native continuation")],
        },
    )
    line.update(trigger="hard_limit", strategy="native_portable", quality="native")
    branch.append(Entry("context_capsule", line))
    return branch


# ── hard limit ────────────────────────────────────────────────────────────────────


def test_meter_1_hard_limit_getter() -> None:
    assert ContextMeter(128_000, 16_384, 8_192).hard_limit == 103_424
    assert ContextMeter(64_000, 8_000, 4_000).hard_limit == 52_000


# ── estimated source ──────────────────────────────────────────────────────────────


def test_meter_2_no_watermark_is_estimated() -> None:
    snap = meter().snapshot(branch_of(["Hello world"]), "fp1", 1000, 500)
    assert snap.source == ESTIMATED
    assert snap.providerInputTokens == 0


def test_meter_3_estimated_includes_sys_and_tools() -> None:
    snap = meter().snapshot(branch_of(["Hello world"]), "fp1", 1000, 500)
    assert snap.effectiveTokens > 1500
    assert snap.effectiveTokens == snap.estimatedTrailingTokens
    assert snap.effectiveTokens == 1504  # "Hello world" -> ceil(11 / 3.5) = 4


def test_meter_4_additional_non_session_tokens() -> None:
    branch = branch_of(["Hi"])
    m = meter()
    without = m.snapshot(branch, "fp1", 0, 0, 0)
    with_extra = m.snapshot(branch, "fp1", 0, 0, 5000)
    assert with_extra.effectiveTokens - without.effectiveTokens == 5000
    assert (without.effectiveTokens, with_extra.effectiveTokens) == (1, 5001)


def test_meter_5_portable_capsule_measured_like_build_input() -> None:
    branch = portable_capsule_session()
    items = list(build_input(branch.entries).items)
    assert len(items) == 3  # capsule, kept "k", fresh tail
    snap = meter().snapshot(branch, "fp1", 1000, 500)
    assert snap.source == ESTIMATED
    assert snap.effectiveTokens == 1500 + estimate_items(items)
    assert snap.effectiveTokens > 1500 + estimate_items(items[1:])
    assert estimate_items(items[:1]) == 82
    assert [estimate_items([i]) for i in items[1:]] == [7, 8]
    assert snap.effectiveTokens == 1597


def test_meter_6_native_capsule_measured_exactly() -> None:
    branch = native_capsule_session()
    native_meter = ContextMeter(128_000, 16_384, 8_192, "native-key")
    items = list(build_input(branch.entries, "native-key").items)
    assert items[0] == system("Opaque compatible native continuation")
    snap = native_meter.snapshot(branch, "fp1", 1000, 500)
    assert snap.effectiveTokens == 1500 + estimate_items(items)
    assert snap.effectiveTokens == 1500 + 11 + 6 == 1517


def test_meter_6b_native_capsule_without_matching_key_is_measured_portable() -> None:
    branch = native_capsule_session()
    portable = list(build_input(branch.entries).items)
    assert portable[0]["role"] == "system"
    assert portable[0]["content"][0]["text"].startswith("SOBA Context Capsule")
    snap = meter().snapshot(branch, "fp1", 1000, 500)
    assert snap.effectiveTokens == 1500 + estimate_items(portable)


# ── provider usage watermark ──────────────────────────────────────────────────────


def test_meter_7_recorded_usage_gives_provider_usage() -> None:
    m = meter()
    m.record_provider_usage(50_000, "e1", "fp1")
    snap = m.snapshot(branch_of(["Hello", "World"]), "fp1", 1000, 500)
    assert snap.source == PROVIDER_USAGE
    # Nothing after e1, and system/tool tokens are inside the provider number.
    assert snap.effectiveTokens == 50_000


def test_meter_8_provider_input_tokens_match_recorded_value() -> None:
    m = meter()
    m.record_provider_usage(45_000, "e0", "fp1")
    snap = m.snapshot(branch_of(["Hello"]), "fp1", 0, 0)
    assert snap.providerInputTokens == 45_000


def test_meter_9_effective_is_provider_plus_trailing() -> None:
    m = meter()
    m.record_provider_usage(40_000, "e1", "fp1")
    snap = m.snapshot(branch_of(["Hello", "World", "More text here"]), "fp1", 0, 0)
    assert snap.source == PROVIDER_USAGE
    assert snap.effectiveTokens > 40_000
    assert snap.effectiveTokens == snap.providerInputTokens + snap.estimatedTrailingTokens
    assert snap.estimatedTrailingTokens == 4  # "More text here" -> ceil(14 / 3.5)
    assert snap.effectiveTokens == 40_004


def test_meter_10_null_watermark_entry_makes_everything_trailing() -> None:
    m = meter()
    m.record_provider_usage(30_000, None, "fp1")
    snap = m.snapshot(branch_of(["A", "B", "C"]), "fp1", 0, 0)
    assert snap.source == PROVIDER_USAGE
    assert snap.estimatedTrailingTokens == 3
    assert snap.effectiveTokens == 30_003


def test_meter_11_unknown_watermark_entry_falls_back_to_full_estimate() -> None:
    m = meter()
    m.record_provider_usage(30_000, "nonexistent-id", "fp1")
    snap = m.snapshot(branch_of(["A", "B"]), "fp1", 0, 0)
    assert snap.source == PROVIDER_USAGE
    assert snap.estimatedTrailingTokens == 2
    assert snap.effectiveTokens == 30_002


def test_meter_12_fingerprint_mismatch_is_estimated() -> None:
    m = meter()
    m.record_provider_usage(50_000, "e0", "fp1")
    snap = m.snapshot(branch_of(["Hello"]), "fp2", 1000, 500)
    assert snap.source == ESTIMATED
    assert snap.effectiveTokens == 1502
    # The stale watermark is still copied into the snapshot (engine.md b.3).
    assert snap.watermark == Watermark("e0", "fp1")


def test_meter_13_invalidate_watermark() -> None:
    m = meter()
    m.record_provider_usage(50_000, "e0", "fp1")
    assert m.watermark is not None
    m.invalidate_watermark()
    assert m.watermark is None
    snap = m.snapshot(branch_of(["Hello"]), "fp1", 0, 0)
    assert snap.source == ESTIMATED
    assert snap.providerInputTokens == 0
    assert snap.watermark is None


# ── snapshot fields ───────────────────────────────────────────────────────────────


def test_meter_14_empty_branch_snapshot_fields() -> None:
    snap = meter().snapshot(LiveBranch(), "fp", 2000, 800)
    assert snap.contextWindow == 128_000
    assert snap.maxOutputTokens == 16_384
    assert snap.safetyReserveTokens == 8_192
    assert snap.hardLimit == 103_424
    assert snap.systemPromptTokens == 2000
    assert snap.toolSchemaTokens == 800
    assert snap.effectiveTokens == 2800
    assert snap.historicalTokens == 0


def test_meter_15_historical_tokens() -> None:
    snap = meter().snapshot(branch_of(["A", "B", "C"]), "fp", 0, 0)
    assert snap.historicalTokens >= 0
    assert snap.historicalTokens == 3


def test_meter_15b_historical_tokens_count_capsules_as_placeholders() -> None:
    branch = portable_capsule_session()
    snap = meter().snapshot(branch, "fp", 0, 0)
    # Items 10 + 7 + 8, plus "[Context Capsule ck_123456789abc]" (33 chars -> 10).
    assert snap.historicalTokens == 10 + 7 + 8 + 10


def test_meter_16_provider_usage_snapshot_carries_watermark() -> None:
    m = meter()
    m.record_provider_usage(50_000, "e0", "fp1")
    snap = m.snapshot(branch_of(["Hello"]), "fp1", 0, 0)
    assert snap.source == PROVIDER_USAGE
    assert snap.watermark is not None
    assert snap.watermark.measuredThroughEntryId == "e0"
    assert snap.watermark.requestFingerprint == "fp1"


@pytest.mark.parametrize("first_kept", ["root", "missing"])
def test_meter_capsule_tail_rules_differ_from_build_input(first_kept: str) -> None:
    """engine.md b.3: "root" -> capsule only; an id not on the branch -> the items after
    the capsule entry (build_input emits no tail at all in both cases)."""
    branch = LiveBranch()
    branch.append_item(user("Old request"), "c")
    branch.append(Entry("context_capsule", capsule_line("cap", "c", first_kept=first_kept)))
    branch.append_item(assistant("Fresh tail after the capsule"), "fresh")
    items = list(build_input(branch.entries).items)
    assert len(items) == 1
    snap = meter().snapshot(branch, "fp", 0, 0)
    tail = 0 if first_kept == "root" else 8
    assert snap.effectiveTokens == estimate_items(items) + tail
