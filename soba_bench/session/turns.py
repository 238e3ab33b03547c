"""Where turns start and which tool outputs failed, from the whole file (conformance R3, R4).

Sessions written by SOBA's agent loop carry flight records that say this exactly; others fall
back to "every user message opens a turn" and SOBA's own failure heuristic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from soba_bench.session import entries as E
from soba_bench.session.entries import Entry
from soba_bench.session.model import Session

TURN_SOURCE_FLIGHT = "flight_record turn_start"
TURN_SOURCE_USER = "every user message"
ERROR_SOURCE_FLIGHT = "flight_record tool_result.isError"
ERROR_SOURCE_HEURISTIC = "toolFailureOutput(item)"


@dataclass(frozen=True)
class TurnMarks:
    """``opening_ids`` is None when every user message opens a turn."""

    opening_ids: frozenset[str | None] | None
    failed_call_ids: frozenset[str] | None

    @property
    def turn_source(self) -> str:
        return TURN_SOURCE_USER if self.opening_ids is None else TURN_SOURCE_FLIGHT

    @property
    def error_source(self) -> str:
        return ERROR_SOURCE_HEURISTIC if self.failed_call_ids is None else ERROR_SOURCE_FLIGHT


def _flight(entry: Entry, kind: str) -> dict[str, Any] | None:
    data = entry.data.get("data")
    if entry.kind != E.FLIGHT_RECORD or not isinstance(data, dict) or data.get("kind") != kind:
        return None
    payload = data.get("payload")
    return payload if isinstance(payload, dict) else {}


def scan_turn_marks(session: Session) -> TurnMarks:
    has_turn_start = False
    opening: set[str | None] = set()
    armed = False
    has_tool_results = False
    failed: set[str] = set()
    for entry in session.lines:
        runtime = _flight(entry, "runtime_event")
        if runtime is not None and runtime.get("type") == "turn_start":
            has_turn_start = True
            armed = True
            continue
        result = _flight(entry, "tool_result")
        if result is not None:
            has_tool_results = True
            outcome = result.get("result")
            if isinstance(outcome, dict) and outcome.get("isError") is True:
                call_id = result.get("toolCallId")
                if isinstance(call_id, str):
                    failed.add(call_id)
            continue
        if entry.is_tree:
            # Only the first tree line after a turn_start record can open the turn.
            item = entry.item
            if armed and item is not None and E.is_message(item, "user"):
                opening.add(entry.id)
            armed = False
    return TurnMarks(
        frozenset(opening) if has_turn_start else None,
        frozenset(failed) if has_tool_results else None,
    )
