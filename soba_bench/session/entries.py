"""One line of a SOBA session file, as an immutable record.

A line keeps its original JSON object (``data``) untouched, so writing a session back gives
JSON-equal lines in the same order, opaque provider fields and unknown line types included.
Treat ``data`` and ``item`` as read-only: they are shared, not copied, for speed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Tree entries form the conversation tree (engine.md a.2).
ITEM = "item"
COMPACTION = "compaction"  # legacy v1 endpoint compaction
CONTEXT_CAPSULE = "context_capsule"
SKILL_ACTIVATION = "skill_activation"
TREE_KINDS = frozenset({ITEM, COMPACTION, CONTEXT_CAPSULE, SKILL_ACTIVATION})

# Sidecars: never sent to the model, never on a branch.
HEADER = "session"
DEBUG = "debug"
FLIGHT_RECORD = "flight_record"
SESSION_CONFIG = "session_config"
SESSION_MIGRATION = "session_migration"
SESSION_CURSOR = "session_cursor"
SIDECAR_KINDS = frozenset(
    {HEADER, DEBUG, FLIGHT_RECORD, SESSION_CONFIG, SESSION_MIGRATION, SESSION_CURSOR}
)

# Model item types (payload of ``item`` entries, engine.md a.4).
MESSAGE = "message"
FUNCTION_CALL = "function_call"
FUNCTION_CALL_OUTPUT = "function_call_output"
LOCAL_SHELL_CALL = "local_shell_call"
LOCAL_SHELL_CALL_OUTPUT = "local_shell_call_output"
REASONING = "reasoning"
COMPACTION_ITEM = "compaction"
ITEM_TYPES = frozenset(
    {
        MESSAGE,
        FUNCTION_CALL,
        FUNCTION_CALL_OUTPUT,
        LOCAL_SHELL_CALL,
        LOCAL_SHELL_CALL_OUTPUT,
        REASONING,
        COMPACTION_ITEM,
    }
)
CALL_TYPES = frozenset({FUNCTION_CALL, LOCAL_SHELL_CALL})
OUTPUT_TYPES = frozenset({FUNCTION_CALL_OUTPUT, LOCAL_SHELL_CALL_OUTPUT})


@dataclass(frozen=True, slots=True)
class Entry:
    """One JSONL line. ``line`` is its 1-based line number in the source file (0 if built)."""

    kind: str
    data: dict[str, Any]
    line: int = 0
    # The model item, resolved once: the replay and the engine ask for it millions of times.
    item: dict[str, Any] | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        if self.kind == ITEM:
            item = self.data.get("item")
            if isinstance(item, dict):
                object.__setattr__(self, "item", item)

    @property
    def id(self) -> str | None:
        return self.data.get("id")

    @property
    def parent_id(self) -> str | None:
        return self.data.get("parentId")

    @property
    def timestamp(self) -> str | None:
        return self.data.get("timestamp")

    @property
    def is_tree(self) -> bool:
        return self.kind in TREE_KINDS

    @property
    def item_type(self) -> str | None:
        item = self.item
        return item.get("type") if item is not None else None


def is_message(item: dict[str, Any], role: str | None = None) -> bool:
    if item.get("type") != MESSAGE:
        return False
    return role is None or item.get("role") == role


def is_user_or_assistant_message(item: dict[str, Any]) -> bool:
    return item.get("type") == MESSAGE and item.get("role") in ("user", "assistant")


def make_item_entry(
    entry_id: str, parent_id: str | None, timestamp: str, item: dict[str, Any]
) -> Entry:
    """A new ``item`` tree entry in SOBA's key order."""
    return Entry(
        ITEM,
        {"type": ITEM, "id": entry_id, "parentId": parent_id, "timestamp": timestamp, "item": item},
    )
