"""buildInput (engine.md a.6) and active skills (a.7), from test-scenarios.md 10.2."""

from __future__ import annotations

from soba_bench.session.build_input import active_skill_refs, build_input
from tests.builders import (
    assistant,
    capsule_line,
    chain,
    item_line,
    legacy_compaction_line,
    session_of,
    skill,
    skill_line,
    system,
    user,
)

MESSAGES = [user("first"), assistant("second"), user("third"), assistant("fourth")]
NATIVE = {
    "provider": {"adapterId": "openai", "endpointOrigin": "https://api.openai.com", "model": "m"},
    "compatibilityKey": "native-key",
    "responseId": "resp_native",
    "items": [system("Opaque compatible native continuation")],
}


def texts(items) -> list[str]:
    return [block.get("text", "") for item in items for block in item.get("content", [])]


def test_empty_branch_gives_no_items() -> None:
    result = build_input(())
    assert result.items == ()
    assert result.previous_response_id is None


def test_no_compaction_gives_every_item_and_skips_other_tree_entries() -> None:
    lines = [
        *chain(MESSAGES[:2]),
        skill_line("s1", "e1", "activate", skill("review")),
        item_line("e2", "s1", MESSAGES[2]),
    ]
    branch = session_of(lines).active_branch
    assert len(branch) == 4
    result = build_input(branch)
    assert list(result.items) == MESSAGES[:3]
    assert result.previous_response_id is None


def test_capsule_with_first_kept_first_user_emits_capsule_then_everything() -> None:
    lines = [*chain(MESSAGES), capsule_line("cap", "e3", first_kept="e0")]
    result = build_input(session_of(lines).active_branch)
    assert len(result.items) == 5
    first = result.items[0]
    assert first["type"] == "message" and first["role"] == "system"
    assert first["content"][0]["type"] == "input_text"
    assert first["content"][0]["text"].startswith("SOBA Context Capsule\n\n## Goal\nFix the bug")
    assert list(result.items[1:]) == MESSAGES
    assert result.previous_response_id is None


def test_capsule_with_first_kept_third_message_gives_capsule_two_kept_one_new() -> None:
    lines = [
        *chain(MESSAGES),
        capsule_line("cap", "e3", first_kept="e2", first_compacted="e0"),
        item_line("e4", "cap", user("new")),
    ]
    result = build_input(session_of(lines).active_branch)
    assert len(result.items) == 4
    assert texts(result.items)[1:] == ["third", "fourth", "new"]


def test_matching_native_key_emits_native_items_verbatim() -> None:
    lines = [*chain(MESSAGES), capsule_line("cap", "e3", first_kept="e3", native=NATIVE)]
    branch = session_of(lines).active_branch
    native = build_input(branch, "native-key")
    assert native.items[0] is NATIVE["items"][0]
    assert list(native.items) == [NATIVE["items"][0], MESSAGES[3]]
    assert native.previous_response_id is None

    for key in ("other-key", "", None):
        portable = build_input(branch, key)
        assert texts(portable.items)[0].startswith("SOBA Context Capsule")
        assert len(portable.items) == 2


def test_native_continuation_without_items_emits_no_prefix() -> None:
    native = {**NATIVE, "items": []}
    lines = [*chain(MESSAGES), capsule_line("cap", "e3", first_kept="e3", native=native)]
    result = build_input(session_of(lines).active_branch, "native-key")
    assert list(result.items) == [MESSAGES[3]]


def test_last_capsule_on_the_branch_wins() -> None:
    lines = [
        *chain(MESSAGES),
        capsule_line("c1", "e3", first_kept="e1", goal="old goal"),
        item_line("e4", "c1", user("after one")),
        capsule_line("c2", "e4", first_kept="e3", goal="new goal", checkpoint_id="ck_0000000000aa"),
    ]
    result = build_input(session_of(lines).active_branch)
    assert "## Goal\nnew goal" in texts(result.items)[0]
    assert texts(result.items)[1:] == ["fourth", "after one"]


def test_capsule_whose_first_kept_is_not_on_the_branch_emits_the_capsule_only() -> None:
    # Quirk: not even entries appended after the capsule are sent.
    for first_kept in ("elsewhere", "root"):
        lines = [
            *chain(MESSAGES),
            capsule_line("cap", "e3", first_kept=first_kept),
            item_line("e4", "cap", user("appended after the capsule")),
        ]
        result = build_input(session_of(lines).active_branch)
        assert len(result.items) == 1
        assert texts(result.items)[0].startswith("SOBA Context Capsule")


