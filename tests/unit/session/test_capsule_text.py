"""Capsule text serializer (engine.md h.1; test-scenarios.md 10.2 "Serializer")."""

from __future__ import annotations

from soba_bench.session.capsule_text import (
    capsule_input_items,
    capsule_text,
    serialize_capsule_context,
    serialize_portable_state,
)
from tests.builders import capsule_line, skill

EMPTY_ARTIFACTS = {
    "readFiles": [],
    "modifiedFiles": [],
    "verificationCommands": [],
    "verificationStatus": "unknown",
}


def state(**fields) -> dict:
    base = {
        "goal": "Fix the bug",
        "constraints": [],
        "completed": [],
        "inProgress": [],
        "pending": [],
        "decisions": [],
        "blockers": [],
        "nextSteps": [],
    }
    return {**base, **fields}


FULL_STATE = state(
    constraints=["Keep the public API"],
    completed=["Read src/a.ts", "Wrote a test"],
    inProgress=["Fix src/b.ts"],
    pending=["Run the suite"],
    decisions=[{"decision": "Use zod", "rationale": "type safety"}, {"decision": "No ORM"}],
    blockers=["bun test fails on b.ts"],
    nextSteps=["Fix the failing assertion"],
)
FULL_ARTIFACTS = {
    "readFiles": ["src/a.ts", "src/c.ts"],
    "modifiedFiles": ["src/output.ts"],
    "verificationCommands": ["bun test"],
    "verificationStatus": "failed",
    "checkpointSummaries": ["first pass done"],
}
FULL_TEXT = """SOBA Context Capsule

## Goal
Fix the bug

## Constraints
- Keep the public API

## Completed
- Read src/a.ts
- Wrote a test

## In Progress
- Fix src/b.ts

## Pending
- Run the suite

## Decisions
- Use zod (rationale: type safety)
- No ORM

## Blockers
- bun test fails on b.ts

## Next Steps
- Fix the failing assertion

## Artifacts
- Verification status: failed
- Modified: src/output.ts
- Read: src/a.ts
- Read: src/c.ts
- Verification command: bun test
- Checkpoint: first pass done

## Active Skills
- review (project, revision rev-1, hash abc123)
- deploy (user, revision 7, hash ff00)"""


def full_capsule() -> dict:
    capsule = capsule_line("cap", None, first_kept="root")
    capsule["portableState"] = FULL_STATE
    capsule["artifacts"] = FULL_ARTIFACTS
    capsule["activatedSkills"] = [skill("review"), skill("deploy", "user", "7", "ff00")]
    return capsule


def test_all_sections_in_order_exact_text() -> None:
    assert capsule_text(full_capsule()) == FULL_TEXT


def test_empty_sections_are_omitted() -> None:
    text = serialize_portable_state(state(pending=["Run tests"]))
    assert text == "## Goal\nFix the bug\n\n## Pending\n- Run tests"
    for title in ("Constraints", "Completed", "In Progress", "Decisions", "Blockers", "Next Steps"):
        assert f"## {title}" not in text


def test_goal_section_is_always_present_even_when_empty() -> None:
    assert serialize_portable_state(state(goal="")) == "## Goal\n"


def test_blockers_section_when_present() -> None:
    text = serialize_portable_state(state(blockers=["CI red", "Missing key"]))
    assert "## Blockers\n- CI red\n- Missing key" in text


def test_decision_with_and_without_rationale() -> None:
    text = serialize_portable_state(
        state(
            decisions=[
                {"decision": "Use zod", "rationale": "type safety"},
                {"decision": "No ORM"},
                {"decision": "Keep REST", "rationale": ""},
                {"decision": "Pin deps", "rationale": None},
            ]
        )
    )
    assert "- Use zod (rationale: type safety)" in text
    assert "- No ORM\n- Keep REST\n- Pin deps" in text
    assert "undefined" not in text
    assert "null" not in text


def test_artifacts_section_is_always_present() -> None:
    text = serialize_capsule_context(state(), EMPTY_ARTIFACTS, [])
    assert text == "## Goal\nFix the bug\n\n## Artifacts\n- Verification status: unknown"
    assert "## Active Skills" not in text


def test_capsule_context_lines_from_soba_test() -> None:
    artifacts = {
        **EMPTY_ARTIFACTS,
        "modifiedFiles": ["src/output.ts"],
        "verificationCommands": ["bun test"],
        "verificationStatus": "failed",
    }
    text = serialize_capsule_context(state(), artifacts, [skill("review")])
    for needle in (
        "## Artifacts",
        "Verification status: failed",
        "Modified: src/output.ts",
        "Verification command: bun test",
        "## Active Skills",
        "review (project, revision rev-1, hash abc123)",
    ):
        assert needle in text


def test_capsule_input_item_is_one_system_message() -> None:
    capsule = full_capsule()
    (item,) = capsule_input_items(capsule)
    assert item == {
        "type": "message",
        "role": "system",
        "content": [{"type": "input_text", "text": FULL_TEXT}],
    }


def test_non_string_values_are_stringified_like_javascript() -> None:
    text = serialize_portable_state(state(goal="g", completed=[]))
    assert text == "## Goal\ng"
    odd = serialize_capsule_context(
        state(),
        EMPTY_ARTIFACTS,
        [{"name": "x", "scope": "user", "revision": 2.0, "contentHash": None}],
    )
    assert odd.endswith("- x (user, revision 2, hash null)")
