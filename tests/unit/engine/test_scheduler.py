"""The deprecated BackgroundScheduler shim (engine.md d.6), ported from test-scenarios.md
section 3 (SOBA's ``tests/core/compaction/scheduler.test.ts``)."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from soba_bench.engine.scheduler import BackgroundScheduler, DeferredIntent
from soba_bench.engine.snapshot import ContextSnapshot


def snapshot() -> ContextSnapshot:
    return ContextSnapshot(
        source="estimated",
        providerInputTokens=0,
        estimatedTrailingTokens=900,
        effectiveTokens=900,
        historicalTokens=900,
        systemPromptTokens=10,
        toolSchemaTokens=5,
        contextWindow=1_200,
        maxOutputTokens=100,
        safetyReserveTokens=100,
        hardLimit=1_000,
    )


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        self.now += 1
        return self.now


def test_scheduler_1_schedule_stores_intent_and_runs_nothing() -> None:
    clock = Clock()
    cancelled: list[tuple[DeferredIntent, str]] = []
    scheduler = BackgroundScheduler(clock, lambda op, reason: cancelled.append((op, reason)))
    intent = scheduler.schedule("turn_complete", "leaf_1", snapshot())
    assert scheduler.is_running() is False
    assert scheduler.current is intent
    assert scheduler.current.trigger == "turn_complete"
    assert intent.leafId == "leaf_1"
    assert intent.id == f"deferred_1_{intent.startedAt}"
    assert intent.signal.aborted is False
    assert cancelled == []


def test_scheduler_2_intent_snapshot_is_a_frozen_copy_consumed_once() -> None:
    scheduler = BackgroundScheduler(Clock())
    source = snapshot()
    scheduler.schedule("milestone", None, source)
    with pytest.raises(dataclasses.FrozenInstanceError):
        source.effectiveTokens = 1  # type: ignore[misc]
    changed = replace(source, effectiveTokens=1)
    assert changed.effectiveTokens == 1
    taken = scheduler.take_pending_operation()
    assert taken is not None
    assert taken.snapshot.effectiveTokens == 900
    assert taken.snapshot == source
    assert scheduler.take_pending_operation() is None
    assert scheduler.current is None


def test_scheduler_3_new_intent_replaces_previous() -> None:
    cancelled: list[tuple[DeferredIntent, str]] = []
    scheduler = BackgroundScheduler(Clock(), lambda op, reason: cancelled.append((op, reason)))
    first = scheduler.schedule("turn_complete", "leaf", snapshot())
    second = scheduler.schedule("plan_pivot", "leaf", snapshot())
    assert len(cancelled) == 1
    assert cancelled[0] == (first, "New intent scheduled")
    assert first.signal.aborted is True
    assert first.signal.reason == "New intent scheduled"
    assert scheduler.current is second
    assert scheduler.current.trigger == "plan_pivot"
    assert second.id.startswith("deferred_2_")
    assert scheduler.is_running() is False


def test_scheduler_take_then_schedule_cancels_nothing() -> None:
    cancelled: list[tuple[DeferredIntent, str]] = []
    scheduler = BackgroundScheduler(Clock(), lambda op, reason: cancelled.append((op, reason)))
    scheduler.schedule("turn_complete", None, snapshot())
    scheduler.take_pending_operation()
    scheduler.schedule("milestone", None, snapshot())
    assert cancelled == []
    assert scheduler.current.trigger == "milestone"
