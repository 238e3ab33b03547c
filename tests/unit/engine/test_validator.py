"""Draft validation: SOBA's CapsuleValidator cases (test-scenarios 5.4, items 27-39) and
every error and warning code of engine.md j.3, with SOBA's message texts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.strategies.base import Draft
from soba_bench.engine.validator import ERROR_CODES, WARNING_CODES, validate_draft
from tests.builders import function_call, function_output, user

HARD_LIMIT = 103_424
REVIEW = {"name": "review", "scope": "project", "revision": "rev-1", "contentHash": "abc123"}
PROVIDER = {"adapterId": "openai", "endpointOrigin": "https://api.openai.com", "model": "gpt-4"}


def branch_of(*ids: str) -> LiveBranch:
    branch = LiveBranch("test-session")
    for entry_id in ids:
        branch.append_item(user(entry_id), entry_id)
    return branch


BRANCH = branch_of("e1", "e2", "e3", "e4", "e5")


def make_draft(**overrides: Any) -> Draft:
    """SOBA's makeValidDraft()."""
    state = {
        "goal": "Continue working on the task",
        "constraints": [],
        "completed": ["Updated config"],
        "inProgress": [],
        "pending": ["Run tests"],
        "decisions": [],
        "blockers": [],
        "nextSteps": ["Deploy to staging"],
    }
    state.update(overrides.pop("state", {}))
    artifacts = {
        "readFiles": ["src/config.ts"],
        "modifiedFiles": ["src/index.ts"],
        "verificationCommands": ["bun test"],
        "verificationStatus": "passed",
    }
    artifacts.update(overrides.pop("artifacts", {}))
    provenance = {
        "firstCompactedEntryId": "e1",
        "firstKeptEntryId": "e4",
        "sourceEntryIds": ["e1", "e2", "e3"],
    }
    provenance.update(overrides.pop("provenance", {}))
    metrics = {
        "effectiveTokensBefore": 50_000,
        "estimatedTokensAfter": 20_000,
        "reclaimedTokens": 30_000,
        "savingsRatio": 0.6,
        "generationDurationMs": 100,
    }
    metrics.update(overrides.pop("metrics", {}))
    values: dict[str, Any] = dict(
        strategy="deterministic",
        quality="degraded",
        portableState=state,
        artifacts=artifacts,
        activatedSkills=[],
        provenance=provenance,
        metrics=metrics,
    )
    values.update(overrides)
    return Draft(**values)


def validate(
    draft: Draft,
    branch: LiveBranch = BRANCH,
    source: list | None = None,
    kept: list | None = None,
    *,
    hard_limit: float = HARD_LIMIT,
    blocking: bool = False,
    skills: list | None = None,
):
    return validate_draft(
        draft, branch, source or [], kept or [], hard_limit, blocking, skills or []
    )


def codes(findings) -> list[str]:
    return [f.code for f in findings]


def messages(findings) -> list[str]:
    return [f.message for f in findings]


def read_call(call_id: str) -> dict:
    return function_call(call_id, "read", json.dumps({"path": "file.ts"}))


def shell_output(call_id: str, output: str, **extra: Any) -> dict:
    return {"type": "local_shell_call_output", "call_id": call_id, "output": output, **extra}


# ── 5.4 SOBA's cases ─────────────────────────────────────────────────────────────
def test_27_valid_draft() -> None:
    result = validate(make_draft())
    assert result.valid is True
    assert result.errors == ()
    assert codes(result.warnings) == ["no_activated_skills"]


def test_28_lost_activated_skill() -> None:
    result = validate(make_draft(), skills=[REVIEW])
    assert result.valid is False
    assert codes(result.errors) == ["lost_activated_skill"]
    assert messages(result.errors) == ['Active skill lost in capsule: "review" (rev-1)']


def test_29_missing_goal() -> None:
    result = validate(make_draft(state={"goal": ""}), branch_of("e1", "e2", "e3", "e4"))
    assert result.valid is False
    assert codes(result.errors) == ["missing_goal"]
    assert messages(result.errors) == ["Capsule must have a non-empty goal"]


def test_30_first_kept_not_in_branch() -> None:
    draft = make_draft(provenance={"firstKeptEntryId": "e99", "sourceEntryIds": ["e1", "e2"]})
    result = validate(draft, branch_of("e1", "e2", "e3"))
    assert result.valid is False
    assert codes(result.errors) == ["first_kept_not_in_branch"]
    assert messages(result.errors) == ['firstKeptEntryId "e99" not found in current branch']


def test_31_compacted_after_kept() -> None:
    draft = make_draft(
        provenance={
            "firstCompactedEntryId": "e4",
            "firstKeptEntryId": "e2",
            "sourceEntryIds": ["e2", "e3"],
        }
    )
    result = validate(draft)
    assert codes(result.errors) == ["compacted_after_kept"]
    assert messages(result.errors) == ["firstCompactedEntryId must not be after firstKeptEntryId"]