def test_legacy_compaction_item_first_and_previous_response_id() -> None:
    lines = [
        *chain(MESSAGES),
        legacy_compaction_line("lc", "e3", first_kept="e2"),
        item_line("e4", "lc", user("new")),
    ]
    result = build_input(session_of(lines).active_branch)
    assert result.items[0] == {
        "type": "compaction",
        "encrypted_content": "enc-legacy",
        "id": "cmp_1",
    }
    assert texts(result.items[1:]) == ["third", "fourth", "new"]
    assert result.previous_response_id == "resp_legacy"


def test_legacy_compaction_with_unknown_first_kept_gives_compaction_item_only() -> None:
    lines = [
        *chain(MESSAGES),
        legacy_compaction_line("lc", "e3", first_kept="root"),
        item_line("e4", "lc", user("new")),
    ]
    result = build_input(session_of(lines).active_branch)
    assert [i["type"] for i in result.items] == ["compaction"]
    assert result.previous_response_id == "resp_legacy"


def test_last_legacy_compaction_wins() -> None:
    lines = [
        *chain(MESSAGES[:2]),
        legacy_compaction_line("l1", "e1", first_kept="e0", response_id="resp_old"),
        item_line("e2", "l1", MESSAGES[2]),
        legacy_compaction_line("l2", "e2", first_kept="e2", response_id="resp_new"),
    ]
    result = build_input(session_of(lines).active_branch)
    assert result.previous_response_id == "resp_new"
    assert texts(result.items[1:]) == ["third"]


def test_capsule_takes_precedence_over_an_earlier_legacy_compaction() -> None:
    lines = [
        *chain(MESSAGES),
        legacy_compaction_line("lc", "e3", first_kept="e1"),
        capsule_line("cap", "lc", first_kept="e2"),
    ]
    result = build_input(session_of(lines).active_branch)
    assert texts(result.items)[0].startswith("SOBA Context Capsule")
    assert texts(result.items)[1:] == ["third", "fourth"]
    assert all(i["type"] != "compaction" for i in result.items)
    assert result.previous_response_id is None


def test_capsules_off_the_active_branch_are_ignored() -> None:
    lines = [
        *chain(MESSAGES[:2]),
        capsule_line("cap", "e1", first_kept="e1"),
        item_line("fork", "e1", user("other path")),
    ]
    session = session_of(lines)
    assert session.leaf_id == "cap"
    result = build_input(session.branch("fork"))
    assert texts(result.items) == ["first", "second", "other path"]


# Active skills (a.7)


def test_skill_activate_gives_one_ref() -> None:
    lines = [*chain(MESSAGES[:1]), skill_line("s1", "e0", "activate", skill("review"))]
    assert active_skill_refs(session_of(lines).active_branch) == [skill("review")]


def test_skill_activate_then_deactivate_gives_none() -> None:
    lines = [
        *chain(MESSAGES[:1]),
        skill_line("s1", "e0", "activate", skill("review")),
        skill_line("s2", "s1", "deactivate", skill("review")),
    ]
    assert active_skill_refs(session_of(lines).active_branch) == []


def test_capsule_skills_plus_later_activation_gives_two_refs() -> None:
    lines = [
        *chain(MESSAGES[:1]),
        skill_line("s0", "e0", "activate", skill("ignored-before-capsule")),
        capsule_line("cap", "s0", first_kept="e0", skills=[skill("review")]),
        skill_line("s1", "cap", "activate", skill("deploy", scope="user")),
    ]
    refs = active_skill_refs(session_of(lines).active_branch)
    assert [r["name"] for r in refs] == ["review", "deploy"]


def test_deactivation_after_capsule_removes_a_capsule_skill_and_reactivation_updates() -> None:
    lines = [
        *chain(MESSAGES[:1]),
        capsule_line(
            "cap", "e0", first_kept="e0", skills=[skill("review"), skill("lint", revision="rev-1")]
        ),
        skill_line("s1", "cap", "deactivate", skill("review")),
        skill_line("s2", "s1", "activate", skill("lint", revision="rev-2")),
    ]
    refs = active_skill_refs(session_of(lines).active_branch)
    assert refs == [skill("lint", revision="rev-2")]


def test_no_capsule_no_activation_gives_no_skills() -> None:
    assert active_skill_refs(session_of(chain(MESSAGES)).active_branch) == []
