"""The Project Memory mirror of a capsule: SOBA's context-capsule-memory.test.ts
(test-scenarios 10.3) and the mapping rules of engine.md a.8."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from soba_bench.engine.attempt import SimulatedReply
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import CompactionConfig, EngineConfig
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.memory import capsule_to_memory, should_mirror
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy
from tests.builders import assistant, user


def make_capsule(**overrides: Any) -> dict[str, Any]:
    capsule = {
        "type": "context_capsule",
        "id": "entry_1",
        "parentId": "parent_1",
        "timestamp": "2026-06-30T10:20:30.000Z",
        "checkpointId": "ck_123456789abc",
        "trigger": "user_request",
        "strategy": "deterministic",
        "quality": "portable",
        "portableState": {
            "goal": "Continue auth refactor with proof receipts",
            "constraints": ["Bun only"],
            "completed": ["Added proof persistence"],
            "inProgress": ["Mirroring capsules"],
            "pending": ["Run gates"],
            "decisions": [
                {
                    "decision": "Memory mirrors are advisory",
                    "rationale": "Session capsule is authoritative",
                }
            ],
            "blockers": [],
            "nextSteps": ["Commit after gates"],
        },
        "artifacts": {
            "readFiles": ["src/application/commands/capsule.ts"],
            "modifiedFiles": ["src/application/commands/capsule.ts"],
            "verificationCommands": ["bun test tests/apps/cli/commands.test.ts"],
            "verificationStatus": "passed",
        },
        "activatedSkills": [],
        "provenance": {
            "firstCompactedEntryId": "entry_0",
            "firstKeptEntryId": "entry_1",
            "sourceEntryIds": ["entry_0"],
        },
        "metrics": {
            "effectiveTokensBefore": 10_000,
            "estimatedTokensAfter": 2_500,
            "reclaimedTokens": 7_500,
            "savingsRatio": 0.75,
            "generationDurationMs": 120,
        },
    }
    capsule.update(overrides)
    return capsule


def with_state(**state: Any) -> dict[str, Any]:
    capsule = make_capsule()
    capsule["portableState"] = {**capsule["portableState"], **state}
    return capsule


def test_maps_capsule_provenance_into_memory_input() -> None:
    record = capsule_to_memory(make_capsule(), "sess_123")
    assert record["id"] == "mem_ck_123456789abc"
    assert record["type"] == "discovery"
    assert record["context"] == {
        "task": "Continue auth refactor with proof receipts",
        "sessionId": "sess_123",
        "timestamp": "2026-06-30T10:20:30.000Z",
    }
    assert record["priority"] == "medium"
    assert record["tags"] == [
        "context-capsule",
        "checkpoint",
        "user_request",
        "deterministic",
        "portable",
    ]
    assert record["related"] == []
    assert (
        record["summary"] == "Context capsule ck_123456789abc: Completed: Added proof persistence"
    )
    assert len(record["summary"]) <= 160
    assert record["detail"] == "\n".join(
        [
            "Context capsule: ck_123456789abc",
            "Trigger: user_request",
            "Strategy: deterministic",
            "Quality: portable",
            "Goal: Continue auth refactor with proof receipts",
            "Completed: Added proof persistence",
            "In progress: Mirroring capsules",
            "Pending: Run gates",
            "Decision: Memory mirrors are advisory (Session capsule is authoritative)",
            "Next: Commit after gates",
            "Metrics: 10000 -> 2500 tokens, reclaimed 7500.",
        ]
    )


@pytest.mark.parametrize(
    ("overrides", "priority"),
    [
        ({"trigger": "hard_limit"}, "high"),
        ({"trigger": "context_overflow", "quality": "degraded"}, "high"),
        ({"quality": "degraded"}, "low"),
        ({"trigger": "auto_threshold"}, "medium"),
    ],
)
def test_priority(overrides: dict, priority: str) -> None:
    assert capsule_to_memory(make_capsule(**overrides))["priority"] == priority


def test_session_id_defaults_to_empty() -> None:
    assert capsule_to_memory(make_capsule())["context"]["sessionId"] == ""


@pytest.mark.parametrize(
    ("state", "progress"),
    [
        ({"completed": ["a", "b", "c"]}, "Completed: a (+2)"),
        ({"completed": []}, "In progress: Mirroring capsules"),
        ({"completed": [], "inProgress": []}, "Pending: Run gates"),
        (
            {"completed": [], "inProgress": [], "pending": []},
            "Goal: Continue auth refactor with proof receipts",
        ),
        # An empty first entry is skipped like a falsy value in JS.
        ({"completed": ["", "later"]}, "In progress: Mirroring capsules"),
    ],
)
def test_summary_progress_fallbacks(state: dict, progress: str) -> None:
    summary = capsule_to_memory(with_state(**state))["summary"]
    assert summary == f"Context capsule ck_123456789abc: {progress}"


def test_summary_is_whitespace_collapsed_and_cut_to_160() -> None:
    record = capsule_to_memory(with_state(completed=["done  \n\t" + "w" * 300]))
    summary = record["summary"]
    assert len(summary) == 160
    assert summary.endswith("...")
    assert (
        summary == ("Context capsule ck_123456789abc: Completed: done " + "w" * 300)[:157] + "..."
    )
    assert "\n" not in record["detail"].split("\n")[5]


def test_blank_goal_falls_back_to_the_checkpoint_id() -> None:
    record = capsule_to_memory(
        with_state(goal="  ", completed=[], inProgress=[], pending=[], decisions=[], nextSteps=[])
    )
    assert record["context"]["task"] == "Context capsule ck_123456789abc"
    assert record["summary"] == (
        "Context capsule ck_123456789abc: Goal: Context capsule ck_123456789abc"
    )
    # The detail keeps SOBA's "Goal:" line (normalised to "Goal:").
    assert "Goal:" in record["detail"].split("\n")
    assert "Blocker:" not in record["detail"]


def test_blockers_and_decisions_without_rationale() -> None:
    record = capsule_to_memory(
        with_state(blockers=["Network down"], decisions=[{"decision": "Ship it"}])
    )
    lines = record["detail"].split("\n")
    assert "Decision: Ship it" in lines
    assert "Blocker: Network down" in lines
    assert lines.index("Decision: Ship it") < lines.index("Blocker: Network down")


def test_mapping_does_not_touch_the_capsule() -> None:
    capsule = make_capsule()
    before = copy.deepcopy(capsule)
    capsule_to_memory(capsule, "s")
    assert capsule == before


@pytest.mark.parametrize(
    ("trigger", "quality", "mirrored"),
    [
        ("user_request", "portable", True),
        ("user_request", "native", True),
        ("user_request", "degraded", False),
        ("hard_limit", "portable", False),
        ("auto_threshold", "portable", False),
        ("turn_complete", "portable", False),
    ],
)
def test_only_explicit_non_degraded_capsules_are_mirrored(trigger, quality, mirrored) -> None:
    assert should_mirror(make_capsule(trigger=trigger, quality=quality)) is mirrored


# ── through the manager ──────────────────────────────────────────────────────────
def manager_with(sink) -> ContextManager:
    branch = LiveBranch("sess_mirror")
    for i in range(6):
        branch.append_item(user(f"request {i} " + "x" * 300))
        branch.append_item(assistant(f"reply {i} " + "y" * 300))

    def model(prompt, ctx):
        reply = json.dumps({"goal": "Mirror me", "completed": ["Wrote the mirror"]})
        return ctx.call_model(SimulatedReply(text=reply))

    return ContextManager(
        branch,
        EngineConfig(compaction=CompactionConfig(keepRecentTokens=100)),
        chain=[PortableOnlyStrategy(model, lambda gen: "prompt"), DeterministicStrategy()],
        memory_sink=sink,
    )


def test_manager_writes_the_mapped_record() -> None:
    writes: list[dict] = []
    manager = manager_with(writes.append)
    outcome = manager.manual_compact("Focus", system_prompt_tokens=10, tool_schema_tokens=5)
    assert outcome.status == "completed"
    capsule = manager.branch.last_capsule.data
    assert writes == [capsule_to_memory(capsule, "sess_mirror")]
    assert writes[0]["summary"] == (
        f"Context capsule {outcome.checkpointId}: Completed: Wrote the mirror"
    )


def test_memory_storage_errors_are_swallowed() -> None:
    calls: list[dict] = []

    def failing(record: dict) -> None:
        calls.append(record)
        raise OSError("disk full")

    manager = manager_with(failing)
    outcome = manager.manual_compact(system_prompt_tokens=10, tool_schema_tokens=5)
    assert outcome.status == "completed"
    assert len(calls) == 1
    assert manager.branch.capsule_count == 1