def test_32_native_continuation_identity_and_key() -> None:
    no_identity = make_draft(
        nativeContinuation={"provider": None, "compatibilityKey": "key", "items": []}
    )
    result = validate(no_identity, branch_of("e1", "e2", "e3", "e4"))
    assert codes(result.errors) == ["native_no_identity"]
    assert messages(result.errors) == ["Native continuation must have provider identity"]

    no_key = make_draft(
        nativeContinuation={"provider": PROVIDER, "compatibilityKey": "", "items": []}
    )
    result = validate(no_key, branch_of("e1", "e2", "e3", "e4"))
    assert codes(result.errors) == ["native_no_compatibility_key"]
    assert messages(result.errors) == [
        "Native continuation must have a non-empty compatibility key"
    ]


def test_33_exceeds_hard_limit_when_blocking() -> None:
    draft = make_draft(
        metrics={"estimatedTokensAfter": 15_000, "reclaimedTokens": 35_000, "savingsRatio": 0.7}
    )
    result = validate(draft, hard_limit=10_000, blocking=True)
    assert codes(result.errors) == ["exceeds_hard_limit"]
    assert messages(result.errors) == [
        "Post-compaction estimate (15000) exceeds hard limit (10000)"
    ]
    # Advisory (non-blocking) plans never get this check.
    assert validate(draft, hard_limit=10_000, blocking=False).valid
    # Equal is fine.
    at_limit = make_draft(metrics={"estimatedTokensAfter": 10_000})
    assert validate(at_limit, hard_limit=10_000, blocking=True).valid


def test_34_tool_call_boundary() -> None:
    result = validate(
        make_draft(), source=[read_call("call_1")], kept=[function_output("call_1", "file content")]
    )
    assert codes(result.errors) == ["tool_call_boundary"]
    assert messages(result.errors) == [
        'Tool call "call_1" is in compacted items but its output is in kept items'
    ]
    together = validate(
        make_draft(), source=[read_call("call_1"), function_output("call_1", "file content")]
    )
    assert "tool_call_boundary" not in codes(together.errors)
    assert together.valid


def test_35_empty_pending_and_next_steps_is_a_warning() -> None:
    draft = make_draft(
        state={"goal": "Continue work", "completed": [], "pending": [], "nextSteps": []}
    )
    result = validate(draft, branch_of("e1", "e2", "e3", "e4"))
    assert result.valid is True
    assert "empty_pending_nextsteps" in codes(result.warnings)
    assert "No pending items or next steps in capsule" in messages(result.warnings)


def test_36_unknown_verification_is_a_warning() -> None:
    draft = make_draft(
        artifacts={
            "readFiles": [],
            "modifiedFiles": [],
            "verificationCommands": [],
            "verificationStatus": "unknown",
        }
    )
    result = validate(draft, branch_of("e1", "e2", "e3", "e4"))
    assert result.valid
    assert codes(result.warnings) == ["unknown_verification", "no_activated_skills"]
    assert messages(result.warnings)[0] == "Verification status is unknown"


def test_37_low_savings_is_a_warning_for_non_blocking_plans() -> None:
    draft = make_draft(
        metrics={"estimatedTokensAfter": 48_000, "reclaimedTokens": 2_000, "savingsRatio": 0.04}
    )
    result = validate(draft, branch_of("e1", "e2", "e3", "e4"))
    assert result.valid
    assert codes(result.warnings) == ["low_savings", "no_activated_skills"]
    assert messages(result.warnings)[0] == "Low savings ratio (4.0%) for manual compaction"
    assert "low_savings" not in codes(validate(draft, blocking=True).warnings)


def test_38_lost_blocker() -> None:
    source = [
        function_call("call_1", "bash", json.dumps({"command": "build"})),
        function_output("call_1", "Error: compilation failed"),
    ]
    draft = make_draft(state={"goal": "Fix build", "completed": [], "pending": [], "nextSteps": []})
    result = validate(draft, source=source)
    assert codes(result.errors) == ["lost_blocker"]
    assert messages(result.errors) == [
        'Active blocker lost in capsule: "Error: compilation failed"'
    ]


def test_39_source_code_mentioning_errors_is_not_a_blocker() -> None:
    source = [
        read_call("call_1"),
        function_output(
            "call_1",
            'import type { AgentTurnError } from "./types";\nconst failedChecks: string[] = [];',
        ),
    ]
    result = validate(make_draft(), source=source)
    assert "lost_blocker" not in codes(result.errors)
    assert result.valid


# ── every code, edge by edge ─────────────────────────────────────────────────────
def test_code_lists_are_sobas() -> None:
    assert ERROR_CODES == (
        "missing_goal",
        "first_kept_not_in_branch",
        "compacted_after_kept",
        "lost_blocker",
        "lost_failed_verification",
        "native_no_identity",
        "native_no_compatibility_key",
        "lost_activated_skill",
        "exceeds_hard_limit",
        "tool_call_boundary",
    )
    assert WARNING_CODES == (
        "empty_pending_nextsteps",
        "unknown_verification",
        "low_savings",
        "no_activated_skills",
    )


@pytest.mark.parametrize("goal", ["", "   ", "\n\t", None])
def test_missing_goal_blank_or_absent(goal) -> None:
    assert codes(validate(make_draft(state={"goal": goal})).errors) == ["missing_goal"]


