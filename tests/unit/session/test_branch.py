"""Leaf and branch rules (engine.md a.3)."""

from __future__ import annotations

from pathlib import Path

from soba_bench.session import read_session
from tests.builders import (
    TS,
    assistant,
    chain,
    cursor,
    header,
    item_line,
    session_of,
    user,
    write_lines,
)


def ids(entries) -> list[str]:
    return [e.id for e in entries]


def test_no_cursor_leaf_is_first_childless_entry_in_file_order() -> None:
    # a -> b -> c and a fork a -> x: "x" comes first in the file and has no children.
    lines = [
        item_line("a", None, user("start")),
        item_line("x", "a", assistant("abandoned fork")),
        item_line("b", "a", assistant("main")),
        item_line("c", "b", user("more")),
    ]
    session = session_of(lines)
    assert session.leaf_id == "x"
    assert ids(session.active_branch) == ["a", "x"]
    assert ids(session.branch("c")) == ["a", "b", "c"]


def test_no_cursor_and_every_entry_has_children_falls_back_to_last_tree_entry() -> None:
    # A parent cycle: both entries have a child, so the last tree entry is the leaf.
    lines = [item_line("p", "q", user("p")), item_line("q", "p", user("q"))]
    session = session_of(lines)
    assert session.leaf_id == "q"
    assert ids(session.active_branch) == ["p", "q"]  # the walk ends instead of looping


def test_last_cursor_wins_over_earlier_ones_and_over_childless_rule() -> None:
    lines = [
        *chain([user("u0"), assistant("a1"), user("u2")]),
        cursor("e2"),
        cursor("e1", reason="rewind"),
    ]
    session = session_of(lines)
    assert session.leaf_id == "e1"
    assert ids(session.active_branch) == ["e0", "e1"]


def test_last_cursor_with_unknown_id_wins_and_gives_an_empty_branch() -> None:
    lines = [*chain([user("u0"), assistant("a1")]), cursor("e1"), cursor("gone1234")]
    session = session_of(lines)
    assert session.leaf_id == "gone1234"
    assert session.active_branch == ()


def test_reset_cursor_with_null_leaf_gives_an_empty_branch() -> None:
    session = session_of([*chain([user("u0")]), cursor(None, reason="reset")])
    assert session.leaf_id is None
    assert session.active_branch == ()


def test_cursor_before_later_entries_still_wins() -> None:
    # The cursor is taken as-is even when tree entries follow it without a newer cursor.
    lines = [item_line("a", None, user("a")), cursor("a"), item_line("b", "a", user("b"))]
    assert session_of(lines).leaf_id == "a"


def test_branch_stops_silently_at_a_missing_parent() -> None:
    lines = [
        item_line("a", None, user("a")),
        item_line("c", "missing", user("c")),
        item_line("d", "c", user("d")),
    ]
    session = session_of(lines)
    assert session.leaf_id == "a"
    assert ids(session.branch("d")) == ["c", "d"]


def test_branch_of_unknown_id_is_empty() -> None:
    session = session_of(chain([user("u0")]))
    assert session.branch("nope") == ()


def test_sidecars_are_never_on_the_branch_and_empty_session_has_no_leaf() -> None:
    sidecars = [
        {"type": "debug", "timestamp": TS, "data": {}},
        {
            "type": "flight_record",
            "timestamp": TS,
            "data": {"version": 1, "kind": "approval", "payload": {}},
        },
        {"type": "session_config", "timestamp": TS, "key": "k", "value": 1},
        {"type": "session_migration", "timestamp": TS, "fromVersion": 1, "toVersion": 2},
    ]
    session = session_of([*chain([user("u0"), assistant("a1")]), *sidecars])
    assert ids(session.active_branch) == ["e0", "e1"]
    assert len(session.tree_entries) == 2
    assert len(session.lines) == 7

    empty = session_of(sidecars)
    assert empty.leaf_id is None
    assert empty.active_branch == ()


def test_header_and_session_id() -> None:
    session = session_of(chain([user("u")]))
    assert session.header is not None
    assert session.session_id == header()["id"]


def test_leaf_and_branch_survive_a_disk_round_trip(tmp_path: Path) -> None:
    lines = [header(), *chain([user("u0"), assistant("a1"), user("u2")]), cursor("e1", "rewind")]
    session = read_session(write_lines(tmp_path / "s.jsonl", lines))
    assert session.leaf_id == "e1"
    assert ids(session.active_branch) == ["e0", "e1"]
    assert [e.line for e in session.active_branch] == [2, 3]
