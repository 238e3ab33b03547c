"""Builders for SOBA session lines and model items, shaped as engine.md a.2-a.5 describes."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from soba_bench.session import Entry, Session

REPO = Path(__file__).resolve().parents[1]
CONFORMANCE = REPO / "corpora" / "soba-conformance"
CONFORMANCE_SESSIONS = sorted((CONFORMANCE / "sessions").glob("*.jsonl.gz"))

TS = "2025-01-01T00:00:00.000Z"
SESSION_ID = "0b9f7c1e-4a52-4d1c-9a57-2f3c8e6d9a10"


def header(session_id: str = SESSION_ID) -> dict[str, Any]:
    return {"type": "session", "version": 2, "id": session_id, "timestamp": TS, "cwd": "/work"}


def user(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def assistant(text: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text}],
        **extra,
    }


def system(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "system", "content": [{"type": "input_text", "text": text}]}


def function_call(call_id: str, name: str, arguments: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
        **extra,
    }


def function_output(call_id: str, output: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": output, **extra}


def item_line(entry_id: str, parent_id: str | None, item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "item", "id": entry_id, "parentId": parent_id, "timestamp": TS, "item": item}


def chain(
    items: list[dict[str, Any]], ids: list[str] | None = None, parent: str | None = None
) -> list[dict[str, Any]]:
    """Item lines linked parent -> child in order (ids e0, e1, ... unless given)."""
    ids = ids or [f"e{i}" for i in range(len(items))]
    lines = []
    for entry_id, item in zip(ids, items, strict=True):
        lines.append(item_line(entry_id, parent, item))
        parent = entry_id
    return lines


def capsule_line(
    entry_id: str,
    parent_id: str | None,
    *,
    first_kept: str,
    first_compacted: str = "root",
    checkpoint_id: str = "ck_123456789abc",
    goal: str = "Fix the bug",
    skills: list[dict[str, Any]] | None = None,
    native: dict[str, Any] | None = None,
    **state: Any,
) -> dict[str, Any]:
    """A context_capsule entry with every field engine.md a.5 lists."""
    portable = {
        "goal": goal,
        "constraints": [],
        "completed": [],
        "inProgress": [],
        "pending": [],
        "decisions": [],
        "blockers": [],
        "nextSteps": [],
    }
    artifacts = {
        "readFiles": [],
        "modifiedFiles": [],
        "verificationCommands": [],
        "verificationStatus": "unknown",
    }
    for key, value in state.items():
        (artifacts if key in artifacts or key == "checkpointSummaries" else portable)[key] = value
    line: dict[str, Any] = {
        "type": "context_capsule",
        "id": entry_id,
        "parentId": parent_id,
        "timestamp": TS,
        "checkpointId": checkpoint_id,
        "trigger": "auto_threshold",
        "strategy": "portable_only",
        "quality": "portable",
        "portableState": portable,
        "artifacts": artifacts,
        "activatedSkills": skills or [],
        "provenance": {
            "firstCompactedEntryId": first_compacted,
            "firstKeptEntryId": first_kept,
            "sourceEntryIds": [] if first_compacted == "root" else [first_compacted],
        },
        "metrics": {
            "effectiveTokensBefore": 1000,
            "estimatedTokensAfter": 200,
            "reclaimedTokens": 800,
            "savingsRatio": 0.8,
            "generationDurationMs": 3,
        },
    }
    if native is not None:
        line["nativeContinuation"] = native
    return line


def skill(
    name: str, scope: str = "project", revision: str = "rev-1", content_hash: str = "abc123"
) -> dict[str, Any]:
    return {"name": name, "scope": scope, "revision": revision, "contentHash": content_hash}


def skill_line(
    entry_id: str, parent_id: str | None, action: str, ref: dict[str, Any]
) -> dict[str, Any]:
    return {
        "type": "skill_activation",
        "id": entry_id,
        "parentId": parent_id,
        "timestamp": TS,
        "action": action,
        "skill": ref,
    }


def legacy_compaction_line(
    entry_id: str, parent_id: str | None, first_kept: str, response_id: str = "resp_legacy"
) -> dict[str, Any]:
    return {
        "type": "compaction",
        "id": entry_id,
        "parentId": parent_id,
        "timestamp": TS,
        "responseId": response_id,
        "compactionItem": {"type": "compaction", "encrypted_content": "enc-legacy", "id": "cmp_1"},
        "tokensBefore": 5000,
        "firstKeptEntryId": first_kept,
    }


def cursor(leaf_id: str | None, reason: str = "append") -> dict[str, Any]:
    return {"type": "session_cursor", "timestamp": TS, "leafId": leaf_id, "reason": reason}


def session_of(lines: list[dict[str, Any]], *, with_header: bool = True) -> Session:
    """A Session built in memory (no file), header first unless told otherwise."""
    datas = ([header()] if with_header else []) + lines
    return Session(tuple(Entry(d["type"], d, n) for n, d in enumerate(datas, start=1)))


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    """Write JSONL with the standard library only (not the writer under test)."""
    payload = "".join(json.dumps(line) + "\n" for line in lines).encode("utf-8")
    path.write_bytes(gzip.compress(payload) if path.name.endswith(".gz") else payload)
    return path
