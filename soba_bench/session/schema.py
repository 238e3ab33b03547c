"""Field rules for every line kind and model item type of a SOBA session (engine.md a.2-a.5).

Only fields that SOBA or the engine reads are checked; everything else passes through
untouched. A violation is reported as (field path, value, what is accepted).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from soba_bench.session import entries as E

_MISSING = object()

# Accepted-type names -> predicate. Booleans are not numbers here (JSON true is not 1).
_TYPES = {
    "string": lambda v: isinstance(v, str),
    "non-empty string": lambda v: isinstance(v, str) and v != "",
    "string or null": lambda v: v is None or isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer or null": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "object or null": lambda v: v is None or isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "string or list": lambda v: isinstance(v, str | list),
    "list of strings": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "list of objects": lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v),
}

Rule = tuple[str, str, bool]  # (field path, accepted type, required)

_TREE: list[Rule] = [
    ("id", "non-empty string", True),
    ("parentId", "string or null", True),
    ("timestamp", "string", True),
]

LINE_RULES: dict[str, list[Rule]] = {
    E.HEADER: [
        ("version", "number", True),
        ("id", "string", True),
        ("timestamp", "string", False),
        ("cwd", "string", False),
    ],
    E.ITEM: [*_TREE, ("item", "object", True), ("item.type", "string", True)],
    E.COMPACTION: [
        *_TREE,
        ("compactionItem", "object", True),
        ("firstKeptEntryId", "string", True),
        ("tokensBefore", "number", False),
    ],
    E.CONTEXT_CAPSULE: [
        *_TREE,
        ("checkpointId", "string", True),
        ("trigger", "string", True),
        ("strategy", "string", True),
        ("quality", "string", True),
        ("portableState", "object", True),
        ("portableState.goal", "string", True),
        ("portableState.constraints", "list of strings", True),
        ("portableState.completed", "list of strings", True),
        ("portableState.inProgress", "list of strings", True),
        ("portableState.pending", "list of strings", True),
        ("portableState.decisions", "list of objects", True),
        ("portableState.blockers", "list of strings", True),
        ("portableState.nextSteps", "list of strings", True),
        ("artifacts", "object", True),
        ("artifacts.readFiles", "list of strings", True),
        ("artifacts.modifiedFiles", "list of strings", True),
        ("artifacts.verificationCommands", "list of strings", True),
        ("artifacts.verificationStatus", "string", True),
        ("artifacts.checkpointSummaries", "list of strings", False),
        ("activatedSkills", "list of objects", True),
        ("nativeContinuation", "object or null", False),
        ("provenance", "object", True),
        ("provenance.firstCompactedEntryId", "string", True),
        ("provenance.firstKeptEntryId", "string", True),
        ("provenance.sourceEntryIds", "list of strings", True),
        ("metrics", "object", True),
    ],
    E.SKILL_ACTIVATION: [
        *_TREE,
        ("action", "string", True),
        ("skill", "object", True),
        ("skill.name", "string", True),
    ],
    E.SESSION_CURSOR: [("leafId", "string or null", True), ("reason", "string", False)],
    E.SESSION_MIGRATION: [("fromVersion", "number", False), ("toVersion", "number", False)],
    E.SESSION_CONFIG: [("key", "string", True)],
    E.FLIGHT_RECORD: [("data", "object", True), ("data.kind", "string", False)],
    E.DEBUG: [],
}

ITEM_RULES: dict[str, list[Rule]] = {
    E.MESSAGE: [("role", "string", True), ("content", "string or list", True)],
    E.FUNCTION_CALL: [
        ("call_id", "string", True),
        ("name", "string", True),
        ("arguments", "string", True),
    ],
    E.FUNCTION_CALL_OUTPUT: [("call_id", "string", True), ("output", "string or list", True)],
    E.LOCAL_SHELL_CALL: [("call_id", "string", True), ("command", "string", True)],
    E.LOCAL_SHELL_CALL_OUTPUT: [
        ("call_id", "string", True),
        ("output", "string", True),
        ("exit_code", "integer or null", False),
    ],
    E.REASONING: [],
    E.COMPACTION_ITEM: [("encrypted_content", "string", True)],
}


def _lookup(obj: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return _MISSING
        obj = obj[part]
    return obj


def _check(
    obj: dict[str, Any], rules: list[Rule], prefix: str = ""
) -> Iterator[tuple[str, Any, str]]:
    for path, accepted, required in rules:
        value = _lookup(obj, path)
        if value is _MISSING:
            parent = path.rpartition(".")[0]
            # A missing child of a missing/mistyped parent is already reported.
            if required and (not parent or isinstance(_lookup(obj, parent), dict)):
                yield prefix + path, _MISSING, accepted
            continue
        if not _TYPES[accepted](value):
            yield prefix + path, value, accepted


def line_violations(data: dict[str, Any]) -> Iterator[tuple[str, Any, str]]:
    """(field, value or MISSING, accepted) for each rule the line breaks."""
    kind = data.get("type")
    yield from _check(data, LINE_RULES.get(kind, []) if isinstance(kind, str) else [])
    if kind == E.ITEM and isinstance(data.get("item"), dict):
        item = data["item"]
        yield from _check(item, ITEM_RULES.get(item.get("type"), []), prefix="item.")
        if item.get("type") == E.MESSAGE and isinstance(item.get("content"), list):
            for i, block in enumerate(item["content"]):
                if not isinstance(block, dict):
                    yield f"item.content[{i}]", block, "object"
                elif "text" in block and not isinstance(block["text"], str):
                    yield f"item.content[{i}].text", block["text"], "string"


def is_missing(value: Any) -> bool:
    return value is _MISSING
