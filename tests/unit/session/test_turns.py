"""Turn openings and failed tool calls from flight records (conformance rules R3, R4)."""

from __future__ import annotations

from soba_bench.session.turns import (
    ERROR_SOURCE_FLIGHT,
    ERROR_SOURCE_HEURISTIC,
    TURN_SOURCE_FLIGHT,
    TURN_SOURCE_USER,
    scan_turn_marks,
)
from tests.builders import TS, assistant, chain, item_line, session_of, user


def flight(kind: str, payload: dict) -> dict:
    return {
        "type": "flight_record",
        "timestamp": TS,
        "data": {"version": 1, "kind": kind, "payload": payload},
    }


def test_without_flight_records_every_user_message_opens_a_turn() -> None:
    marks = scan_turn_marks(session_of(chain([user("a"), assistant("b"), user("c")])))
    assert marks.opening_ids is None
    assert marks.failed_call_ids is None
    assert marks.turn_source == TURN_SOURCE_USER
    assert marks.error_source == ERROR_SOURCE_HEURISTIC


def test_turn_start_marks_only_the_next_tree_entry_when_it_is_a_user_message() -> None:
    lines = [
        flight("runtime_event", {"type": "turn_start"}),
        item_line("u1", None, user("opens turn 1")),
        item_line("u2", "u1", user("in-turn input, no turn_start before it")),
        flight("runtime_event", {"type": "turn_start"}),
        item_line("a1", "u2", assistant("not a user message")),
        item_line("u3", "a1", user("after an assistant: does not open")),
        flight("tool_result", {"toolCallId": "call_ok", "result": {"isError": False}}),
        flight("tool_result", {"toolCallId": "call_bad", "result": {"isError": True}}),
    ]
    marks = scan_turn_marks(session_of(lines))
    assert marks.opening_ids == frozenset({"u1"})
    assert marks.failed_call_ids == frozenset({"call_bad"})
    assert marks.turn_source == TURN_SOURCE_FLIGHT
    assert marks.error_source == ERROR_SOURCE_FLIGHT