def test_root_first_kept_is_always_on_the_branch() -> None:
    draft = make_draft(provenance={"firstKeptEntryId": "root"})
    assert validate(draft, branch_of("e1")).valid
    # A "root" first-compacted id skips the ordering check.
    draft = make_draft(provenance={"firstCompactedEntryId": "root", "firstKeptEntryId": "e2"})
    assert validate(draft).valid
    # An unknown first-compacted id cannot be ordered either.
    draft = make_draft(provenance={"firstCompactedEntryId": "e77", "firstKeptEntryId": "e2"})
    assert validate(draft).valid


def test_lost_blocker_checks_the_three_newest_failures_by_prefix() -> None:
    long_failure = "Error: " + "z" * 150
    source = [
        function_output("c0", "Error: oldest, not checked"),
        function_output("c1", "Error: second"),
        function_output("c2", "fine output"),
        function_output("c3", "Error: third"),
        function_output("c4", long_failure),
    ]
    # The draft keeps a longer text that contains the first 100 characters.
    kept_blocker = "Build: " + long_failure[:100] + " (seen twice)"
    draft = make_draft(state={"blockers": [kept_blocker, "Error: second"]})
    result = validate(draft, source=source)
    assert codes(result.errors) == ["lost_blocker"]
    assert messages(result.errors) == ['Active blocker lost in capsule: "Error: third"']
    complete = make_draft(state={"blockers": [kept_blocker, "Error: second; Error: third"]})
    assert validate(complete, source=source).valid


def test_lost_failed_verification_any_failing_exit_code() -> None:
    fail_then_pass = [
        shell_output("s1", "1 failed", exit_code=1),
        shell_output("s2", "all passed", exit_code=0),
    ]
    draft = make_draft(state={"blockers": ["1 failed"]}, artifacts={"verificationStatus": "passed"})
    result = validate(draft, source=fail_then_pass)
    assert codes(result.errors) == ["lost_failed_verification"]
    assert messages(result.errors) == ["Failed verification status lost in capsule"]
    failed = make_draft(
        state={"blockers": ["1 failed"]}, artifacts={"verificationStatus": "failed"}
    )
    assert validate(failed, source=fail_then_pass).valid
    # Real bash results carry no exit_code: the guard never fires on them.
    no_code = [shell_output("s1", "1 failed", status="completed")]
    assert validate(make_draft(), source=no_code).valid


def test_lost_activated_skill_compares_all_four_fields() -> None:
    other_hash = {**REVIEW, "contentHash": "changed"}
    result = validate(make_draft(activatedSkills=[other_hash]), skills=[REVIEW])
    assert codes(result.errors) == ["lost_activated_skill"]
    kept = validate(make_draft(activatedSkills=[REVIEW]), skills=[REVIEW])
    assert kept.valid
    assert "no_activated_skills" not in codes(kept.warnings)


def test_tool_call_boundary_kept_call_with_compacted_output_across_families() -> None:
    shell_call = {"type": "local_shell_call", "call_id": "sh_1", "command": "ls"}
    result = validate(make_draft(), source=[function_output("sh_1", "a.txt")], kept=[shell_call])
    assert codes(result.errors) == ["tool_call_boundary"]
    assert messages(result.errors) == [
        'Tool call "sh_1" is in kept items but its output is in compacted items'
    ]


def test_every_error_at_once_in_sobas_order() -> None:
    draft = make_draft(
        state={"goal": " ", "blockers": []},
        artifacts={"verificationStatus": "passed"},
        provenance={"firstCompactedEntryId": "e5", "firstKeptEntryId": "e99"},
        metrics={"estimatedTokensAfter": 20_000},
        nativeContinuation={"provider": None, "compatibilityKey": "", "items": []},
    )
    source = [
        read_call("call_1"),
        shell_output("s1", "boom", exit_code=2),
    ]
    kept = [function_output("call_1", "content")]
    result = validate(
        draft, source=source, kept=kept, hard_limit=10_000, blocking=True, skills=[REVIEW]
    )
    # compacted_after_kept cannot fire together with first_kept_not_in_branch.
    assert codes(result.errors) == [
        "missing_goal",
        "first_kept_not_in_branch",
        "lost_blocker",
        "lost_failed_verification",
        "native_no_identity",
        "native_no_compatibility_key",
        "lost_activated_skill",
        "exceeds_hard_limit",
        "tool_call_boundary",
    ]
    assert result.valid is False


def test_every_warning_at_once() -> None:
    draft = make_draft(
        state={"pending": [], "nextSteps": []},
        artifacts={"verificationStatus": "unknown"},
        metrics={"savingsRatio": 0.0999},
    )
    result = validate(draft)
    assert result.valid
    assert codes(result.warnings) == list(WARNING_CODES)
    assert messages(result.warnings) == [
        "No pending items or next steps in capsule",
        "Verification status is unknown",
        "Low savings ratio (10.0%) for manual compaction",
        "No activated skills in capsule",
    ]
    assert result.to_dict()["valid"] is True
    assert [w["code"] for w in result.to_dict()["warnings"]] == list(WARNING_CODES)
